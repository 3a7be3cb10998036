"""What migrations 0002 and 0003 give production: the writers' groups and the first article."""

import pytest
from django.contrib.auth.models import Group, Permission
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from training.first_article import TEXT
from training.models import Article

BEFORE = [("training", "0001_article")]
AFTER = [("training", "0003_draw_rules_article")]
WRITING = {"view_article", "add_article", "change_article", "delete_article"}


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


def codenames(group_name):
    return set(Group.objects.get(name=group_name).permissions.values_list("codename", flat=True))


@pytest.mark.django_db(transaction=True)
def test_the_board_and_the_arbiter_get_the_writing_permissions_and_the_draw_article():
    try:
        migrate(BEFORE)
        assert not Article.objects.exists()
        Group.objects.filter(name="Bestuur").delete()
        arbiter = Group.objects.get_or_create(name="Wedstrijdleiding")[0]
        arbiter.permissions.set(Permission.objects.filter(codename="change_round"))

        migrate(AFTER)

        assert codenames("Bestuur") == WRITING  # made by the migration
        assert codenames("Wedstrijdleiding") == WRITING | {"change_round"}  # what it had stays
        article = Article.objects.get()
        assert (article.slug, article.title) == ("schaakregels-remise", "Schaakregels: Remise")
        assert article.body == TEXT.read_text(encoding="utf-8")
        assert article.published_on == timezone.localdate()
        assert article.summary.startswith("Remise overeenkomen, remise claimen")

        migrate(BEFORE)  # and back: no article, no writing permissions, the groups stay

        assert not Article.objects.exists()
        assert codenames("Bestuur") == set()
        assert codenames("Wedstrijdleiding") == {"change_round"}
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
