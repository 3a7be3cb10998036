"""A player's games over the board: wins, draws, losses and the score in them.

The chess convention: a game counts when it was played. A win or loss by default, both
missing the default time, the bye and absences are not games (they count for Keizer points
and attendance, not here). A win scores 1, a draw ½, a loss 0.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Mapping
from fractions import Fraction

from .scoring import Outcome


class Record(namedtuple("Record", "wins draws losses", defaults=(0, 0, 0))):
    """wins: int = 0; draws: int = 0; losses: int = 0."""

    __slots__ = ()

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> Fraction:
        """1 a win, ½ a draw, 0 a loss."""
        return Fraction(2 * self.wins + self.draws, 2)

    @property
    def percentage(self) -> Fraction | None:
        """The score as a percentage of the games played (None without a game)."""
        return Fraction(100 * (2 * self.wins + self.draws), 2 * self.games) if self.games else None


def record_of(counts: Mapping[Outcome, int]) -> Record:
    """The record of a player who had each outcome `counts[outcome]` times."""
    return Record(
        counts.get(Outcome.WIN, 0), counts.get(Outcome.DRAW, 0), counts.get(Outcome.LOSS, 0)
    )
