"""`python manage.py import_season FILE --season 2027-2028 --first-evening 2027-09-02
[--kind rapid] [--dry-run]`.

Prints what it is about to store (the players, each round's games and absences) and stores it,
or with `--dry-run` stops there. A file that is too large, damaged or holds what the site cannot
keep is refused with one line naming the place; nothing is stored then.
"""

from __future__ import annotations

from collections import Counter
from datetime import date
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from competition import services
from competition.keizer import season_file
from competition.keizer.season_file import SeasonFileError
from competition.models import Competition


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
        parser.add_argument(
            "--dry-run", action="store_true", help="Show what would be stored; store nothing."
        )

    def handle(self, file: Path, season: str, first_evening: date, kind: str, **options):
        now = timezone.now()
        try:
            with open(file, "rb") as stream:
                text = season_file.read(stream, str(file))
        except OSError as error:
            raise CommandError(f"{file}: cannot read the file: {error.strerror}") from None
        except SeasonFileError as error:
            raise CommandError(str(error)) from None
        try:
            engine_season = season_file.loads(text)
            rows = services.season_import_rows(season, kind, engine_season, first_evening, now)
            self._show(rows, season, kind)
            if options["dry_run"]:
                self.stdout.write("dry run: nothing was stored")
                return
            competition = services.import_season(season, kind, engine_season, first_evening, now)
        except SeasonFileError as error:
            raise CommandError(f"{file}: {error}") from None
        except services.CompetitionError as error:
            raise CommandError(str(error)) from None
        rounds = competition.rounds.count()
        players = competition.participants.count()
        self.stdout.write(f"imported {players} players and {rounds} rounds into {competition}")

    def _show(self, rows, season: str, kind: str) -> None:
        new = len(rows.new_members)
        self.stdout.write(
            f"to store in {kind} {season}: {len(rows.participants)} players "
            f"({new} new member{'s' if new != 1 else ''}), {len(rows.rounds)} rounds"
        )
        games = Counter(game.round.number for game in rows.games)
        absences = Counter(absence.round.number for absence in rows.absences)
        for round_ in rows.rounds:
            bye = ", a bye" if round_.bye else ""
            self.stdout.write(
                f"round {round_.number} ({round_.date.isoformat()}): "
                f"{games[round_.number]} games, {absences[round_.number]} absences{bye}"
            )
