from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from absences.models import Registration
from competition.models import Round


class CancellationForm(forms.Form):
    rounds = forms.ModelMultipleChoiceField(
        Round.objects.none(), label=_("club evenings"), widget=forms.CheckboxSelectMultiple
    )
    action = forms.ChoiceField(
        label=_("I want to"),
        choices=Registration.Action.choices,
        widget=forms.RadioSelect,
        initial=Registration.Action.CANCEL,
    )
    reason = forms.ChoiceField(
        label=_("reason"),
        choices=Registration.Reason.choices,
        initial=Registration.Reason.REGULAR,
    )
    reported_at = forms.DateTimeField(
        label=_("the member reported at"),
        required=False,
        help_text=_("For the arbiter: when the member phoned or e-mailed. Empty: now."),
    )

    def __init__(self, *args, rounds, arbiter: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["rounds"].queryset = Round.objects.filter(pk__in=[r.pk for r in rounds])
        if not arbiter:
            del self.fields["reported_at"]

    def clean_reported_at(self):
        reported_at = self.cleaned_data.get("reported_at")
        if reported_at and reported_at > timezone.now():
            raise forms.ValidationError(_("A report cannot lie in the future."))
        return reported_at
