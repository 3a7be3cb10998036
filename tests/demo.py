"""The demo season for tests: `load_demo` builds it once per run (seconds of engine work), then
every other test gets the same rows back in a fraction of a second. Under pytest-xdist the
first worker that asks builds the rows file; the others read it (tests/shared_files.py)."""

from datetime import datetime
from io import StringIO
from pathlib import Path
from zoneinfo import ZoneInfo

import time_machine
from django.core import serializers
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection, transaction

from tests.shared_files import built_once

# Sunday 22 November 2026: the 12th club evening was Thursday 19 November, round 13's pairing
# was published on Friday and round 13 is played on Thursday 26 November.
DEMO_NOW = datetime(2026, 11, 22, 12, tzinfo=ZoneInfo("Europe/Amsterdam"))

# Tables that migrations fill (content types, permissions) stay; sessions are not the demo's.
NOT_DUMPED = ["contenttypes", "auth.permission", "sessions"]


class DemoRows:
    """The rows `load_demo` stores when run at DEMO_NOW, kept in a file for the test run."""

    def __init__(self, folder: Path):
        self.path = folder / "demo.json"

    def load(self):
        """Store the demo in the test database: built by `load_demo` the first time in the run,
        read back from the file after that (raw rows, as loaddata stores them: no history is
        added)."""
        if not built_once(self.path, self.build):
            insert_rows(self.path)

    @staticmethod
    def build(path: Path):
        """`load_demo` in this test's database, its rows written to `path`."""
        with time_machine.travel(DEMO_NOW, tick=False):
            call_command("load_demo", stdout=StringIO())
        call_command(
            "dumpdata", natural_foreign=True, exclude=NOT_DUMPED, output=str(path), verbosity=0
        )


def insert_rows(path: Path):
    """loaddata's result with one INSERT per model instead of one per row (ten times faster
    on PostgreSQL). dumpdata writes the models in dependency order; foreign keys are checked
    at commit, so the order within a model does not matter."""
    with path.open(encoding="utf-8") as rows:
        objects = list(serializers.deserialize("json", rows, handle_forward_references=True))
    by_model = {}
    for deserialized in objects:
        by_model.setdefault(type(deserialized.object), []).append(deserialized)
    with transaction.atomic():
        for model in reversed(by_model):  # what migrations stored (the rules page) is replaced
            model._base_manager.all().delete()
        for model, items in by_model.items():
            model._base_manager.bulk_create([item.object for item in items])
            for item in items:
                for field, values in (item.m2m_data or {}).items():
                    getattr(item.object, field).set(values)
        for item in objects:
            if item.deferred_fields:  # natural keys of rows stored after this one (a user's group)
                item.save_deferred_fields()
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(no_style(), list(by_model)):
                cursor.execute(sql)
