"""Where the club plays (the TRF's city): the sender's name after its first word, as the
environment gave it ("DSC Drachten": Drachten)."""

from django.db import migrations, models


def fill(apps, schema_editor):
    from club.models import initial_values

    apps.get_model("club", "Club").objects.update(place=initial_values()["place"])


class Migration(migrations.Migration):
    dependencies = [("club", "0003_club_short_name")]
    operations = [
        migrations.AddField(
            model_name="club",
            name="place",
            field=models.CharField(
                blank=True,
                help_text="Where the club plays; in the TRF.",
                max_length=60,
                verbose_name="place",
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
