"""What a round is worth: the outcome of each player in a round and the points it earns.

This module is the one place for the table in `keizer-rules.md` section 3. Points are linear in
the values of the valuation ranking: `points = self_weight × V(self) + opponent_weight × V(opp)`,
which lets the ranking re-value all earlier rounds without re-reading them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction

from .season import Absence, Result, Round, Settings


class Outcome(enum.Enum):
    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    FORFEIT_WIN = "forfeit_win"  # vrijgesteld: the paired opponent did not come
    FORFEIT_LOSS = "forfeit_loss"
    DOUBLE_FORFEIT = "double_forfeit"  # both missed the default time
    BYE = "bye"
    EXCUSED = "excused"
    TEAM = "team"
    LATE = "late"
    UNEXCUSED = "unexcused"
    AUTO = "auto"


_WHITE_BLACK_OUTCOMES = {
    Result.WHITE_WINS: (Outcome.WIN, Outcome.LOSS),
    Result.BLACK_WINS: (Outcome.LOSS, Outcome.WIN),
    Result.DRAW: (Outcome.DRAW, Outcome.DRAW),
    Result.WHITE_WINS_BY_FORFEIT: (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS),
    Result.BLACK_WINS_BY_FORFEIT: (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN),
    Result.DOUBLE_FORFEIT: (Outcome.DOUBLE_FORFEIT, Outcome.DOUBLE_FORFEIT),
}
_ABSENCE_OUTCOMES = {
    Absence.EXCUSED: Outcome.EXCUSED,
    Absence.TEAM: Outcome.TEAM,
    Absence.LATE: Outcome.LATE,
    Absence.UNEXCUSED: Outcome.UNEXCUSED,
    Absence.AUTO: Outcome.AUTO,
}
# Outcomes that count as a played round for attendance (rules section 8).
ATTENDED = frozenset(
    {Outcome.WIN, Outcome.DRAW, Outcome.LOSS, Outcome.FORFEIT_WIN, Outcome.BYE, Outcome.TEAM}
)


@dataclass(frozen=True)
class Appearance:
    """One player's part in one round."""

    outcome: Outcome
    opponent: str | None = None
    colour: str | None = None  # "white" / "black" for games that were played, else None


def appearances(round_: Round) -> dict[str, Appearance]:
    """Every player's part in the round; players not in the result took no part."""
    parts: dict[str, Appearance] = {}
    for game in round_.games:
        white, black = _WHITE_BLACK_OUTCOMES[game.result]
        played = not game.result.is_forfeit
        parts[game.white] = Appearance(white, game.black, "white" if played else None)
        parts[game.black] = Appearance(black, game.white, "black" if played else None)
    for player_id, reason in round_.absent.items():
        parts[player_id] = Appearance(_ABSENCE_OUTCOMES[reason])
    if round_.bye is not None:
        parts[round_.bye] = Appearance(Outcome.BYE)
    return parts


def weights(outcome: Outcome, settings: Settings) -> tuple[Fraction, Fraction]:
    """(weight of the player's own value, weight of the opponent's value) for an outcome."""
    if outcome in (Outcome.WIN, Outcome.FORFEIT_WIN):
        return Fraction(0), Fraction(1)
    if outcome is Outcome.DRAW:
        return Fraction(0), Fraction(1, 2)
    own = {
        Outcome.BYE: settings.bye_fraction,
        Outcome.EXCUSED: settings.excused_fraction,
        Outcome.TEAM: settings.team_fraction,
        Outcome.AUTO: settings.auto_absence_fraction,
    }.get(outcome, Fraction(0))
    return own, Fraction(0)


def points(
    appearance: Appearance, own_value: int, opponent_value: int, settings: Settings
) -> Fraction:
    """The points one appearance earns with the given values."""
    own, opponent = weights(appearance.outcome, settings)
    return own * own_value + opponent * opponent_value
