from crispy_forms.helper import FormHelper
from crispy_forms.layout import Submit
from django import forms
from django.utils import formats, timezone
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from absences.models import Registration
from club.models import current as current_club
from competition.models import Round
from members.models import Member


class EveningChoiceField(forms.ModelMultipleChoiceField):
    """The coming club evenings, each labelled with its deadline and the member's status."""

    def __init__(self, *args, evenings=(), **kwargs):
        self.evenings = {evening.round.pk: evening for evening in evenings}
        super().__init__(*args, **kwargs)

    def label_from_instance(self, round_: Round):
        evening = self.evenings.get(round_.pk)
        title = _("Round %(number)s, %(date)s") % {
            "number": round_.number,
            "date": formats.date_format(round_.date, "l j F"),
        }
        if evening is None:
            return title
        status_class = "text-bg-secondary" if evening.cancelled else "text-bg-light"
        game = ""
        if evening.board is not None:
            game = format_html(
                '<br><span class="evening-game">{}</span>',
                _("Board %(board)s, %(colour)s against %(opponent)s")
                % {"board": evening.board, "colour": evening.colour, "opponent": evening.opponent},
            )
        return format_html(
            '<span class="evening-title">{}</span> <span class="badge {}">{}</span>{}'
            '<br><small class="{}">{}</small>',
            title,
            status_class,
            evening.status,
            game,
            "text-danger" if evening.cancelling_is_costly else "text-body-secondary",
            evening.when_cancelling,
        )


class CancellationForm(forms.Form):
    """Cancel or register again for one or more coming club evenings."""

    action = forms.ChoiceField(
        label=gettext_lazy("I want to:"),
        choices=Registration.Action.choices,
        widget=forms.RadioSelect,
        initial=Registration.Action.CANCEL,
    )
    reason = forms.ChoiceField(
        label=gettext_lazy("Reason"),
        choices=lambda: [
            (Registration.Reason.REGULAR, Registration.Reason.REGULAR.label),
            (Registration.Reason.TEAM, current_club().team_match_words),
        ],
        initial=Registration.Reason.REGULAR,
    )
    reported_at = forms.DateTimeField(
        label=gettext_lazy("The member reported at"),
        required=False,
        help_text=gettext_lazy("For the arbiter: when the member phoned or e-mailed. Empty: now."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    rounds = EveningChoiceField(
        Round.objects.none(),
        label=gettext_lazy("Club evenings"),
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, evenings, arbiter: bool, now, **kwargs):
        super().__init__(*args, **kwargs)
        self.now = now
        self.season_start = evenings[0].round.competition.season.start_date if evenings else None
        self.fields["rounds"].evenings = {evening.round.pk: evening for evening in evenings}
        self.fields["rounds"].queryset = Round.objects.filter(
            pk__in=[evening.round.pk for evening in evenings]
        ).order_by("number")
        if not arbiter:
            del self.fields["reported_at"]
        self.helper = FormHelper()
        self.helper.form_tag = False  # the page's form also carries the preview's buttons
        self.helper.disable_csrf = True

    def clean_reported_at(self):
        reported_at = self.cleaned_data.get("reported_at")
        if reported_at and reported_at > self.now:
            raise forms.ValidationError(_("A report cannot lie in the future."))
        if (
            reported_at
            and self.season_start
            and timezone.localdate(reported_at) < self.season_start
        ):
            raise forms.ValidationError(
                _("A report cannot lie before the season (%(start)s).")
                % {"start": formats.date_format(self.season_start, "j F Y")}
            )
        return reported_at


class MemberChoiceForm(forms.Form):
    """For the arbiter: whose evenings to open."""

    lid = forms.ModelChoiceField(
        Member.objects.active(), label=gettext_lazy("Arbiter: cancel or register for")
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = FormHelper()
        self.helper.form_method = "get"
        self.helper.form_class = "member-choice mb-3"
        self.helper.disable_csrf = True
        # crispy's Submit is "btn btn-primary" plus any class given: grey text on blue. The
        # button's own classes instead, readable (a secondary outline, like the page's others).
        open_button = Submit("open", gettext_lazy("Open"))
        open_button.field_classes = "btn btn-outline-secondary"
        self.helper.add_input(open_button)
