"""`python manage.py export_season --season 2026-2027 [--kind rapid] [--output FILE]`."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from competition import season_export
from competition.models import Competition


class Command(BaseCommand):
    help = "Write a competition as the season file (shared/spec/season-format.md)."

    def add_arguments(self, parser):
        parser.add_argument("--season", required=True, help="The season's name, e.g. 2026-2027.")
        parser.add_argument(
            "--kind", default=Competition.Kind.CLASSICAL, choices=Competition.Kind.values
        )
        parser.add_argument("--output", type=Path, help="A file; default: standard output.")

    def handle(self, season: str, kind: str, output: Path | None = None, **options):
        competition = Competition.objects.filter(season__name=season, kind=kind).first()
        if competition is None:
            raise CommandError(f"no {kind} competition in season {season!r}")
        text = (
            json.dumps(
                season_export.season_file_document(competition), ensure_ascii=False, indent=2
            )
            + "\n"
        )
        if output is None:
            self.stdout.write(text, ending="")
        else:
            output.write_text(text, encoding="utf-8")
