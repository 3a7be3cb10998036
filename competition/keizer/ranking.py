"""Rankings 0..k of a season (`keizer-rules.md` sections 2, 4 and 5).

Arithmetic is exact: every amount is an integer count of `1/unit`, where `unit` is the least
common multiple of 2 and every denominator in the settings and start points. Fractions appear
only at the edge (`Standing.total`, `Standing.points`).

Points are linear in the values of the valuation ranking (`scoring`), so a player's total is
`V(self) × own weight + start + Σ weight × V(opponent)`. The opponent part is kept up to date
from one valuation to the next: when a pass moves a few players, only the totals of those who
met them change, so a full re-valuation costs little more than sorting.
"""

from __future__ import annotations

from collections import namedtuple
from fractions import Fraction
from math import lcm
from operator import mul

from .scoring import Outcome, outcomes, weights
from .season import SHARE_SETTINGS, Season
from .values import value_at

MAX_REVALUATIONS = 100
_new = tuple.__new__  # a named tuple made without its keyword-handling `__new__`


class Standing(namedtuple("Standing", "rank player_id value total_units points_units unit")):
    """One player's line in a ranking.

    rank: int; player_id: str; value: int, the value of the new position; total_units: int;
    points_units: tuple[int, ...], rounds 1..k as valued in this ranking's computation; unit: int.
    """

    __slots__ = ()

    @property
    def total(self) -> Fraction:
        return Fraction(self.total_units, self.unit)

    @property
    def points(self) -> tuple[Fraction, ...]:
        return tuple(Fraction(p, self.unit) for p in self.points_units)


class Ranking(namedtuple("Ranking", "round standings valuation passes oscillation_stop")):
    """round: int, k: the ranking after round k (0 = the initial ranking);
    standings: tuple[Standing, ...]; valuation: tuple[str, ...], the ordering whose values
    produced the totals; passes: int, how many valuations were computed (1 without full
    revaluation); oscillation_stop: bool, full revaluation stopped at a repeated ordering
    without settling."""

    __slots__ = ()

    @property
    def order(self) -> tuple[str, ...]:
        return tuple(standing.player_id for standing in self.standings)

    def position_of(self, player_id: str) -> int:
        """1-based position of a player in this ranking."""
        return self.order.index(player_id) + 1


def compute_rankings(season: Season, with_points: bool = True, since: int = 0) -> list[Ranking]:
    """Ranking 0 and the ranking after every round of the season, in order.

    Without points, each standing's per-round points are left empty: the order, values and
    totals are the same, and pairing needs nothing more. With `since`, only rankings `since`..k
    are built (ranking j is computed from rounds 1..j only, so the earlier ones are those of
    any season that differs from this one from round `since` on).
    """
    return _Calculator(season, with_points).rankings(since=since)


def last_ranking(season: Season) -> Ranking:
    """`compute_rankings(season, with_points=False)[-1]` without building the earlier rankings'
    standings: what the pairing of the next round needs."""
    return _Calculator(season, with_points=False).rankings(last_only=True)[-1]


def with_newcomers(order, totals, values, newcomers) -> list:
    """Rule 5: the valuation ranking `order` (player keys) with each newcomer (key, start
    points), in the players' order, inserted at the first position i where `values[i]` (the
    value of the i-th place, 0-based) plus their start points is greater than the total
    (`totals[key]`, in the ranking before) of the player now at i; otherwise at the end. An
    inserted newcomer's value plus start points counts as their total for the next insertion.
    Any exact numbers will do (integer units here, Fractions in the site's preview)."""
    valuation = list(order)
    inserted = {}
    for newcomer, start in newcomers:
        position = next(
            (
                i
                for i, player in enumerate(valuation)
                if values[i] + start > inserted.get(player, totals[player])
            ),
            len(valuation),
        )
        valuation.insert(position, newcomer)
        inserted[newcomer] = values[position] + start
    return valuation


