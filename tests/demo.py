"""The demo season for tests: `load_demo` builds it once per run (seconds of engine work), then
every other test gets the same rows back in a fraction of a second. Under pytest-xdist the
first worker that asks builds the rows file; the others read it (tests/shared_files.py)."""

import json
from datetime import datetime
from io import StringIO
from pathlib import Path
from zoneinfo import ZoneInfo

import time_machine
from django.core import serializers
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection, transaction
from django.test import override_settings

from base import page_cache
from tests.shared_files import built_once

# Sunday 22 November 2026: the 12th club evening was Thursday 19 November, round 13's pairing
# was published on Friday and round 13 is played on Thursday 26 November.
DEMO_NOW = datetime(2026, 11, 22, 12, tzinfo=ZoneInfo("Europe/Amsterdam"))

# Tables that migrations fill (content types, permissions) stay; sessions are not the demo's.
NOT_DUMPED = ["contenttypes", "auth.permission", "sessions"]


class DemoRows:
    """The rows `load_demo --club CLUB` stores when run at `now` (DSC's: at DEMO_NOW), kept in
    a file for the test run."""

    def __init__(self, folder: Path, club: str = "dsc", now: datetime = DEMO_NOW):
        self.path = folder / ("demo.json" if club == "dsc" else f"demo-{club}.json")
        self.club, self.now = club, now

    def load(self):
        """Store the demo in the test database: built by `load_demo` the first time in the run,
        read back from the file after that (raw rows, as loaddata stores them: no history is
        added)."""
        if not built_once(self.path, self.build):
            insert_rows(self.path)

    def build(self, path: Path):
        """`load_demo` in this test's database, its rows written to `path`."""
        # As `make run` loads it (DEBUG on: the README's logins); pytest turns DEBUG off.
        with time_machine.travel(self.now, tick=False), override_settings(DEBUG=True):
            call_command("load_demo", "--club", self.club, stdout=StringIO())
        call_command(
            "dumpdata", natural_foreign=True, exclude=NOT_DUMPED, output=str(path), verbosity=0
        )


def insert_rows(path: Path):
    """loaddata's result in a fraction of its time: the rows are read from the file and turned
    into the database's own values once per process (`Plan`), then stored with one COPY per
    table on PostgreSQL (a quarter of an executemany's time: 0.05 s for the demo's 3,000 rows
    instead of 0.2) and one executemany on SQLite. dumpdata writes the models in dependency
    order; foreign keys are checked at commit, so the order within a model does not matter."""
    plan = _plans.get(path)
    if plan is None:
        plan = _plans[path] = Plan(path)
    plan.store()


_plans: dict[Path, "Plan"] = {}  # one per rows file, for this process (and its database)


class Plan:
    """The demo's rows as INSERT statements with their parameters, ready for this process's
    database. A reference to a row that migrations store (a group's permissions) is kept as
    its natural key and looked up at each load: a flush between tests gives those rows new
    primary keys on PostgreSQL. Every value is the file's, as loaddata stores it (an
    `auto_now` field keeps the moment `load_demo` ran at)."""

    def __init__(self, path: Path):
        with path.open(encoding="utf-8") as rows:
            objects = list(serializers.deserialize("json", rows, handle_forward_references=True))
        # The many-to-many references as the file writes them (natural keys where the related
        # model has them), by row: the deserializer turns a natural key into the key the row
        # has in this process's database at this moment, which after a flush is not the file's.
        written = {
            (row["model"], row["pk"]): row["fields"]
            for row in json.loads(path.read_text(encoding="utf-8"))
        }
        self.models = []  # in dependency order
        by_model = {}
        for item in objects:
            by_model.setdefault(type(item.object), []).append(item)
        for item in objects:
            if item.deferred_fields:  # natural keys of rows stored after this one
                for field, key in item.deferred_fields.items():
                    related = field.remote_field.model
                    found = {
                        tuple(row.object.natural_key()): row.object.pk for row in by_model[related]
                    }
                    if field.many_to_many:
                        item.m2m_data[field.name] = [found[tuple(each)] for each in key]
                    else:
                        setattr(item.object, field.attname, found[tuple(key)])
        self.tables = []  # (table, columns, [row, ...])
        self.links = []  # (sql, related model or None, [(pk, related pk or natural key), ...])
        for model, items in by_model.items():
            self.models.append(model)
            fields = model._meta.concrete_fields
            prepared = [
                [
                    field.get_db_prep_save(getattr(item.object, field.attname), connection)
                    for field in fields
                ]
                for item in items
            ]
            self.tables.append((model._meta.db_table, [f.column for f in fields], prepared))
            for field in model._meta.local_many_to_many:
                through = field.remote_field.through._meta
                source = field.m2m_column_name()
                target = field.m2m_reverse_name()
                related = field.remote_field.model
                # A row of the demo's own keeps its key unless the file names it by its
                # natural key (a group): then, as for rows migrations store, the natural key
                # is looked up at each load (the links once referred to group 2 where the
                # file's groups were stored as 3 and 4).
                named = hasattr(related, "natural_key")
                kept = related in by_model and not named
                label = model._meta.label_lower
                pairs = []
                for item in items:
                    if named:
                        keys = written[label, item.object.pk].get(field.name, [])
                        pairs += [(item.object.pk, tuple(key)) for key in keys]
                        continue
                    for pk in (item.m2m_data or {}).get(field.name, []):
                        key = pk if kept else related._base_manager.get(pk=pk).natural_key()
                        pairs.append((item.object.pk, key))
                if pairs:
                    self.links.append(
                        (
                            insert_sql(through.db_table, [source, target]),
                            None if kept else related,
                            pairs,
                        )
                    )

    def store(self):
        with transaction.atomic():
            for model in reversed(self.models):  # what migrations stored (the rules page) goes
                model._base_manager.all().delete()
            with connection.cursor() as cursor:
                for table, columns, rows in self.tables:
                    insert(cursor, table, columns, rows)
                for sql, related, pairs in self.links:
                    if related is not None:
                        pks = {
                            tuple(row.natural_key()): row.pk for row in related._base_manager.all()
                        }
                        pairs = [(pk, pks[tuple(key)]) for pk, key in pairs]
                    cursor.executemany(sql, pairs)
                for sql in connection.ops.sequence_reset_sql(no_style(), self.models):
                    cursor.execute(sql)
        # Every page stored before shows something else now: said here, since COPY passes by
        # the execute wrapper that says it of each write (base/page_cache.py).
        page_cache.changed()
        page_cache.personal_changed()


def insert(cursor, table: str, columns: list[str], rows: list[list]) -> None:
    """The rows stored in the table: with COPY on PostgreSQL, which passes by the execute
    wrappers that tell the page cache of a write (Plan.store tells it itself)."""
    if connection.vendor != "postgresql":
        cursor.executemany(insert_sql(table, columns), rows)
        return
    with cursor.cursor.copy(f"COPY {into(table, columns)} FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def insert_sql(table: str, columns: list[str]) -> str:
    return f"INSERT INTO {into(table, columns)} VALUES ({', '.join(['%s'] * len(columns))})"


def into(table: str, columns: list[str]) -> str:
    """`"table" ("column", ...)`, quoted for this database."""
    quote = connection.ops.quote_name
    return f"{quote(table)} ({', '.join(quote(column) for column in columns)})"
