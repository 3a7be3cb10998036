"""The roof as an app (its command: the demo season, `manage.py load_demo`), and django-axes
under the name the arbiter reads in /beheer/ (axes ships no Dutch)."""

from axes.apps import AppConfig as AxesAppConfig
from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.utils.translation import gettext_lazy as _


class SiteConfig(AppConfig):
    name = "dsc_site"
    verbose_name = "site"
    default = True


class ClubAdminConfig(admin_apps.AdminConfig):
    """Django's admin, its site `dsc_site.admin_site.ClubAdminSite` (the list of models made
    once per request and written once per distinct list)."""

    default_site = "dsc_site.admin_site.ClubAdminSite"
    default = False


class LoginLockoutsConfig(AxesAppConfig):
    verbose_name = _("Login lockouts")
    default = False

    def ready(self):
        super().ready()
        from dsc_site import lockouts  # noqa: F401  (registers the arbiter's admin)
