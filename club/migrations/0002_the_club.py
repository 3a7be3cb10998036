"""The club's row, with what the environment said before the club was data: for DSC, "DSC
Drachten", its sender and arbiter, and its week (Friday 18:00, publication 20:00, play 19:45,
results final 23:30)."""

from django.db import migrations


def fill(apps, schema_editor):
    from club.models import initial_values

    Club = apps.get_model("club", "Club")
    known = {field.name for field in Club._meta.get_fields()}  # the fields of this migration
    if not Club.objects.exists():
        Club.objects.create(**{k: v for k, v in initial_values().items() if k in known})


class Migration(migrations.Migration):
    dependencies = [("club", "0001_initial")]
    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
