"""External games: W − We and the best-team-player table (rules section 8). Pure.

We is the KNSB's logistic expected score 1 / (1 + 10^(−D/400)), D = own − opponent rating.
Each game's W − We is rounded to two decimals, as the federation publishes it; the federation's
own value wins when the arbiter entered it. Sums are exact Decimals.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

SCORES = {"1": Fraction(1), "1/2": Fraction(1, 2), "0": Fraction(0)}
CENT = Decimal("0.01")


def expected_score(own_rating: int, opponent_rating: int) -> float:
    return 1 / (1 + 10 ** (-(own_rating - opponent_rating) / 400))


def w_minus_we(score: str, own_rating: int, opponent_rating: int) -> Decimal:
    w = SCORES[score]
    we = Decimal(repr(expected_score(own_rating, opponent_rating)))
    return (Decimal(w.numerator) / Decimal(w.denominator) - we).quantize(CENT, ROUND_HALF_UP)


@dataclass(frozen=True)
class ExternalResult:
    member_id: int
    colour: str  # "white" / "black"
    score: str  # "1", "1/2", "0"
    w_minus_we: Decimal | None  # None: an unrated opponent, counts as 0


@dataclass
class TeamPlayerRow:
    member_id: int
    games: int = 0
    w_minus_we: Decimal = Decimal(0)
    blacks_minus_whites: int = 0
    points: Fraction = Fraction(0)
    lot: int | None = None
    rank: int = 0
    tied_with_next: bool = False  # equal on every rule but lots with the next row
    decided_by: list[str] = field(default_factory=list)  # the rule that separates it from the next

    @property
    def percentage(self) -> Fraction:
        return self.points / self.games if self.games else Fraction(0)

    @property
    def percent(self) -> int:
        """The percentage for display, rounded half up."""
        return int(self.percentage * 100 + Fraction(1, 2))

    def rule_key(self) -> tuple:
        """Higher W−We, more blacks, fewer games, higher percentage (spec's order)."""
        return (-self.w_minus_we, -self.blacks_minus_whites, self.games, -self.percentage)


def best_team_player_table(
    results: Iterable[ExternalResult], lots: dict[int, int], minimum_games: int
) -> list[TeamPlayerRow]:
    """Players with at least `minimum_games` external games, best first.

    Ties on every rule are broken by the recorded lots (lower wins); rows still tied are
    marked `tied_with_next` so the arbiter knows a drawing of lots is needed.
    """
    rows: dict[int, TeamPlayerRow] = defaultdict(lambda: TeamPlayerRow(0))
    for result in results:
        row = rows[result.member_id]
        row.member_id = result.member_id
        row.games += 1
        row.points += SCORES[result.score]
        row.w_minus_we += result.w_minus_we or Decimal(0)
        row.blacks_minus_whites += 1 if result.colour == "black" else -1
    eligible = [row for row in rows.values() if row.games >= minimum_games]
    for row in eligible:
        row.lot = lots.get(row.member_id)
    eligible.sort(key=lambda r: (*r.rule_key(), r.lot is None, r.lot or 0, r.member_id))
    rules = ["w_minus_we", "colour_balance", "games", "percentage"]
    for position, row in enumerate(eligible, start=1):
        row.rank = position
        if position < len(eligible):
            following = eligible[position]
            mine, theirs = row.rule_key(), following.rule_key()
            decisive = next((i for i in range(4) if mine[i] != theirs[i]), None)
            if decisive is None:
                if row.lot is not None and following.lot is not None:
                    row.decided_by.append("lots")
                else:
                    row.tied_with_next = True
            else:
                row.decided_by.append(rules[decisive])
    return eligible
