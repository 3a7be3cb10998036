from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubConfig(AppConfig):
    name = "club"
    verbose_name = _("club")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.core.signals import request_started

        from club import models

        request_started.connect(models.forget, dispatch_uid="club-forget-per-request")
