"""Attendance (rules section 8): a round counts when the player played a game, won by
default, had the bye, or was away for a team match. At least two thirds of the season's rounds
make a player eligible for the club championship and the group prizes (and the climber's); a
club may ask another share (`share`: the club's policy, issue 40)."""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterable
from fractions import Fraction
from math import ceil

from .scoring import ABSENCE_OUTCOMES, ATTENDED, GAME_OUTCOMES, Outcome
from .season import Season

# Whether an outcome counts, told from what the round holds: (white, black) by result, by
# reason of absence, and for the bye (the outcomes `scoring.appearances` gives them).
_GAME_ATTENDED = {
    result: (white in ATTENDED, black in ATTENDED)
    for result, (white, black) in GAME_OUTCOMES.items()
}
_ABSENCE_ATTENDED = {reason: outcome in ATTENDED for reason, outcome in ABSENCE_OUTCOMES.items()}
_OWN_REASON_ATTENDED = Outcome.ABSENT in ATTENDED  # a reason of the club's own
_BYE_ATTENDED = Outcome.BYE in ATTENDED


def attendance_after_each_round(season: Season) -> list[dict[str, int]]:
    """Attendance after round k for k = 0..len(rounds), in one pass. Each player's part in a
    round is the one `scoring.appearances` gives (a later entry of the round replaces an
    earlier one: the absence a game, the bye either), read as whether it counts, without
    making the appearances."""
    counts = {player.id: 0 for player in season.players}
    result = [dict(counts)]
    for round_ in season.rounds:
        counted: dict[str, bool] = {}
        for game in round_.games:
            counted[game.white], counted[game.black] = _GAME_ATTENDED[game.result]
        for player_id, reason in round_.absent.items():
            counted[player_id] = _ABSENCE_ATTENDED.get(reason, _OWN_REASON_ATTENDED)
        if round_.bye is not None:
            counted[round_.bye] = _BYE_ATTENDED
        for player_id, attended in counted.items():
            if attended:
                counts[player_id] += 1
        result.append(dict(counts))
    return result


TWO_THIRDS = Fraction(2, 3)  # DSC's share


def required_rounds(season_rounds: int, share: Fraction = TWO_THIRDS) -> int:
    """At least `share` of the season's rounds, rounded up: two thirds are 19 of 28."""
    return ceil(share * season_rounds)


class Forecast(namedtuple("Forecast", "attended open required")):
    """Where one player stands with the two-thirds rule, from what is known now.

    attended: int, rounds attended so far; open: int, rounds still to come that the player can
    still attend; required: int, the share of the season's rounds asked (DSC: two thirds).
    """

    __slots__ = ()

    @property
    def most(self) -> int:
        """The most rounds the player can still reach: attending every open round."""
        return self.attended + self.open

    @property
    def reached(self) -> bool:
        return self.attended >= self.required

    @property
    def reachable(self) -> bool:
        return self.most >= self.required

    @property
    def may_miss(self) -> int:
        """How many of the open rounds the player may still miss and reach the requirement
        (all of them once it is reached; negative once it can no longer be reached)."""
        return min(self.most - self.required, self.open)


def forecast(
    attended: int,
    season_rounds: int,
    to_come: Iterable[Outcome | None],
    share: Fraction = TWO_THIRDS,
) -> Forecast:
    """The forecast of a player who attended `attended` rounds so far. `to_come` has one entry
    per later round of the season the player takes part in: the outcome already known (an
    absence recorded, a result entered, the bye), or None while it is open. A round counts as
    open unless its known outcome does not count as attended."""
    open_rounds = sum(1 for outcome in to_come if outcome is None or outcome in ATTENDED)
    return Forecast(attended, open_rounds, required_rounds(season_rounds, share))
