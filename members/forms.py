from django import forms
from django.utils.translation import gettext_lazy as _


class RatingListUploadForm(forms.Form):
    file = forms.FileField(label=_("rating list"), help_text=_("The KNSB's zip or the CSV in it."))
    date = forms.DateField(label=_("list date"), help_text=_("For example 1-6-2026."))
