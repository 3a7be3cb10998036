"""What a round is worth: the outcome of each player in a round and the points it earns.

This module is the one place for the table in `keizer-rules.md` section 3. Points are linear in
the values of the valuation ranking: `points = self_weight × V(self) + opponent_weight × V(opp)`,
which lets the ranking re-value all earlier rounds without re-reading them.
"""

from __future__ import annotations

import enum
from collections import namedtuple
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


NOTHING, HALF, WHOLE = Fraction(0), Fraction(1, 2), Fraction(1)

# The points table of keizer-rules.md section 3, one row for every outcome and no default:
# (share of the player's own value, share of the opponent's value). A share of the own value
# named by a string is the competition's setting of that name (`Settings.excused_fraction`).
POINTS_TABLE: dict[Outcome, tuple[Fraction | str, Fraction]] = {
    Outcome.WIN: (NOTHING, WHOLE),
    Outcome.DRAW: (NOTHING, HALF),
    Outcome.LOSS: (NOTHING, NOTHING),
    Outcome.FORFEIT_WIN: (NOTHING, WHOLE),  # the absent opponent's value
    Outcome.FORFEIT_LOSS: (NOTHING, NOTHING),
    Outcome.DOUBLE_FORFEIT: (NOTHING, NOTHING),
    Outcome.BYE: ("bye_fraction", NOTHING),
    Outcome.EXCUSED: ("excused_fraction", NOTHING),
    Outcome.TEAM: ("team_fraction", NOTHING),
    Outcome.LATE: (NOTHING, NOTHING),
    Outcome.UNEXCUSED: (NOTHING, NOTHING),
    Outcome.AUTO: ("auto_absence_fraction", NOTHING),
}

# (white's outcome, black's outcome) of each result.
GAME_OUTCOMES: dict[Result, tuple[Outcome, Outcome]] = {
    Result.WHITE_WINS: (Outcome.WIN, Outcome.LOSS),
    Result.BLACK_WINS: (Outcome.LOSS, Outcome.WIN),
    Result.DRAW: (Outcome.DRAW, Outcome.DRAW),
    Result.WHITE_WINS_BY_FORFEIT: (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS),
    Result.BLACK_WINS_BY_FORFEIT: (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN),
    Result.DOUBLE_FORFEIT: (Outcome.DOUBLE_FORFEIT, Outcome.DOUBLE_FORFEIT),
}
ABSENCE_OUTCOMES: dict[Absence, Outcome] = {
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
# Outcomes of a player who did not come and had not cancelled in time to be left out of the
# pairing (DSC rule k counts these): absent without cancelling, or lost by default.
NO_SHOWS = frozenset({Outcome.UNEXCUSED, Outcome.FORFEIT_LOSS, Outcome.DOUBLE_FORFEIT})


def game_outcome(result: Result, is_white: bool) -> Outcome:
    """The outcome of a game for its white or its black player."""
    white, black = GAME_OUTCOMES[result]
    return white if is_white else black


class Appearance(namedtuple("Appearance", "outcome opponent colour", defaults=(None, None))):
    """One player's part in one round.

    outcome: Outcome; opponent: str | None = None; colour: str | None = None, "white" or
    "black" for games that were played, else None.
    """

    __slots__ = ()


def appearances(round_: Round) -> dict[str, Appearance]:
    """Every player's part in the round; players not in the result took no part."""
    parts: dict[str, Appearance] = {}
    for game in round_.games:
        white, black = GAME_OUTCOMES[game.result]
        played = not game.result.is_forfeit
        parts[game.white] = Appearance(white, game.black, "white" if played else None)
        parts[game.black] = Appearance(black, game.white, "black" if played else None)
    for player_id, reason in round_.absent.items():
        parts[player_id] = Appearance(ABSENCE_OUTCOMES[reason])
    if round_.bye is not None:
        parts[round_.bye] = Appearance(Outcome.BYE)
    return parts


def outcomes(round_: Round) -> dict[str, tuple[Outcome, str | None]]:
    """Every player's (outcome, opponent) in the round: `appearances` without the colours and
    the objects, for the ranking, which reads every round of the season again."""
    parts: dict[str, tuple[Outcome, str | None]] = {}
    for game in round_.games:
        white, black = GAME_OUTCOMES[game.result]
        parts[game.white] = (white, game.black)
        parts[game.black] = (black, game.white)
    for player_id, reason in round_.absent.items():
        parts[player_id] = (ABSENCE_OUTCOMES[reason], None)
    if round_.bye is not None:
        parts[round_.bye] = (Outcome.BYE, None)
    return parts


def own_share(outcome: Outcome, settings: Settings) -> Fraction:
    """The share of the player's own value the outcome earns with these settings."""
    own, _opponent = POINTS_TABLE[outcome]
    return getattr(settings, own) if isinstance(own, str) else own


def weights(outcome: Outcome, settings: Settings) -> tuple[Fraction, Fraction]:
    """(weight of the player's own value, weight of the opponent's value) for an outcome."""
    return own_share(outcome, settings), POINTS_TABLE[outcome][1]


def points(
    appearance: Appearance, own_value: int, opponent_value: int, settings: Settings
) -> Fraction:
    """The points one appearance earns with the given values."""
    own, opponent = weights(appearance.outcome, settings)
    return own * own_value + opponent * opponent_value