class _Calculator:
    """Holds the season in integer form: per player, the linear form of their points."""

    def __init__(self, season: Season, with_points: bool = True):
        self.with_points = with_points
        settings = season.settings
        players = season.players
        denominators = [2] + [p.start_points.denominator for p in players]
        denominators += [getattr(settings, name).denominator for name in SHARE_SETTINGS]
        self.unit = lcm(*denominators)
        self.ids = [p.id for p in players]
        self.start = [int(p.start_points * self.unit) for p in players]
        self.joined = [p.joined_round for p in players]
        # the value of every 0-based position a ranking of these players can have
        self.values = [value_at(position, settings) for position in range(1, len(players) + 2)]
        self.revalues_fully = settings.revalues_fully
        weight_units = {
            outcome: tuple(int(weight * self.unit) for weight in weights(outcome, settings))
            for outcome in Outcome
        }
        index = {p.id: i for i, p in enumerate(players)}
        # per round: (player index, own weight units, opponent index, opponent weight units) of
        # everyone who took part (opponent -1 when there was none)
        self.rounds: list[list[tuple[int, int, int, int]]] = []
        for round_ in season.rounds:
            forms = []
            for player_id, (outcome, opponent) in outcomes(round_).items():
                own, weight = weight_units[outcome]
                forms.append(
                    (index[player_id], own, index[opponent] if opponent is not None else -1, weight)
                )
            self.rounds.append(forms)

    def rankings(self, last_only: bool = False, since: int = 0) -> list[Ranking]:
        n = len(self.ids)
        unit, values, start = self.unit, self.values, self.start
        self.own_weight = [unit] * n  # the player's own value counts once, plus round weights
        # Σ weight × value of the opponent over the rounds so far, with the values `current`
        self.opponent_part = [0] * n
        self.current = [0] * n
        self.met_by: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # o: (i, weight)
        # Per player, one term per round: its points are `factor × value of target`. A round
        # that earns a share of both values (no outcome does today) adds its own share in
        # `extra`: {round index: own weight}.
        self.factors: list[list[int]] = [[] for _ in range(n)]
        self.targets: list[list[int]] = [[] for _ in range(n)]
        self.extra: list[dict[int, int]] = [{} for _ in range(n)]
        # Per player, the points and values of the last ranking built with points: a player
        # whose value and opponents' values did not change keeps them and adds the new round.
        self.last_points: list[tuple[int, ...] | None] = [None] * n
        self.last_values = [0] * n

        order = [i for i in range(n) if self.joined[i] <= 1]
        totals = [0] * n
        for i, value in zip(order, values, strict=False):
            totals[i] = value * unit + start[i]
        last = len(self.rounds)
        result = []
        if (not last_only or last == 0) and since == 0:
            result.append(self._ranking(0, order, totals, order, self._values_of(order), 1, False))

        for k in range(1, last + 1):
            self._add_round(k - 1)
            valuation = self._with_newcomers(order, totals, joining_round=k + 1)
            full = self.revalues_fully(k)
            seen = {tuple(valuation)}
            passes = 0
            oscillation = False
            while True:
                totals = self._totals(valuation)
                # stable: equal totals keep the order of the valuation ranking
                order = sorted(valuation, key=totals.__getitem__, reverse=True)
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
            if (not last_only or k == last) and k >= since:
                result.append(
                    self._ranking(k, order, totals, valuation, self.current, passes, oscillation)
                )
        return result

    def _add_round(self, r: int) -> None:
        own_weight, part, current = self.own_weight, self.opponent_part, self.current
        factors, targets = self.factors, self.targets
        took_part = set()
        for i, own, opponent, weight in self.rounds[r]:
            took_part.add(i)
            own_weight[i] += own
            if weight:
                self.met_by[opponent].append((i, weight))
                part[i] += weight * current[opponent]
                factors[i].append(weight)
                targets[i].append(opponent)
                if own:
                    self.extra[i][r] = own
            else:
                factors[i].append(own)
                targets[i].append(i)
        for i in range(len(self.ids)):
            if i not in took_part:
                factors[i].append(0)
                targets[i].append(i)

    def _values_of(self, valuation: list[int]) -> list[int]:
        """The value of every player in this valuation (0 for those not in it)."""
        by_player = [0] * len(self.ids)
        for i, value in zip(valuation, self.values, strict=False):
            by_player[i] = value
        return by_player

    def _with_newcomers(self, order: list[int], totals: list[int], joining_round: int) -> list[int]:
        """The valuation ranking with the players joining in `joining_round` inserted (rule 5)."""
        newcomers = [i for i in range(len(self.ids)) if self.joined[i] == joining_round]
        if not newcomers or joining_round == 1:
            return list(order)
        unit = self.unit
        values = [value * unit for value in self.values]
        return with_newcomers(order, totals, values, [(i, self.start[i]) for i in newcomers])

    def _totals(self, valuation: list[int]) -> list[int]:
        """Every player's total with the values of this valuation (indexed by player)."""
        new = self._values_of(valuation)
        current, part, met_by = self.current, self.opponent_part, self.met_by
        changed = [
            o for o, now, before in zip(range(len(new)), new, current, strict=True) if now != before
        ]
        for o in changed:
            delta = new[o] - current[o]
            for i, weight in met_by[o]:
                part[i] += weight * delta
        self.current = new
        return [
            value * own + start + opponents
            for value, own, start, opponents in zip(
                new, self.own_weight, self.start, part, strict=True
            )
        ]

    def _ranking(
        self,
        k: int,
        order: list[int],
        totals: list[int],
        valuation: list[int],
        values: list[int],
        passes: int,
        oscillation: bool,
    ) -> Ranking:
        """Ranking k; `values` are every player's values in `valuation`."""
        ids, unit, position_values = self.ids, self.unit, self.values
        standings = []
        if self.with_points:
            changed = self._changed_points(values)
            last_points, factors, targets, extra = (
                self.last_points,
                self.factors,
                self.targets,
                self.extra,
            )
            r = k - 1  # the new round's index
            for pos, i in enumerate(order):
                before = last_points[i]
                if before is None or i in changed or len(before) != r or extra[i]:
                    points = self._points(i, values)
                else:  # what `_points` gives, with the rounds before k taken as they were
                    new = factors[i][r] * values[targets[i][r]]
                    points = before + (new,)  # noqa: RUF005 - twice as fast as unpacking
                last_points[i] = points
                standings.append(
                    _new(Standing, (pos + 1, ids[i], position_values[pos], totals[i], points, unit))
                )
            self.last_values = values
        else:
            for pos, i in enumerate(order):
                standings.append(
                    _new(Standing, (pos + 1, ids[i], position_values[pos], totals[i], (), unit))
                )
        return _new(
            Ranking, (k, tuple(standings), tuple(ids[i] for i in valuation), passes, oscillation)
        )

    def _changed_points(self, values: list[int]) -> set[int]:
        """The players whose points of earlier rounds differ with these values from the last
        ranking's: those whose value changed and those who met them."""
        changed = set()
        met_by = self.met_by
        for o, (now, before) in enumerate(zip(values, self.last_values, strict=True)):
            if now != before:
                changed.add(o)
                changed.update(i for i, _ in met_by[o])
        return changed

    def _points(self, i: int, values: list[int]) -> tuple[int, ...]:
        """Player i's points of every round so far with these values."""
        points = tuple(map(mul, self.factors[i], map(values.__getitem__, self.targets[i])))
        if self.extra[i]:
            with_own = list(points)
            for r, own in self.extra[i].items():
                with_own[r] += own * values[i]
            points = tuple(with_own)
        return points
