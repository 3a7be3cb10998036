from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AbsencesConfig(AppConfig):
    name = "absences"
    verbose_name = _("Cancellations")
