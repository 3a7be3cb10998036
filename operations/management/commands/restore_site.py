"""`python manage.py restore_site FILE [--no-input]`: the whole site as it was in a backup.

Checks the file first (ours, undamaged, same database engine, not from a newer version of the
site) and refuses with one line otherwise, changing nothing; then replaces the whole database at
once and brings it up to date with `migrate`. Stop the web process and the worker first.
"""

from __future__ import annotations

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
            "--no-input", action="store_false", dest="interactive", help="Do not ask first."
        )

    def handle(self, *args, file, interactive=True, **options):
        if interactive:
            name = connection.settings_dict["NAME"]
            answer = input(f"This replaces everything in the database {name}. Type 'yes': ")
            if answer != "yes":
                raise CommandError("restore cancelled")
        try:
            manifest = backups.restore_backup(file)
        except (backups.BackupRefused, backups.BackupFailed) as error:
            raise CommandError(str(error)) from None
        call_command("migrate", interactive=False, verbosity=0)
        self.stdout.write(f"restored: {file} (made {manifest['made_at']})")
