"""`python manage.py export_trf --season 2026-2027 [--kind rapid] [--output FILE]`."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from competition.models import Competition
from competition.trf_export import problems, trf_text


class Command(BaseCommand):
    help = "Write a competition's games as a FIDE TRF file, for rating."

    def add_arguments(self, parser):
        parser.add_argument("--season", required=True)
        parser.add_argument(
            "--kind", default=Competition.Kind.CLASSICAL, choices=Competition.Kind.values
        )
        parser.add_argument("--output", type=Path)

    def handle(self, season: str, kind: str, output: Path | None = None, **options):
        competition = Competition.objects.filter(season__name=season, kind=kind).first()
        if competition is None:
            raise CommandError(f"no {kind} competition in season {season!r}")
        found = problems(competition)
        if found:
            raise CommandError(" ".join(found))
        text = trf_text(competition)
        if output is None:
            self.stdout.write(text, ending="")
        else:
            output.write_text(text, encoding="utf-8")
