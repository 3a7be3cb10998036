from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OperationsConfig(AppConfig):
    """Keeping the site running: the worker's heartbeat, daily backups, health and logs."""

    name = "operations"
    verbose_name = _("Operations")
