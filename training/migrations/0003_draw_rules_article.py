"""The first article, "Schaakregels: Remise", published from the day the site gets it (the
arbiter edits it in the admin afterwards). Its text is the Markdown file kept in the app."""

from django.db import migrations
from django.utils import timezone

from training import first_article


def create(apps, schema_editor):
    apps.get_model("training", "Article").objects.get_or_create(
        slug=first_article.SLUG,
        defaults={
            "title": first_article.TITLE,
            "summary": first_article.SUMMARY,
            "body": first_article.body(),
            "published_on": timezone.localdate(),
        },
    )


def remove(apps, schema_editor):
    apps.get_model("training", "Article").objects.filter(slug=first_article.SLUG).delete()


class Migration(migrations.Migration):
    dependencies = [("training", "0002_board_and_arbiter_write_articles")]
    operations = [migrations.RunPython(create, remove)]
