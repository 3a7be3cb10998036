"""The board (group Bestuur) and the arbiter (group Wedstrijdleiding) may write articles.

The groups are made when missing; the article permissions are created here (Django makes them
only after every migration has run) so the groups can be given them on a fresh database too.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

WRITERS = ["Bestuur", "Wedstrijdleiding"]
CODENAMES = ["view_article", "add_article", "change_article", "delete_article"]


def article_permissions(apps):
    config = apps.get_app_config("training")
    config.models_module = True  # as after the app's models were loaded
    create_permissions(config, apps=apps, verbosity=0)
    config.models_module = None
    return apps.get_model("auth", "Permission").objects.filter(
        content_type__app_label="training", codename__in=CODENAMES
    )


def grant(apps, schema_editor):
    permissions = list(article_permissions(apps))
    Group = apps.get_model("auth", "Group")
    for name in WRITERS:
        group, _ = Group.objects.get_or_create(name=name)
        group.permissions.add(*permissions)


def revoke(apps, schema_editor):
    permissions = list(article_permissions(apps))
    for group in apps.get_model("auth", "Group").objects.filter(name__in=WRITERS):
        group.permissions.remove(*permissions)


class Migration(migrations.Migration):
    dependencies = [
        ("training", "0001_article"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]
    operations = [migrations.RunPython(grant, revoke)]
