"""`python manage.py preflight [--wait-for database|tables] [--timeout SECONDS]`: what every
process of the stack runs before it starts (compose.yaml), instead of a shell loop that threw
the site's own message away and waited for ever (issue 38, finding 1).

- A configuration mistake: `manage.py` has already said it in one line and stopped (exit 2).
- The system checks (with `--deploy` when DEBUG is off): an error is said in one line, exit 2.
- `--wait-for database`: until the database answers; `--wait-for tables`: until its tables are
  up to date as well (the migrate role brings them up). Meanwhile one line says what it waits
  for, again when that changes and at least every `REPEAT` seconds; after `--timeout` seconds
  it gives up with the last reason (exit 1), and the container's restart policy tries again
  with the reason in the log each time.
"""

from __future__ import annotations

import sys
import time

from django.conf import settings
from django.core.checks.messages import ERROR
from django.core.checks.registry import registry
from django.core.management import BaseCommand
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor

from operations.configuration import refuse_to_start
from operations.logs import moment

REPEAT = 30  # seconds between two lines saying the same wait
PAUSE = 1.0  # seconds between two tries


class Command(BaseCommand):
    help = "Check the configuration and wait for the database (and its tables) before a start."
    requires_system_checks = []  # its own, said in one line

    def add_arguments(self, parser):
        parser.add_argument("--wait-for", choices=("database", "tables"), default=None)
        parser.add_argument("--timeout", type=float, default=300.0, help="Seconds to wait.")

    def handle(self, *args, wait_for=None, timeout=300.0, **options):
        errors = [
            message
            for message in registry.run_checks(include_deployment_checks=not settings.DEBUG)
            if message.level >= ERROR and not message.is_silenced()
        ]
        if errors:
            refuse_to_start("; ".join(f"{m.id}: {m.msg}" for m in errors))
        if wait_for is None:
            return
        give_up_at = time.monotonic() + timeout
        said, said_at = "", 0.0
        while (reason := self.waiting_for(wait_for)) is not None:
            if time.monotonic() >= give_up_at:
                self.line("ERROR", f"gave up after {timeout:.0f} s: {reason}")
                sys.exit(1)
            if reason != said or time.monotonic() - said_at >= REPEAT:
                self.line("INFO", f"waiting: {reason}")
                said, said_at = reason, time.monotonic()
            time.sleep(PAUSE)
        self.line(
            "INFO",
            "ready: "
            + ("the database answers" if wait_for == "database" else "the tables are up to date"),
        )

    @staticmethod
    def waiting_for(what: str) -> str | None:
        """Why the start must wait, or None when it need not."""
        try:
            connection.ensure_connection()
            if what == "tables":
                executor = MigrationExecutor(connection)
                plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
                if plan:
                    count = (
                        "1 database migration"
                        if len(plan) == 1
                        else f"{len(plan)} database migrations"
                    )
                    return f"{count} not applied yet (the migrate role)"
        except DatabaseError as error:
            connection.close()
            first = (
                str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            )
            return f"the database does not answer: {first}"
        return None

    def line(self, level: str, text: str) -> None:
        sys.stderr.write(f"{moment()} {level} preflight: {text}\n")
        sys.stderr.flush()
