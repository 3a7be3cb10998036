"""The season as the engine sees it: settings, players and played rounds.

Plain frozen dataclasses; `season_file` turns JSON into these and back. Nothing here computes
Keizer arithmetic.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, fields
from fractions import Fraction


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


@dataclass(frozen=True)
class Settings:
    """One competition's Keizer settings; the defaults are DSC's."""

    top_value: int = 50
    step: int = 1
    rounds_per_period: int = 7
    full_revaluation_from_round: int | None = 10
    bye_fraction: Fraction = Fraction(1)
    excused_fraction: Fraction = Fraction(1, 3)
    team_fraction: Fraction = Fraction(2, 3)
    auto_absence_fraction: Fraction = Fraction(1, 3)

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
SETTING_NAMES: tuple[str, ...] = tuple(setting.name for setting in fields(Settings))
# The settings that are a share of the player's own value (fractions).
SHARE_SETTINGS: tuple[str, ...] = tuple(
    name for name in SETTING_NAMES if isinstance(getattr(Settings(), name), Fraction)
)


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    joined_round: int = 1
    start_points: Fraction = Fraction(0)

    def has_joined(self, round_number: int) -> bool:
        return self.joined_round <= round_number


@dataclass(frozen=True)
class Game:
    white: str
    black: str
    result: Result


@dataclass(frozen=True)
class Round:
    games: tuple[Game, ...] = ()
    absent: dict[str, Absence] = field(default_factory=dict)
    bye: str | None = None


@dataclass(frozen=True)
class PairRequest:
    """Who is absent from the round to pair next (everyone else who has joined is present)."""

    absent: dict[str, Absence] = field(default_factory=dict)


@dataclass(frozen=True)
class Season:
    settings: Settings
    players: tuple[Player, ...]
    rounds: tuple[Round, ...] = ()
    pair: PairRequest | None = None

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1
