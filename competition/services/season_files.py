"""A competition from a season file, and an engine season stored as rows."""

from __future__ import annotations

from datetime import date, datetime

from django.db import transaction
from django.utils.translation import gettext as _

from competition import exchange
from competition.keizer import season_file
from competition.keizer.season import Season as EngineSeason
from competition.models import (
    Absence,
    Competition,
    Game,
    Participant,
    Round,
    Season,
)
from competition.schedule import EVENING_SPACING
from competition.services.guards import CompetitionError
from competition.services.rankings import recompute_rankings
from members.models import Member


def season_import_rows(
    season_name: str, kind: str, season: EngineSeason, first_evening: date, now: datetime
) -> exchange.SeasonRows:
    """What `import_season` would store, as unsaved rows; stores nothing. Refuses what
    `import_season` refuses (a `SeasonFileError` naming the place, or a `CompetitionError`)."""
    season_row = _check_season_import(season_name, kind, season, first_evening)
    competition = Competition(
        season=season_row or Season(name=season_name, start_date=first_evening),
        kind=kind,
        **Competition.values_of(season.settings),
    )
    return exchange.season_rows(competition, season, first_evening, now)


@transaction.atomic
def import_season(
    season_name: str, kind: str, season: EngineSeason, first_evening: date, now: datetime
) -> Competition:
    """A new competition from a season file's season (read by `season_file.loads`), with its
    rankings; the season is made when needed. Every value is checked against what its column
    holds first: a `SeasonFileError` names the place, and nothing is stored."""
    _check_season_import(season_name, kind, season, first_evening)
    season_row, _created = Season.objects.get_or_create(
        name=season_name, defaults={"start_date": first_evening}
    )
    competition = Competition.objects.create(
        season=season_row,
        kind=kind,
        **Competition.values_of(season.settings),
        **Competition.report_defaults(kind),
    )
    load_season(competition, season, first_evening, now)
    return competition


def _check_season_import(
    season_name: str, kind: str, season: EngineSeason, first_evening: date
) -> Season | None:
    """Refuse, before the database sees it, anything of an import its columns cannot hold;
    the existing season of that name, if any."""
    name_length = Season._meta.get_field("name").max_length
    problem = season_file.text_problem(season_name)
    if not season_name.strip() or len(season_name) > name_length:
        problem = f"must be 1 to {name_length} characters"
    if problem:
        raise season_file.SeasonFileError("--season", f"{problem}: {season_name!r}")
    name_length = Member._meta.get_field("name").max_length
    named: dict[str, int] = {}
    for index, player in enumerate(season.players):
        if player.name in named:  # the site keeps one member per name
            raise season_file.SeasonFileError(
                f"players[{index}].name",
                f"is players[{named[player.name]}]'s name too; the site keeps one member a name",
            )
        named[player.name] = index
        # The engine refuses control characters and invalid text; the column sets the length.
        if not player.name.strip():
            raise season_file.SeasonFileError(f"players[{index}].name", "must not be empty")
        if len(player.name) > name_length:
            raise season_file.SeasonFileError(
                f"players[{index}].name",
                f"is {len(player.name)} characters long; the site keeps at most {name_length}",
            )
    try:
        first_evening + EVENING_SPACING * len(season.rounds)
    except OverflowError:
        raise season_file.SeasonFileError(
            "rounds", f"{len(season.rounds)} weekly rounds from {first_evening} run past 9999"
        ) from None
    season_row = Season.objects.filter(name=season_name).first()
    if season_row and season_row.competitions.filter(kind=kind).exists():
        raise CompetitionError(
            _("Season %(name)s has a %(kind)s already.")
            % {"name": season_row.name, "kind": Competition.Kind(kind).label}
        )
    return season_row


@transaction.atomic
def load_season(competition: Competition, season, first_evening: date, now: datetime) -> dict:
    """Store an engine season's players and rounds in an empty competition (weekly evenings)
    and compute its rankings. Returns the participant key of each player id."""
    rows = exchange.season_rows(competition, season, first_evening, now)
    Member.objects.bulk_create(rows.new_members)
    Participant.objects.bulk_create(rows.participants)
    Round.objects.bulk_create(rows.rounds)
    Game.objects.bulk_create(rows.games)
    Absence.objects.bulk_create(rows.absences)
    recompute_rankings(competition)
    return {
        player.id: participant.pk
        for player, participant in zip(season.players, rows.participants, strict=True)
    }
