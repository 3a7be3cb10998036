"""What a Keizer variant means on the club's own ranking 0 (issue 39, point 3): the values of
the first and the last player, and what each way of taking part earns them, worked out by the
engine's own rule of an appearance's points (`scoring.points`) before the arbiter saves it."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from competition.keizer.scoring import Appearance, Outcome, absence_outcome, points
from competition.keizer.season import Settings
from competition.keizer.values import value_at
from competition.models import Competition
from competition.outcomes import OUTCOME_WORDS

# Without players yet, the preview takes a field of this size.
EXAMPLE_FIELD = 40
GAMES = (Outcome.WIN, Outcome.DRAW, Outcome.LOSS, Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS)


@dataclass(frozen=True)
class Row:
    what: str
    first: Fraction  # what the first player earns (a game: against the last)
    last: Fraction  # what the last player earns (a game: against the first)


@dataclass(frozen=True)
class VariantPreview:
    players: int
    example: bool  # the competition has no players yet: a field of EXAMPLE_FIELD
    first_value: int
    last_value: int
    rows: tuple[Row, ...]


def preview(competition: Competition, settings: Settings) -> VariantPreview:
    joined = competition.participants.all()
    if settings.late_join != "handicap":
        joined = joined.filter(joined_round__lte=1)
    count = joined.count()
    players = count or EXAMPLE_FIELD
    first, last = value_at(1, settings, players), value_at(players, settings, players)
    rows = []
    for outcome in GAMES:
        rows.append(
            Row(
                str(OUTCOME_WORDS[outcome]),
                points(Appearance(outcome, "last"), first, last, settings),
                points(Appearance(outcome, "first"), last, first, settings),
            )
        )
    rows.append(
        _row(str(OUTCOME_WORDS[Outcome.BYE]), Appearance(Outcome.BYE), first, last, settings)
    )
    for reason in settings.reasons:
        outcome = absence_outcome(reason)
        what = str(OUTCOME_WORDS[outcome]) if outcome is not Outcome.ABSENT else reason
        rows.append(_row(what, Appearance(outcome, reason=reason), first, last, settings))
    return VariantPreview(players, not count, first, last, tuple(rows))


def _row(what: str, appearance: Appearance, first: int, last: int, settings: Settings) -> Row:
    return Row(what, points(appearance, first, 0, settings), points(appearance, last, 0, settings))
