"""What a round is worth: the outcome of each player in a round and the points it earns.

This module is the one place for the table in `keizer-rules.md` section 3. Points are linear in
the values of the valuation ranking: `points = self_weight × V(self) + opponent_weight × V(opp)`,
which lets the ranking re-value all earlier rounds without re-reading them.
"""

from __future__ import annotations

import enum
from collections import namedtuple
from fractions import Fraction

from .season import Absence, Result, Round, Settings, reason_text


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
    ABSENT = "absent"  # away for a reason of the club's own (keizer-variants.md); it says which


NOTHING, HALF, WHOLE = Fraction(0), Fraction(1, 2), Fraction(1)

# The points table of keizer-rules.md section 3, one row for every outcome and no default:
# (share of the player's own value, share of the opponent's value). A share named by a string
# is the competition's setting of that name (`share`): DSC's are those of the rules; other
# clubs' Keizer (keizer-variants.md) changes the settings, never this table.
POINTS_TABLE: dict[Outcome, tuple[Fraction | str, Fraction | str]] = {
    Outcome.WIN: (NOTHING, "win"),
    Outcome.DRAW: (NOTHING, "draw"),
    Outcome.LOSS: (NOTHING, "loss"),
    Outcome.FORFEIT_WIN: (NOTHING, "forfeit_win"),  # the absent opponent's value
    Outcome.FORFEIT_LOSS: (NOTHING, "forfeit_loss"),
    Outcome.DOUBLE_FORFEIT: (NOTHING, "double_forfeit"),
    Outcome.BYE: ("bye", NOTHING),
    Outcome.EXCUSED: ("excused", NOTHING),
    Outcome.TEAM: ("team", NOTHING),
    Outcome.LATE: ("late", NOTHING),
    Outcome.UNEXCUSED: ("unexcused", NOTHING),
    Outcome.AUTO: ("auto", NOTHING),
    Outcome.ABSENT: ("reason", NOTHING),  # the share of the club's reason
}
_GAME_SHARES = {"win": 0, "draw": 1, "loss": 2}
_FORFEIT_SHARES = {"forfeit_win": 0, "forfeit_loss": 1, "double_forfeit": 2}
# The outcomes of an absence: they score a share of the own value (or fixed points), and count
# towards a limit on absences where the settings have one.
ABSENCES = frozenset(
    {Outcome.EXCUSED, Outcome.TEAM, Outcome.LATE, Outcome.UNEXCUSED, Outcome.AUTO, Outcome.ABSENT}
)


def share(name: Fraction | str, settings: Settings, reason: str | None = None) -> Fraction:
    """A share of `POINTS_TABLE` with these settings; `reason` for the club's own reasons."""
    if not isinstance(name, str):
        return name
    if name in _GAME_SHARES:
        return settings.game_shares[_GAME_SHARES[name]]
    if name in _FORFEIT_SHARES:
        return settings.forfeit_shares[_FORFEIT_SHARES[name]]
    if name == "bye":
        return settings.bye_fraction
    return settings.absence_share(reason if name == "reason" else name)


class Amount(namedtuple("Amount", "own opponent fixed halvings")):
    """What one appearance earns, as a rule of the values: `own` × the player's own value +
    `opponent` × the opponent's value + `fixed` points, the whole halved `halvings` times
    (an absence's decay).

    own: Fraction; opponent: Fraction; fixed: Fraction; halvings: int.
    """

    __slots__ = ()


ZERO = Amount(NOTHING, NOTHING, NOTHING, 0)


def amount(
    outcome: Outcome, settings: Settings, reason: str | None = None, counted: int = 0
) -> Amount:
    """The rule of the points an outcome earns: its shares (`POINTS_TABLE`), or the fixed points
    the settings give its reason (or the bye) instead; of an absence that counts towards the
    limit, `counted` being how many counted before it, nothing beyond the limit and, with decay,
    halved once for each one before it."""
    own, opponent = POINTS_TABLE[outcome]
    key = "bye" if outcome is Outcome.BYE else (reason or outcome.value)
    halvings = 0
    if outcome in ABSENCES and settings.counts_towards_limit(key):
        if settings.absence_limit and counted >= settings.absence_limit:
            return ZERO
        if settings.absence_decay:
            halvings = counted
    fixed = dict(settings.fixed_points).get(key) if settings.fixed_points else None
    if fixed is not None and (outcome is Outcome.BYE or outcome in ABSENCES):
        return Amount(NOTHING, NOTHING, fixed, halvings)
    return Amount(share(own, settings, key), share(opponent, settings), NOTHING, halvings)


