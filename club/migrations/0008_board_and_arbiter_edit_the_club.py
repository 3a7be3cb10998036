"""The board (group Bestuur) and the arbiter (group Wedstrijdleiding) may see and change the
club's row on its page (issue 40: "the arbiter (and the board) edits them in the site").

The groups are made when missing and the permissions created here (Django makes them only
after every migration has run), as training's migration 0002 does for the articles.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

EDITORS = ["Bestuur", "Wedstrijdleiding"]
CODENAMES = ["view_club", "change_club"]


def club_permissions(apps):
    config = apps.get_app_config("club")
    config.models_module = True  # as after the app's models were loaded
    create_permissions(config, apps=apps, verbosity=0)
    config.models_module = None
    return apps.get_model("auth", "Permission").objects.filter(
        content_type__app_label="club", codename__in=CODENAMES
    )


def grant(apps, schema_editor):
    permissions = list(club_permissions(apps))
    Group = apps.get_model("auth", "Group")
    for name in EDITORS:
        group, _ = Group.objects.get_or_create(name=name)
        group.permissions.add(*permissions)


def revoke(apps, schema_editor):
    permissions = list(club_permissions(apps))
    for group in apps.get_model("auth", "Group").objects.filter(name__in=EDITORS):
        group.permissions.remove(*permissions)


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0007_club_logo"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]
    operations = [migrations.RunPython(grant, revoke)]
