"""The roof as an app (its command: the demo season, `manage.py load_demo`), and django-axes
under the name the arbiter reads in /beheer/ (axes ships no Dutch)."""

from axes.apps import AppConfig as AxesAppConfig
from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SiteConfig(AppConfig):
    name = "dsc_site"
    verbose_name = "DSC"
    default = True


class LoginLockoutsConfig(AxesAppConfig):
    verbose_name = _("Login lockouts")
    default = False

    def ready(self):
        super().ready()
        from dsc_site import lockouts  # noqa: F401  (registers the arbiter's admin)
