"""`python manage.py backup_site [--to DIR]`: the whole site in one file (operations/backups.py).

Writes dsc-backup-YYYYMMDD-HHMMSS.tar.gz into DIR (default: BACKUP_DIR) and prints its path.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from operations import backups


class Command(BaseCommand):
    help = "Back up the whole site (its database) into one file."

    def add_arguments(self, parser):
        parser.add_argument("--to", type=Path, help="The directory (default: BACKUP_DIR).")

    def handle(self, *args, to=None, **options):
        directory = to or (Path(settings.BACKUP_DIR) if settings.BACKUP_DIR else None)
        if directory is None:
            raise CommandError("give --to DIR or set BACKUP_DIR")
        try:
            path = backups.make_backup(directory, timezone.now())
        except (backups.BackupFailed, OSError) as error:
            raise CommandError(f"backup failed: {error}") from None
        self.stdout.write(f"backup: {path} ({path.stat().st_size} bytes)")
