from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MembersConfig(AppConfig):
    name = "members"
    verbose_name = _("Members")

    def ready(self):
        # `manage.py createsuperuser` in Dutch (members/superuser.py). Django finds the command
        # as django.contrib.auth's module's Command: an app after auth in INSTALLED_APPS cannot
        # shadow it by name, so the class is put in its place.
        from django.contrib.auth.management.commands import createsuperuser

        from members import superuser

        createsuperuser.Command = superuser.Command
