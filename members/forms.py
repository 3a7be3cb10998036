from crispy_forms.helper import FormHelper
from crispy_forms.layout import Submit
from django import forms
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from club.models import current as current_club
from members import accounts, knsb, services
from members.models import Member


class RatingListUploadForm(forms.Form):
    file = forms.FileField(label=_("rating list"), help_text=_("The KNSB's zip or the CSV in it."))
    date = forms.DateField(label=_("list date"), help_text=_("For example 1-6-2026."))

    def clean_file(self):
        """Refuse a file over the limit by its size, before anything reads it (Django has
        already spooled the upload to a temporary file; its memory settings are no limit)."""
        file = self.cleaned_data["file"]
        problem = knsb.too_large_problem(file.size)
        if problem:
            raise forms.ValidationError(capfirst(problem) + ".", code="too_large")
        return file


class MailChoiceForm(forms.ModelForm):
    """A member's choice of e-mails, on their profile page."""

    class Meta:
        model = Member
        fields = list(services.MAIL_CHOICES)
        labels = {
            "mail_pairing": _("The pairing"),
            "mail_confirmations": _("Confirmations of my cancellations"),
            "mail_ranking": _("The new ranking"),
        }
        help_texts = {
            # What the worker sends (clubweek/ranking_mail.py): classical rounds only, once.
            "mail_ranking": _(
                "After each club evening of the internal competition, once its results are "
                "final: your new position, your points of that round and the top of the "
                "standings."
            ),
        }

    @classmethod
    def label_of(cls, choice: str) -> str:
        """A choice as the profile names it; the reminder with the club's day and deadline."""
        if choice == "mail_reminder":
            return current_club().reminder_choice
        return cls.Meta.labels[choice]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        club = current_club()
        self.fields["mail_reminder"].label = self.label_of("mail_reminder")
        self.fields["mail_reminder"].help_text = _(
            "On the %(day)s before each club evening: you can cancel until %(time)s today."
        ) % {"day": club.deadline_day_name, "time": time_format(club.deadline_time)}
        self.helper = FormHelper()
        self.helper.form_class = "mail-choice"
        self.helper.add_input(Submit("save", _("Save"), css_class="btn btn-primary"))


class MemberPasswordResetForm(PasswordResetForm):
    """Django's form, with the address where it lives: on the member (`members.accounts`).
    It only records the request, the same for any address, so it answers alike and in the same
    time whether or not the address is known; the worker sends the link (its next pass, within
    seconds). An invited member who lost the invitation gets in this way too."""

    def save(self, *args, **kwargs):
        accounts.ask_for_reset(self.cleaned_data["email"], timezone.now())


class MemberLoginForm(AuthenticationForm):
    """Django's login, named for what it takes: a username or the member's e-mail address."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].label = _("Username or e-mail address")


class AddressForm(forms.Form):
    """A member's new e-mail address, on the profile (confirmed by a link sent to it)."""

    email = forms.EmailField(label=_("New e-mail address"), max_length=254)
