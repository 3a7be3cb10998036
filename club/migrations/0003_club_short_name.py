"""The club's short name (before every e-mail's subject: "DSC: "), from the first word of the
name the environment gave the sender (`MAIL_FROM_NAME`, "DSC Drachten")."""

from django.db import migrations, models


def fill(apps, schema_editor):
    from club.models import initial_values

    apps.get_model("club", "Club").objects.update(short_name=initial_values()["short_name"])


class Migration(migrations.Migration):
    dependencies = [("club", "0002_the_club")]
    operations = [
        migrations.AddField(
            model_name="club",
            name="short_name",
            field=models.CharField(
                default="",
                help_text="Before every e-mail's subject, and in the arbiter's name.",
                max_length=20,
                verbose_name="short name",
            ),
            preserve_default=False,
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
