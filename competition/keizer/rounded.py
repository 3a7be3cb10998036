"""`rounding: half_per_item` (keizer-variants.md): every amount rounded to a half on its own.

An amount is still a function of one value (the player's own or the opponent's), so the
ranking's sums stay incremental: `RoundedCalculator` is `ranking._Calculator` with amounts read
from tables by value."""

from __future__ import annotations

from fractions import Fraction
from operator import getitem

from .ranking import SCRATCH, _Calculator


class _Rounded(dict):
    """An amount rounded on its own (`rounding: half_per_item`): `weight × value` to the nearest
    half, halves away from zero, then halved `halvings` times counted in halves rounding down,
    in units; by value, each worked out the first time it is asked. `table * value` reads it
    too (the calculator's `factor * value`). Never empty, so always true, as a weight is."""

    def __init__(self, weight: Fraction, halvings: int, unit: int):
        super().__init__()
        self.weight, self.halvings, self.half = weight, halvings, unit // 2
        self[0] = 0

    def __missing__(self, value: int) -> int:
        units = self[value] = _half_units(self.weight * value, self.halvings, self.half)
        return units

    def __mul__(self, value: int) -> int:
        return self[value]

    __rmul__ = __mul__


def _half_units(amount: Fraction, halvings: int, half: int) -> int:
    """An amount rounded to halves (away from zero: amounts are never negative), halved
    `halvings` times rounding down, in units of which `half` make ½."""
    halves = (2 * amount + Fraction(1, 2)).__floor__()
    return (halves >> halvings) * half


class _Linear(dict):
    """A whole weight as a table: `weight × value` by value, for the C-level lookups."""

    def __init__(self, weight: int):
        super().__init__()
        self.weight = weight

    def __missing__(self, value: int) -> int:
        units = self[value] = self.weight * value
        return units


class RoundedCalculator(_Calculator):
    """`rounding: half_per_item`: each appearance's amount rounded on its own. An amount is
    still a function of one value (the player's own or the opponent's), so the sums stay
    incremental: a changed value changes each amount that reads it by its new rounded amount
    less its old (`met_rounded`). A share whose amounts need no rounding (a whole or a half of
    a whole value) stays a linear weight, summed as exactly as without rounding."""

    def _units(self, rule) -> tuple:
        if rule.own and rule.opponent:  # pragma: no cover - no outcome earns both
            raise ValueError("an amount of two values cannot be rounded on its own")
        cache = self.__dict__.setdefault("rounded_tables", {})

        def term(weight: Fraction):
            if not weight:
                return 0
            if rule.halvings == 0 and (2 * weight).denominator == 1:
                return int(weight * self.unit)  # w × value is a multiple of ½ already
            key = (weight, rule.halvings)
            if key not in cache:
                cache[key] = _Rounded(weight, rule.halvings, self.unit)
            return cache[key]

        fixed = _half_units(rule.fixed, rule.halvings, self.unit // 2) if rule.fixed else 0
        return term(rule.own), term(rule.opponent), fixed

    def _fixed_units(self, points: Fraction) -> int:
        return _half_units(points, 0, self.unit // 2)

    def _start_structures(self) -> None:
        super()._start_structures()
        self.met_rounded: list[list[tuple[int, _Rounded]]] = [[] for _ in self.ids]
        # the factors as tables, a whole weight too (`_linear`): read with one C-level lookup
        self.tables: list[list[dict]] = [[] for _ in self.ids]
        self.linear_tables: dict[int, _Linear] = {}

    def _linear(self, weight: int) -> dict:
        table = self.linear_tables.get(weight)
        if table is None:
            table = self.linear_tables[weight] = _Linear(weight)
        return table

    def _add_round(self, r: int, withdrawn: frozenset[int] = frozenset()) -> None:
        self.kept_terms = None  # a round more: the kept terms are one short
        own_weight, part, current = self.own_weight, self.opponent_part, self.current
        base, factors, targets = self.base, self.factors, self.targets
        start_values = self.start_values
        tables = self.tables
        took_part = set()
        for i, own, opponent, weight, fixed, _outcome in self._items(r, withdrawn):
            took_part.add(i)
            if fixed:
                base[i] += fixed
                self.extra[i][r] = (0, fixed)
            target, term = (opponent, weight) if weight else (i, own)
            if type(term) is _Rounded:
                self.met_rounded[target].append((i, term))
                part[i] += term[current[target]]
                if start_values is not None:
                    self.start_part[i] += term[start_values[target]]
            elif target == i:
                own_weight[i] += term
            else:
                met = self.met_by[target]
                met[i] = met.get(i, 0) + term
                part[i] += term * current[target]
                if start_values is not None:
                    self.start_part[i] += term * start_values[target]
            factors[i].append(term)
            targets[i].append(target)
            tables[i].append(term if type(term) is _Rounded else self._linear(term))
        for i in range(len(self.ids)):
            if i not in took_part:
                factors[i].append(0)
                targets[i].append(i)
                tables[i].append(self._linear(0))

    def _terms_sum(self, i: int, values: list[int]) -> int:
        return sum(map(getitem, self.tables[i], map(values.__getitem__, self.targets[i])))

    def _totals(self, valuation: list[int]) -> list[int]:
        new = self._values_of(valuation)
        current, part = self.current, self.opponent_part
        met_by, met_rounded = self.met_by, self.met_rounded
        changed = sum(1 for now, before in zip(new, current, strict=True) if now != before)
        if changed * SCRATCH > len(new):
            return self._totals_afresh(new)
        for o, (now, before) in enumerate(zip(new, current, strict=True)):
            if now != before:
                delta = now - before
                for i, weight in met_by[o].items():
                    part[i] += weight * delta
                for i, table in met_rounded[o]:
                    part[i] += table[now] - table[before]
        self.current = new
        return [
            value * own + base + opponents
            for value, own, base, opponents in zip(
                new, self.own_weight, self.base, part, strict=True
            )
        ]

    def _changed_points(self, values: list[int]) -> set[int]:
        changed = super()._changed_points(values)
        for o, (now, before) in enumerate(zip(values, self.last_values, strict=True)):
            if now != before:
                changed.update(i for i, _ in self.met_rounded[o])
        return changed

    def _part_with(self, i: int, values: list[int]) -> int:
        return sum(
            factor[values[target]] if type(factor) is _Rounded else factor * values[target]
            for factor, target in zip(self.factors[i], self.targets[i], strict=True)
            if type(factor) is _Rounded or target != i
        )

    def _terms(self, i: int, values: list[int]) -> tuple[int, ...]:
        return tuple(map(getitem, self.tables[i], map(values.__getitem__, self.targets[i])))

    def _points(self, i: int, values: list[int], terms: tuple | None = None) -> tuple[int, ...]:
        if self.settings.revaluation == "frozen":
            return tuple(self.frozen_points[i])
        points = list(terms if terms is not None else self._terms(i, values))
        for r, (_own, fixed) in self.extra[i].items():
            points[r] += fixed
        return tuple(points)

    def _mean(self, first: list[int], second: list[int]) -> list[int]:
        """The mean of two passes' totals, to the nearest half (halves away from zero)."""
        half = self.unit // 2
        return [(a + b + half) // (2 * half) * half for a, b in zip(first, second, strict=True)]
