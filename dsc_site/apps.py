"""django-axes under the name the arbiter reads in /beheer/ (axes ships no Dutch)."""

from axes.apps import AppConfig as AxesAppConfig
from django.utils.translation import gettext_lazy as _


class LoginLockoutsConfig(AxesAppConfig):
    verbose_name = _("Login lockouts")

    def ready(self):
        super().ready()
        from dsc_site import lockouts  # noqa: F401  (registers the arbiter's admin)