def counts_as_absence(outcome: Outcome, reason: str | None, settings: Settings) -> bool:
    """Whether the outcome is one of the absences the limit counts."""
    return outcome in ABSENCES and settings.counts_towards_limit(reason or outcome.value)


# (white's outcome, black's outcome) of each result.
GAME_OUTCOMES: dict[Result, tuple[Outcome, Outcome]] = {
    Result.WHITE_WINS: (Outcome.WIN, Outcome.LOSS),
    Result.BLACK_WINS: (Outcome.LOSS, Outcome.WIN),
    Result.DRAW: (Outcome.DRAW, Outcome.DRAW),
    Result.WHITE_WINS_BY_FORFEIT: (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS),
    Result.BLACK_WINS_BY_FORFEIT: (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN),
    Result.DOUBLE_FORFEIT: (Outcome.DOUBLE_FORFEIT, Outcome.DOUBLE_FORFEIT),
}
ABSENCE_OUTCOMES: dict[Absence | str, Outcome] = {
    Absence.EXCUSED: Outcome.EXCUSED,
    Absence.TEAM: Outcome.TEAM,
    Absence.LATE: Outcome.LATE,
    Absence.UNEXCUSED: Outcome.UNEXCUSED,
    Absence.AUTO: Outcome.AUTO,
}
_OUTCOMES_BY_WORD = {reason.value: outcome for reason, outcome in ABSENCE_OUTCOMES.items()}
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


class Appearance(
    namedtuple("Appearance", "outcome opponent colour reason", defaults=(None, None, None))
):
    """One player's part in one round.

    outcome: Outcome; opponent: str | None = None; colour: str | None = None, "white" or
    "black" for games that were played, else None; reason: str | None = None, the word of an
    absence's reason ("excused", or a club's own).
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
        parts[player_id] = Appearance(absence_outcome(reason), None, None, reason_text(reason))
    if round_.bye is not None:
        parts[round_.bye] = Appearance(Outcome.BYE)
    return parts


def absence_outcome(reason: Absence | str) -> Outcome:
    """The outcome of an absence: DSC's reasons (as `Absence` or their word) their own, a
    club's reason `ABSENT`."""
    if isinstance(reason, Absence):
        return ABSENCE_OUTCOMES[reason]
    return _OUTCOMES_BY_WORD.get(reason, Outcome.ABSENT)


def own_share(outcome: Outcome, settings: Settings, reason: str | None = None) -> Fraction:
    """The share of the player's own value the outcome earns with these settings (before an
    absence limit or decay)."""
    return share(POINTS_TABLE[outcome][0], settings, reason or outcome.value)


def points(
    appearance: Appearance,
    own_value: int,
    opponent_value: int,
    settings: Settings,
    counted: int = 0,
) -> Fraction:
    """The points one appearance earns with the given values, exactly (`counted`: the absences
    counted towards the limit before it)."""
    rule = amount(appearance.outcome, settings, appearance.reason, counted)
    earned = rule.own * own_value + rule.opponent * opponent_value + rule.fixed
    if settings.rounding == "half_per_item":
        earned = half_rounded(earned)
    return earned / 2**rule.halvings if settings.rounding == "exact" else halved(earned, rule)


def half_rounded(amount: Fraction) -> Fraction:
    """To the nearest half, halves away from zero (amounts are never negative)."""
    return Fraction(int(2 * amount + HALF), 2)


def halved(earned: Fraction, rule: Amount) -> Fraction:
    """A rounded amount halved `rule.halvings` times, counted in halves, rounding down."""
    return Fraction(int(2 * earned) >> rule.halvings, 2)
