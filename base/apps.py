"""The site's building blocks, below every app: the shared page cache (`page_cache`), the
Dutch history pages of the admin (`history`) and the site's own links in e-mails (`links`).
Every app may import them; they import no app."""

from django.apps import AppConfig


class BaseConfig(AppConfig):
    name = "base"
    verbose_name = "site"

    def ready(self):
        from base import admin_deletion, fair_use, page_cache

        admin_deletion.connect()
        page_cache.connect()
        fair_use.connect()
