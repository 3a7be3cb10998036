"""`python manage.py import_season FILE --season 2027-2028 --first-evening 2027-09-02`."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from competition import services
from competition.keizer.season_file import SeasonFileError
from competition.models import Competition, Season


class Command(BaseCommand):
    help = "Import a season file into a new competition (the season is made when needed)."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--season", required=True, help="The season's name, e.g. 2027-2028.")
        parser.add_argument(
            "--first-evening",
            required=True,
            type=date.fromisoformat,
            help="The date of round 1; later rounds follow weekly.",
        )
        parser.add_argument(
            "--kind", default=Competition.Kind.CLASSICAL, choices=Competition.Kind.values
        )

    def handle(self, file: Path, season: str, first_evening: date, kind: str, **options):
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"{file}: cannot read the file ({error})") from None
        with transaction.atomic():
            season_row, _ = Season.objects.get_or_create(
                name=season, defaults={"start_date": first_evening}
            )
            if season_row.competitions.filter(kind=kind).exists():
                raise CommandError(f"season {season!r} has a {kind} competition already")
            try:
                competition = services.import_season(
                    season_row, kind, text, first_evening, timezone.now()
                )
            except SeasonFileError as error:
                raise CommandError(f"{file}: {error}") from None
        rounds = competition.rounds.count()
        players = competition.participants.count()
        self.stdout.write(f"imported {players} players and {rounds} rounds into {competition}")
