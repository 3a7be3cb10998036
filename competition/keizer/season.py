"""The season as the engine sees it: settings, players and played rounds.

Plain named tuples; `season_file` turns JSON into these and back. Nothing here computes
Keizer arithmetic.

The engine's records are named tuples (subclasses of `collections.namedtuple`, not dataclasses
nor `typing.NamedTuple`): the command line must start fast, and importing `dataclasses` (which
imports `inspect`, `ast`, `dis`, `tokenize`) and making the classes cost some 11 ms of a 40 ms
run. A field's type is in its class's docstring; copy a record changed with `record._replace()`.
"""

from __future__ import annotations

import enum
from collections import namedtuple
from fractions import Fraction

_new = tuple.__new__  # a named tuple made directly, without its keyword-handling `__new__`


class Result(enum.Enum):
    """A game's result as written in the season file (white's score first)."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    WHITE_WINS_BY_FORFEIT = "1-0F"
    BLACK_WINS_BY_FORFEIT = "0-1F"
    DOUBLE_FORFEIT = "0-0F"

    @property
    def is_forfeit(self) -> bool:
        """A forfeit is not a meeting: no colour, and the two may meet again in the period."""
        return self.value.endswith("F")

    @classmethod
    def by_default(cls, white_came: bool, black_came: bool) -> Result:
        """The forfeit result of a game one or both players did not come to: whoever came
        wins by default (vrijgesteld); when neither came, both lose."""
        if white_came and black_came:
            raise ValueError("both players came: the game has a real result")
        if white_came:
            return cls.WHITE_WINS_BY_FORFEIT
        if black_came:
            return cls.BLACK_WINS_BY_FORFEIT
        return cls.DOUBLE_FORFEIT


class Absence(enum.Enum):
    """Why a player who was not paired did not play."""

    EXCUSED = "excused"  # afgemeld: cancelled before the deadline
    TEAM = "team"  # KNSB/FSB team match on the club evening or the day after
    LATE = "late"  # cancelled after the deadline
    UNEXCUSED = "unexcused"  # did not show up and did not cancel
    AUTO = "auto"  # cancelled automatically after two no-shows in a row


class Settings(
    namedtuple(
        "Settings",
        "top_value step rounds_per_period full_revaluation_from_round"
        " bye_fraction excused_fraction team_fraction auto_absence_fraction",
        defaults=(50, 1, 7, 10, Fraction(1), Fraction(1, 3), Fraction(2, 3), Fraction(1, 3)),
    )
):
    """One competition's Keizer settings; the defaults are DSC's.

    top_value: int = 50
    step: int = 1
    rounds_per_period: int = 7
    full_revaluation_from_round: int | None = 10
    bye_fraction: Fraction = 1
    excused_fraction: Fraction = 1/3
    team_fraction: Fraction = 2/3
    auto_absence_fraction: Fraction = 1/3
    """

    __slots__ = ()

    def period_of(self, round_number: int) -> int:
        """The 1-based period a 1-based round belongs to."""
        return (round_number - 1) // self.rounds_per_period + 1

    def revalues_fully(self, after_round: int) -> bool:
        """Whether the ranking after this round is fully re-valued: valued with its own values,
        again and again until its order settles, instead of the previous ranking's."""
        return self.full_revaluation_from_round is not None and (
            after_round >= self.full_revaluation_from_round
        )


# The settings by name, in their order: everything that stores or shows a competition's
# settings derives its list from these instead of naming them again.
SETTING_NAMES: tuple[str, ...] = Settings._fields
# The settings that are a share of the player's own value (fractions).
SHARE_SETTINGS: tuple[str, ...] = tuple(
    name for name in SETTING_NAMES if isinstance(getattr(Settings(), name), Fraction)
)


class Player(namedtuple("Player", "id name joined_round start_points", defaults=(1, Fraction(0)))):
    """id: str; name: str; joined_round: int = 1; start_points: Fraction = 0."""

    __slots__ = ()

    def has_joined(self, round_number: int) -> bool:
        return self.joined_round <= round_number


class Game(namedtuple("Game", "white black result")):
    """white: str; black: str (player ids); result: Result."""

    __slots__ = ()


class Round(namedtuple("Round", "games absent bye", defaults=((), None, None))):
    """games: tuple[Game, ...] = (); absent: dict[str, Absence] = {} (a fresh dict for each
    round); bye: str | None = None."""

    __slots__ = ()

    def __new__(
        cls, games: tuple[Game, ...] = (), absent: dict[str, Absence] | None = None, bye=None
    ) -> Round:
        return _new(cls, (games, {} if absent is None else absent, bye))


class PairRequest(namedtuple("PairRequest", "absent", defaults=(None,))):
    """Who is absent from the round to pair next (everyone else who has joined is present).

    absent: dict[str, Absence] = {} (a fresh dict for each request).
    """

    __slots__ = ()

    def __new__(cls, absent: dict[str, Absence] | None = None) -> PairRequest:
        return _new(cls, ({} if absent is None else absent,))


class Season(namedtuple("Season", "settings players rounds pair", defaults=((), None))):
    """settings: Settings; players: tuple[Player, ...]; rounds: tuple[Round, ...] = ();
    pair: PairRequest | None = None."""

    __slots__ = ()

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1
