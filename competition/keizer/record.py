"""A player's games over the board: wins, draws, losses and the score in them.

The chess convention: a game counts when it was played. A win or loss by default, both
missing the default time, the bye and absences are not games (they count for Keizer points
and attendance, not here).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from .scoring import Outcome

GAME_SCORES: dict[Outcome, Fraction] = {
    Outcome.WIN: Fraction(1),
    Outcome.DRAW: Fraction(1, 2),
    Outcome.LOSS: Fraction(0),
}


@dataclass(frozen=True)
class Record:
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> Fraction:
        return (
            self.wins * GAME_SCORES[Outcome.WIN]
            + self.draws * GAME_SCORES[Outcome.DRAW]
            + self.losses * GAME_SCORES[Outcome.LOSS]
        )

    @property
    def percentage(self) -> Fraction | None:
        """The score as a percentage of the games played (None without a game)."""
        return 100 * self.score / self.games if self.games else None


def tally(outcomes: Iterable[Outcome]) -> Record:
    """The record of a player's outcomes (of any rounds; only games played count)."""
    counts = Counter(outcomes)
    return Record(counts[Outcome.WIN], counts[Outcome.DRAW], counts[Outcome.LOSS])
