"""`python manage.py import_knsb_ratings FILE --date 2026-06-01 [--dry-run]`."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from members import imports, knsb


class Command(BaseCommand):
    help = "Import a KNSB rating list (the zip or the CSV in it) for the club's members."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--date",
            required=True,
            type=date.fromisoformat,
            help="The list's date, e.g. 2026-06-01.",
        )
        parser.add_argument("--dry-run", action="store_true", help="Report only; save nothing.")

    def handle(self, file: Path, date: date, dry_run: bool = False, **options):
        try:
            with open(file, "rb") as stream:
                # Refused by its size before it is read; a pipe is read up to the limit only.
                problem = knsb.too_large_problem(os.fstat(stream.fileno()).st_size)
                if problem:
                    raise CommandError(f"{file}: {problem}")
                content = stream.read(knsb.MAX_FILE_BYTES + 1)
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}") from None
        parsed = knsb.parse(content)
        if parsed.refused:
            raise CommandError(f"{file}: {parsed.refused}")
        if dry_run or not parsed.is_valid:
            report = imports.preview(parsed, date)
        else:
            report = imports.apply(parsed, date, file.name)
        self.stdout.write(f"{report.players_on_list} players on the list of {date.isoformat()}")
        for member, old, new in report.new_ratings:
            self.stdout.write(f"new rating: {member.name}: {old or '-'} -> {new}")
        self.stdout.write(f"unchanged: {len(report.unchanged)}")
        for member in report.not_on_list:
            self.stdout.write(f"not on the list: {member.name} ({member.knsb_number})")
        if report.errors:
            for error in report.errors:
                self.stderr.write(f"malformed: {error}")
            raise CommandError("the file has malformed lines; nothing was imported")
        if dry_run:
            self.stdout.write("dry run: nothing was saved")
