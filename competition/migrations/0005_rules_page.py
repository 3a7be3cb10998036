"""The rules page exists from the start (the arbiter edits it in the admin)."""

from pathlib import Path

from django.db import migrations

RULES = Path(__file__).resolve().parent.parent / "content" / "reglement.txt"


def create(apps, schema_editor):
    Page = apps.get_model("competition", "Page")
    Page.objects.get_or_create(
        slug="reglement",
        defaults={
            "title": "Reglement interne competitie",
            "body": RULES.read_text(encoding="utf-8"),
        },
    )


def remove(apps, schema_editor):
    apps.get_model("competition", "Page").objects.filter(slug="reglement").delete()


class Migration(migrations.Migration):
    dependencies = [("competition", "0004_restrict_deleting_players_with_games")]
    operations = [migrations.RunPython(create, remove)]
