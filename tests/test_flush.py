"""The tests that commit start from empty tables: tests/postgresql/base.py empties them with a
DELETE each, where Django's PostgreSQL backend would TRUNCATE them all at once."""

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection

from competition.models import Game

# What post_migrate puts back after every flush; everything else must be gone.
KEPT = {"django_content_type", "auth_permission"}


@pytest.mark.django_db(transaction=True)
def test_after_the_demo_a_flush_leaves_every_table_empty(demo_rows):
    """As pytest-django's teardown runs it: without resetting the sequences, the rows of every
    table (foreign keys between them included) gone, the content types back."""
    demo_rows.load()
    assert Game.objects.exists()
    call_command("flush", interactive=False, reset_sequences=False, verbosity=0)
    tables = connection.introspection.django_table_names(only_existing=True)
    with connection.cursor() as cursor:
        left = {}
        for table in sorted(set(tables) - KEPT):
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            if count := cursor.fetchone()[0]:
                left[table] = count
    assert left == {}
    assert ContentType.objects.get_for_model(Game)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite's flush deletes already")
def test_on_postgresql_the_flush_deletes_instead_of_truncating():
    sql = connection.ops.sql_flush(no_style(), ["a_table", "another"])
    assert sql == ['DELETE FROM "a_table";', 'DELETE FROM "another";']
    sequences_too = connection.ops.sql_flush(no_style(), ["a_table"], reset_sequences=True)
    assert sequences_too == ['TRUNCATE "a_table" RESTART IDENTITY;']
