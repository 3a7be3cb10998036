"""Rankings 0..k of a season (`keizer-rules.md` sections 2, 4 and 5).

Arithmetic is exact: every amount is an integer count of `1/unit`, where `unit` is the least
common multiple of 2 and every denominator in the settings and start points. Fractions appear
only at the edge (`Standing.total`, `Standing.points`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from .scoring import Appearance, Outcome, appearances, weights
from .season import SHARE_SETTINGS, Season
from .values import value_at

MAX_REVALUATIONS = 100
_NO_PART = (0, 0, 0)  # own weight, opponent index, opponent weight: scores nothing


@dataclass(frozen=True)
class Standing:
    rank: int
    player_id: str
    value: int  # the value of the new position
    total_units: int
    points_units: tuple[int, ...]  # rounds 1..k as valued in this ranking's computation
    unit: int

    @property
    def total(self) -> Fraction:
        return Fraction(self.total_units, self.unit)

    @property
    def points(self) -> tuple[Fraction, ...]:
        return tuple(Fraction(p, self.unit) for p in self.points_units)


@dataclass(frozen=True)
class Ranking:
    round: int  # k: the ranking after round k (0 = the initial ranking)
    standings: tuple[Standing, ...]
    valuation: tuple[str, ...]  # the ordering whose values produced the totals
    passes: int  # how many valuations were computed (1 without full revaluation)
    oscillation_stop: bool  # full revaluation stopped at a repeated ordering without settling

    @property
    def order(self) -> tuple[str, ...]:
        return tuple(standing.player_id for standing in self.standings)

    def position_of(self, player_id: str) -> int:
        """1-based position of a player in this ranking."""
        return self.order.index(player_id) + 1


def compute_rankings(season: Season, with_points: bool = True) -> list[Ranking]:
    """Ranking 0 and the ranking after every round of the season, in order.

    Without points, each standing's per-round points are left empty: the order, values and
    totals are the same, and pairing needs nothing more.
    """
    return _Calculator(season, with_points).rankings()


class _Calculator:
    """Holds the season in integer form: per player, the linear form of their points."""

    def __init__(self, season: Season, with_points: bool = True):
        self.season = season
        self.with_points = with_points
        settings = season.settings
        players = season.players
        denominators = [2] + [p.start_points.denominator for p in players]
        denominators += [getattr(settings, name).denominator for name in SHARE_SETTINGS]
        self.unit = lcm(*denominators)
        self.ids = [p.id for p in players]
        self.index = {p.id: i for i, p in enumerate(players)}
        self.start = [int(p.start_points * self.unit) for p in players]
        self.joined = [p.joined_round for p in players]
        self.weight_units = {
            outcome: tuple(int(weight * self.unit) for weight in weights(outcome, settings))
            for outcome in Outcome
        }
        # per round: {player index: (own weight units, opponent index or -1, opponent weight units)}
        self.forms: list[dict[int, tuple[int, int, int]]] = [
            self._round_forms(appearances(round_)) for round_ in season.rounds
        ]
        # per player, per round: the same forms, (0, 0, 0) for a round they took no part in
        self.player_forms = [
            [forms.get(i, _NO_PART) for forms in self.forms] for i in range(len(players))
        ]

    def _round_forms(self, parts: dict[str, Appearance]) -> dict[int, tuple[int, int, int]]:
        forms = {}
        for player_id, part in parts.items():
            own, opponent = self.weight_units[part.outcome]
            opponent_index = self.index[part.opponent] if part.opponent is not None else -1
            forms[self.index[player_id]] = (own, opponent_index, opponent)
        return forms

    def value(self, position: int) -> int:
        return value_at(position, self.season.settings)

    def rankings(self) -> list[Ranking]:
        settings = self.season.settings
        n = len(self.ids)
        own_weight = [self.unit] * n  # the player's own value counts once, plus round weights
        opponent_weights: list[dict[int, int]] = [{} for _ in range(n)]

        order = [i for i in range(n) if self.joined[i] <= 1]
        totals = {
            i: self.value(pos) * self.unit + self.start[i] for pos, i in enumerate(order, start=1)
        }
        result = [self._ranking(0, order, totals, order, passes=1, oscillation=False)]

        for k in range(1, len(self.forms) + 1):
            for i, (own, opponent, weight) in self.forms[k - 1].items():
                own_weight[i] += own
                if weight:
                    opponent_weights[i][opponent] = opponent_weights[i].get(opponent, 0) + weight
            linear = [
                (i, own_weight[i], self.start[i], tuple(opponent_weights[i].items()))
                for i in range(n)
            ]
            valuation = self._with_newcomers(order, totals, joining_round=k + 1)
            full = (
                settings.full_revaluation_from_round is not None
                and k >= settings.full_revaluation_from_round
            )
            seen = {tuple(valuation)}
            passes = 0
            oscillation = False
            while True:
                totals = self._totals(valuation, linear)
                position = {i: pos for pos, i in enumerate(valuation)}
                order = sorted(valuation, key=lambda i: (-totals[i], position[i]))
                passes += 1
                if not full or order == valuation:
                    break
                if tuple(order) in seen:
                    oscillation = True
                    break
                if passes >= MAX_REVALUATIONS:
                    oscillation = True
                    break
                seen.add(tuple(order))
                valuation = order
            result.append(self._ranking(k, order, totals, valuation, passes, oscillation))
        return result

    def _with_newcomers(
        self, order: list[int], totals: dict[int, int], joining_round: int
    ) -> list[int]:
        """The valuation ranking with the players joining in `joining_round` inserted (rule 5)."""
        newcomers = [i for i in range(len(self.ids)) if self.joined[i] == joining_round]
        if not newcomers or joining_round == 1:
            return list(order)
        valuation = list(order)
        totals = dict(totals)
        for newcomer in newcomers:
            position = len(valuation)
            for pos, player in enumerate(valuation):
                if self.value(pos + 1) * self.unit + self.start[newcomer] > totals[player]:
                    position = pos
                    break
            valuation.insert(position, newcomer)
            totals[newcomer] = self.value(position + 1) * self.unit + self.start[newcomer]
        return valuation

    def _totals(self, valuation: list[int], linear) -> dict[int, int]:
        values = [0] * len(self.ids)
        for pos, i in enumerate(valuation, start=1):
            values[i] = self.value(pos)
        totals = {}
        for i in valuation:
            _, own, start, opponents = linear[i]
            totals[i] = values[i] * own + start + sum(w * values[o] for o, w in opponents)
        return totals

    def _ranking(
        self,
        k: int,
        order: list[int],
        totals: dict[int, int],
        valuation: list[int],
        passes: int,
        oscillation: bool,
    ) -> Ranking:
        values = [0] * len(self.ids)
        for pos, i in enumerate(valuation, start=1):
            values[i] = self.value(pos)
        standings = []
        for pos, i in enumerate(order, start=1):
            round_points = (
                tuple(
                    own * values[i] + weight * values[opponent]
                    for own, opponent, weight in self.player_forms[i][:k]
                )
                if self.with_points
                else ()
            )
            standings.append(
                Standing(pos, self.ids[i], self.value(pos), totals[i], round_points, self.unit)
            )
        return Ranking(
            k, tuple(standings), tuple(self.ids[i] for i in valuation), passes, oscillation
        )
