"""The site's own start-up (the page cache), and django-axes under the name the arbiter reads
in /beheer/ (axes ships no Dutch)."""

from axes.apps import AppConfig as AxesAppConfig
from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LoginLockoutsConfig(AxesAppConfig):
    verbose_name = _("Login lockouts")

    def ready(self):
        super().ready()
        from dsc_site import lockouts  # noqa: F401  (registers the arbiter's admin)


class SiteConfig(AppConfig):
    name = "dsc_site"
    verbose_name = "DSC"

    def ready(self):
        from dsc_site import page_cache

        page_cache.connect()
