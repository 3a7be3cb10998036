"""Every member gets a secret calendar link of their own.

A unique column with a random default needs three steps: added empty, one token per member
(a default is computed once per migration, which would give everyone the same), then unique.
"""

import secrets

from django.db import migrations, models

import members.models


def give_every_member_a_token(apps, schema_editor):
    Member = apps.get_model("members", "Member")
    for member in Member.objects.filter(calendar_token__isnull=True).only("pk"):
        member.calendar_token = secrets.token_urlsafe(32)
        member.save(update_fields=["calendar_token"])


class Migration(migrations.Migration):
    dependencies = [
        ("members", "0003_member_mail_choices"),
    ]

    operations = [
        migrations.AddField(
            model_name="member",
            name="calendar_token",
            field=models.CharField(
                editable=False, max_length=64, null=True, verbose_name="calendar link"
            ),
        ),
        migrations.RunPython(give_every_member_a_token, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="member",
            name="calendar_token",
            field=models.CharField(
                default=members.models.new_calendar_token,
                editable=False,
                max_length=64,
                unique=True,
                verbose_name="calendar link",
            ),
        ),
    ]
