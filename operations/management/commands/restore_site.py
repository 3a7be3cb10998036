"""`python manage.py restore_site FILE [--yes]`: the whole site as it was in a backup.

Checks the file first (there, readable, ours, undamaged, same database engine, not from a newer
version of the site) and refuses with one line otherwise, changing nothing; only then asks, at
a terminal, for `yes`. Without a terminal (a script, cron, `docker compose run -T`) it never
waits for an answer: it refuses unless told `--yes` (`--no-input` and `--noinput`, Django's
names, mean the same). Then it replaces the whole database at once and brings it up to date
with `migrate`. Stop the web process and the worker first.
"""

from __future__ import annotations

import sys
from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from operations import backups


class Command(BaseCommand):
    help = "Replace the whole database with a backup made by backup_site."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--yes",
            "--no-input",
            "--noinput",
            action="store_false",
            dest="interactive",
            help="Restore without asking (needed when no terminal is attached: scripts, cron).",
        )

    def handle(self, *args, file, interactive=True, **options):
        try:
            with backups.checked(file) as backup:
                if interactive:
                    self.confirm(backup)
                manifest = backup.restore()
        except (backups.BackupRefused, backups.BackupFailed) as error:
            raise CommandError(str(error)) from None
        call_command("migrate", interactive=False, verbosity=0)
        self.stdout.write(f"restored: {file} (made {manifest['made_at']})")

    def confirm(self, backup: backups.CheckedBackup) -> None:
        """Asks the person at the terminal; never waits for one who is not there."""
        if not sys.stdin.isatty():
            raise CommandError(
                f"{backup.path}: checked, not restored: no terminal to ask 'yes' at; "
                "add --yes to replace the database without asking"
            )
        name = connection.settings_dict["NAME"]
        prompt = (
            f"{backup.path} (made {backup.manifest['made_at']}) checks out. This replaces "
            f"everything in the database {name}. Type 'yes': "
        )
        try:
            answer = input(prompt)
        except EOFError:
            answer = ""
        if answer != "yes":
            raise CommandError("restore cancelled")
