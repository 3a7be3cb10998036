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

from .newcomers import with_newcomers
from .scoring import GAME_OUTCOMES, Outcome, absence_outcome, amount, counts_as_absence
from .season import Season, reason_text
from .values import value_at

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
    return _calculator(season, with_points).rankings(since=since)


def last_ranking(season: Season) -> Ranking:
    """`compute_rankings(season, with_points=False)[-1]` without building the earlier rankings'
    standings: what the pairing of the next round needs."""
    return _calculator(season, with_points=False).rankings(last_only=True)[-1]


class _Calculator:
    """Holds the season in integer form: per player, the linear form of their points.

    An appearance's points follow `scoring.amount`: `own × V(self) + opponent × V(opponent) +
    fixed`, in integer units. With `rounding: half_per_item` each amount is rounded on its own
    (`rounded.RoundedCalculator`), which keeps the sums incremental: an amount still depends on
    one value only.
    """

    def __init__(self, season: Season, with_points: bool = True):
        self.with_points = with_points
        settings = self.settings = season.settings
        players = season.players
        denominators = [2] + [p.start_points.denominator for p in players]
        denominators += [fraction.denominator for fraction in settings.fractions()]
        unit = lcm(*denominators)
        if settings.rounding == "exact":
            if settings.absence_decay:  # an absence's amount halved up to once a round
                unit <<= len(season.rounds)
            if settings.on_cycle == "average":  # the mean of two passes' totals
                unit *= 2
        self.unit = unit
        n = len(players)
        self.ids = [p.id for p in players]
        self.start = [int(p.start_points * unit) for p in players]
        self.joined = [p.joined_round for p in players]
        self.handicap = settings.late_join == "handicap"
        self.withdrawn_after = [p.withdrawn_after_round for p in players]
        self.by_start_order = settings.tiebreak == "ranking0"
        self.own_base = unit if settings.own_value else 0
        self._values_by_size: dict[int, list[int]] = {}
        self.values = self._values_for(n)
        self.revalues_fully = settings.revalues_fully
        index = {p.id: i for i, p in enumerate(players)}
        # per round, per player who took part: (player index, own units, opponent index or -1,
        # opponent units, fixed units, outcome)
        self.rounds: list[list[tuple]] = []
        by_result = {
            result: tuple((outcome, self._units(amount(outcome, settings))) for outcome in outcomes)
            for result, outcomes in GAME_OUTCOMES.items()
        }
        bye = self._units(amount(Outcome.BYE, settings))
        limited = bool(settings.absence_limit or settings.absence_decay)
        counted = [0] * n  # absences counted towards a limit so far
        cache: dict[tuple, tuple[int, int, int]] = {}
        handicap = self._fixed_units(settings.late_join_handicap)
        for number, round_ in enumerate(season.rounds, start=1):
            parts: dict[int, tuple] = {}  # a later entry replaces an earlier, as `appearances`
            for game in round_.games:
                white, black = index[game.white], index[game.black]
                (white_outcome, w), (black_outcome, b) = by_result[game.result]
                parts[white] = (white, w[0], black, w[1], w[2], white_outcome)
                parts[black] = (black, b[0], white, b[1], b[2], black_outcome)
            for player_id, reason in round_.absent.items():
                i = index[player_id]
                outcome, word = absence_outcome(reason), reason_text(reason)
                key = (word, counted[i] if limited else 0)
                units = cache.get(key)
                if units is None:
                    units = cache[key] = self._units(amount(outcome, settings, *key))
                if limited and counts_as_absence(outcome, word, settings):
                    counted[i] += 1
                parts[i] = (i, units[0], -1, 0, units[2], outcome)
            if round_.bye is not None:
                i = index[round_.bye]
                parts[i] = (i, bye[0], -1, 0, bye[2], Outcome.BYE)
            if self.handicap:
                for i in range(n):
                    if self.joined[i] > number:
                        parts[i] = (i, 0, -1, 0, handicap, None)
            self.rounds.append(list(parts.values()))

    def _units(self, rule) -> tuple[int, int, int]:
        """(own, opponent, fixed) of an amount's rule in units, its halvings applied (exact)."""
        unit, halved = self.unit, 1 << rule.halvings
        return (
            int(rule.own * unit) // halved,
            int(rule.opponent * unit) // halved,
            int(rule.fixed * unit) // halved,
        )

    def _fixed_units(self, points: Fraction) -> int:
        return int(points * self.unit)

    def _values_for(self, size: int) -> list[int]:
        """The value of every 0-based position of a ranking of `size` players (and one more)."""
        top = self.settings.top_value
        if isinstance(top, int):
            size = len(self.ids)  # the same for every size
        values = self._values_by_size.get(size)
        if values is None:
            values = [value_at(position, self.settings, size) for position in range(1, size + 2)]
            self._values_by_size[size] = values
        return values

    def _withdrawn_for(self, k: int) -> frozenset[int]:
        """The players who have no place in ranking k."""
        return frozenset(
            i
            for i, after in enumerate(self.withdrawn_after)
            if after is not None and (after == 0 or after < k)
        )

    def _items(self, r: int, withdrawn: frozenset[int]) -> list[tuple]:
        """Round r's items, with the games against withdrawn players scored as
        `withdrawn_opponent_fraction` says, and the withdrawn players' own left out."""
        items = self.rounds[r]
        if not withdrawn:
            return items
        settings, kept = self.settings, []
        fraction = settings.withdrawn_opponent_fraction
        for item in items:
            i, _own, opponent, _weight, _fixed, outcome = item
            if i in withdrawn:
                continue
            if opponent in withdrawn:
                if fraction is None:  # as an unexcused absence of that round
                    units = self._units(amount(Outcome.UNEXCUSED, settings))
                else:  # the own value's share: fraction × the game's share of the result
                    played = amount(outcome, settings)
                    units = self._units(played._replace(own=fraction * played.opponent, opponent=0))
                item = (i, units[0], -1, 0, units[2], outcome)
            kept.append(item)
        return kept

    def _start_structures(self) -> None:
        n = len(self.ids)
        self.own_weight = [self.own_base] * n  # the own value once (or not), plus round weights
        self.base = list(self.start)  # start points and fixed points so far
        # Σ weight × value of the opponent over the rounds so far, with the values `current`
        self.opponent_part = [0] * n
        self.current = [0] * n
        # o: {i: weight}, the weight of o's value in i's total (two meetings: their sum)
        self.met_by: list[dict[int, int]] = [{} for _ in range(n)]
        # Per player, one term per round: its points are `factor × value of target`. A round
        # that earns more than that (a share of both values, fixed points) adds the rest in
        # `extra`: {round index: (own weight, fixed units)}.
        self.factors: list[list[int]] = [[] for _ in range(n)]
        self.targets: list[list[int]] = [[] for _ in range(n)]
        self.extra: list[dict[int, tuple[int, int]]] = [{} for _ in range(n)]
        # Per player, the points and values of the last ranking built with points: a player
        # whose value and opponents' values did not change keeps them and adds the new round.
        self.last_points: list[tuple[int, ...] | None] = [None] * n
        self.last_values = [0] * n
        self.kept_terms: tuple | None = None  # `_totals_afresh`'s (values, terms)
        self.start_values: list[int] | None = None  # `_value_with_start`
        self.start_part = [0] * n

    def _start_order(self, k: int, withdrawn: frozenset[int]) -> list[int]:
        """The players of ranking k in the order of the players list (ranking 0's order)."""
        return [
            i
            for i in range(len(self.ids))
            if (self.handicap or self.joined[i] <= k + 1) and i not in withdrawn
        ]

    def _sorted(self, valuation: list[int], totals: list[int]) -> list[int]:
        """By total, highest first; equal totals keep the valuation's order, or with `tiebreak:
        ranking0` the players list's."""
        if self.by_start_order:
            valuation = sorted(valuation)
        return sorted(valuation, key=totals.__getitem__, reverse=True)

    def rankings(self, last_only: bool = False, since: int = 0) -> list[Ranking]:
        settings = self.settings
        unit, start = self.unit, self.start
        self._start_structures()
        withdrawn = self._withdrawn_for(0)
        order = self._start_order(0, withdrawn)
        self.values = values = self._values_for(len(order))
        totals = [0] * len(self.ids)
        for i, value in zip(order, values, strict=False):
            totals[i] = (value * unit if settings.ranking0_totals == "own_value" else 0) + start[i]
        last = len(self.rounds)
        result = []
        frozen = settings.revaluation == "frozen"
        if frozen:
            self.frozen_points: list[list[int]] = [[] for _ in self.ids]
            self.frozen_sum = list(start)
        self.last_order = order
        if (not last_only or last == 0) and since == 0:
            result.append(self._ranking(0, order, totals, order, self._values_of(order), 1, False))
        from_start = (
            settings.revaluation == "fixed_point" and settings.fixed_point_start == "ranking0"
        )
        average = settings.on_cycle == "average"

        for k in range(1, last + 1):
            now_withdrawn = self._withdrawn_for(k)
            if now_withdrawn != withdrawn:
                withdrawn = now_withdrawn
                order = [i for i in order if i not in withdrawn]
                self._replay(k - 1, withdrawn)
            if frozen:
                self._freeze_round(k - 1, withdrawn)
            else:
                self._add_round(k - 1, withdrawn)
            if from_start:
                valuation = self._start_order(k, withdrawn)
            else:
                valuation = self._with_newcomers(order, totals, k + 1, withdrawn)
            self.values = self._values_for(len(valuation))
            if from_start:
                self._value_with_start(valuation)
            if frozen:
                order, totals, valuation, passes = self._frozen_ranking(valuation)
                oscillation = False
                values_now = self._values_of(valuation)
            else:
                full = self.revalues_fully(k)
                seen = {tuple(valuation)}
                passes = 0
                oscillation = False
                before = None  # the valuation and totals of the pass before
                while True:
                    if passes == 0 and from_start:  # valued with the start order, kept apart
                        totals = self._start_totals()
                    else:
                        totals = self._totals(valuation)
                    order = self._sorted(valuation, totals)
                    passes += 1
                    if not full or order == valuation:
                        break
                    if average and before is not None and order == before[0]:
                        totals = self._mean(before[1], totals)
                        order = self._sorted(valuation, totals)
                        oscillation = True
                        break
                    if tuple(order) in seen or passes >= settings.max_passes:
                        oscillation = True
                        break
                    seen.add(tuple(order))
                    before = (valuation, totals)
                    valuation = order
                if passes == 1 and from_start:  # the values in hand are still another's
                    self._totals(valuation)
                values_now = self.current
            if (not last_only or k == last) and k >= since:
                result.append(
                    self._ranking(k, order, totals, valuation, values_now, passes, oscillation)
                )
        return result

    # -- the first pass of `fixed_point_start: ranking0`, valued with the start order ---------
    # Every ranking's first pass takes the start order's values, far from the values in hand
    # (the last ranking's): its opponent parts are kept apart, `start_part`, and brought up to
    # date with each round, so that the passes move only between orders close to each other.

    def _value_with_start(self, start: list[int]) -> None:
        """Keep `start_part` valued with the values of this start order."""
        values = self._values_of(start)
        if values != self.start_values:
            self.start_values = values
            self.start_part = [self._part_with(i, values) for i in range(len(self.ids))]

    def _part_with(self, i: int, values: list[int]) -> int:
        """Player i's opponents' part of the total with these values."""
        return sum(
            factor * values[target]
            for factor, target in zip(self.factors[i], self.targets[i], strict=True)
            if target != i
        )

    def _start_totals(self) -> list[int]:
        return [
            value * own + base + part
            for value, own, base, part in zip(
                self.start_values, self.own_weight, self.base, self.start_part, strict=True
            )
        ]

    def _mean(self, first: list[int], second: list[int]) -> list[int]:
        """The mean of two passes' totals (exact: the unit was doubled for it)."""
        return [(a + b) // 2 for a, b in zip(first, second, strict=True)]

    def _replay(self, rounds: int, withdrawn: frozenset[int]) -> None:
        """The structures built anew from the first `rounds` rounds, as valued with these
        players withdrawn (a player's withdrawal changes how their opponents' games count)."""
        self._start_structures()
        if self.settings.revaluation == "frozen":
            self.frozen_points = [[] for _ in self.ids]
            self.frozen_sum = list(self.start)
            for r in range(rounds):
                self._freeze_round(r, withdrawn, self.frozen_values[r])
            return
        for r in range(rounds):
            self._add_round(r, withdrawn)

    def _add_round(self, r: int, withdrawn: frozenset[int] = frozenset()) -> None:
        self.kept_terms = None  # a round more: the kept terms are one short
        own_weight, part, current = self.own_weight, self.opponent_part, self.current
        base, factors, targets = self.base, self.factors, self.targets
        start_values = self.start_values
        took_part = set()
        for i, own, opponent, weight, fixed, _outcome in self._items(r, withdrawn):
            took_part.add(i)
            own_weight[i] += own
            if fixed:
                base[i] += fixed
            if weight:
                met = self.met_by[opponent]
                met[i] = met.get(i, 0) + weight
                part[i] += weight * current[opponent]
                if start_values is not None:
                    self.start_part[i] += weight * start_values[opponent]
                factors[i].append(weight)
                targets[i].append(opponent)
                if own or fixed:
                    self.extra[i][r] = (own, fixed)
            else:
                factors[i].append(own)
                targets[i].append(i)
                if fixed:
                    self.extra[i][r] = (0, fixed)
        for i in range(len(self.ids)):
            if i not in took_part:
                factors[i].append(0)
                targets[i].append(i)

    # -- frozen valuation: each round valued once, with the ranking before it ------------------

    def _freeze_round(
        self, r: int, withdrawn: frozenset[int], values: list[int] | None = None
    ) -> None:
        """Round r's points, valued with the values of the ranking before it, kept for good."""
        if values is None:
            values = self._values_of(self.last_order)
            self.frozen_values = [*getattr(self, "frozen_values", [])[:r], values]
        points = [0] * len(self.ids)
        for item in self._items(r, withdrawn):
            points[item[0]] = self._item_units(item, values)
        for i, earned in enumerate(points):
            self.frozen_points[i].append(earned)
            self.frozen_sum[i] += earned

    def _frozen_ranking(self, valuation: list[int]):
        """Ranking by the frozen points; with the own value, that of the position they give,
        and sorted once more with it added."""
        totals = list(self.frozen_sum)
        order = self._sorted(valuation, totals)
        passes = 1
        if self.settings.own_value:
            values = self._values_of(order)
            totals = [
                total + value * self.unit for total, value in zip(totals, values, strict=True)
            ]
            valuation, order = order, self._sorted(order, totals)
            passes = 2
        self.last_order = order
        return order, totals, valuation, passes

    def _item_units(self, item: tuple, values: list[int]) -> int:
        i, own, opponent, weight, fixed, _outcome = item
        return own * values[i] + (weight * values[opponent] if weight else 0) + fixed

    def _values_of(self, valuation: list[int]) -> list[int]:
        """The value of every player in this valuation (0 for those not in it)."""
        by_player = [0] * len(self.ids)
        for i, value in zip(valuation, self.values, strict=False):
            by_player[i] = value
        return by_player

    def _with_newcomers(
        self,
        order: list[int],
        totals: list[int],
        joining_round: int,
        withdrawn: frozenset[int] = frozenset(),
    ) -> list[int]:
        """The valuation ranking with the players joining in `joining_round` inserted (rule 5)."""
        newcomers = [
            i
            for i in range(len(self.ids))
            if self.joined[i] == joining_round and i not in withdrawn
        ]
        if not newcomers or joining_round == 1 or self.handicap:
            return list(order)
        unit = self.unit
        values = [value * unit for value in self._values_for(len(order) + len(newcomers))]
        return with_newcomers(order, totals, values, [(i, self.start[i]) for i in newcomers])

    def _totals(self, valuation: list[int]) -> list[int]:
        """Every player's total with the values of this valuation (indexed by player)."""
        new = self._values_of(valuation)
        current, part, met_by = self.current, self.opponent_part, self.met_by
        changed = [
            o for o, now, before in zip(range(len(new)), new, current, strict=True) if now != before
        ]
        if len(changed) * SCRATCH > len(new):
            return self._totals_afresh(new)
        for o in changed:
            delta = new[o] - current[o]
            for i, weight in met_by[o].items():
                part[i] += weight * delta
        self.current, self.kept_terms = new, None
        return [
            value * own + base + opponents
            for value, own, base, opponents in zip(
                new, self.own_weight, self.base, part, strict=True
            )
        ]

    def _totals_afresh(self, new: list[int]) -> list[int]:
        """`_totals` when most values change: every player's points summed again from their
        rounds' terms (C-level maps, some ten times as fast per term as the updates), and the
        opponents' parts set to agree."""
        own_base, own_weight, base = self.own_base, self.own_weight, self.base
        part = self.opponent_part
        # Valued once a ranking (cascade), the terms are the ranking's points too: kept.
        keep = self.with_points and self.settings.revaluation == "cascade"
        totals, kept = [], []
        for i, value in enumerate(new):
            if keep:
                kept.append(self._terms(i, new))
                earned = sum(kept[-1])
            else:
                earned = self._terms_sum(i, new)
            if self.extra[i]:  # a share of the own value beside the opponent's
                earned += value * sum(own for own, _fixed in self.extra[i].values())
            total = value * own_base + base[i] + earned
            part[i] = total - value * own_weight[i] - base[i]
            totals.append(total)
        self.current = new
        self.kept_terms = (new, kept) if keep else None
        return totals

    def _terms_sum(self, i: int, values: list[int]) -> int:
        """Σ factor × value of target over player i's rounds."""
        return sum(map(mul, self.factors[i], map(values.__getitem__, self.targets[i])))

    def _terms(self, i: int, values: list[int]) -> tuple[int, ...]:
        """Factor × value of target of each of player i's rounds."""
        return tuple(map(mul, self.factors[i], map(values.__getitem__, self.targets[i])))

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
            kept, self.kept_terms = self.kept_terms, None  # `_totals_afresh`'s, used once
            terms = kept[1] if kept is not None and kept[0] == values else None
            # With those terms every player's points are made already: none to keep.
            changed = range(len(ids)) if terms else self._changed_points(values)
            last_points, extra = self.last_points, self.extra
            factors, targets = self.factors, self.targets
            r = k - 1  # the new round's index
            if self.settings.revaluation == "frozen":
                changed, last_points = range(len(ids)), [None] * len(ids)
            for pos, i in enumerate(order):
                before = last_points[i]
                if before is None or i in changed or len(before) != r or extra[i]:
                    points = self._points(i, values, terms[i] if terms else None)
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
                changed.update(met_by[o])
        return changed

    def _points(self, i: int, values: list[int], terms: tuple | None = None) -> tuple[int, ...]:
        """Player i's points of every round so far with these values (`terms`: `_terms`)."""
        if self.settings.revaluation == "frozen":
            return tuple(self.frozen_points[i])
        points = terms if terms is not None else self._terms(i, values)
        if self.extra[i]:
            with_own = list(points)
            for r, (own, fixed) in self.extra[i].items():
                with_own[r] += own * values[i] + fixed
            points = tuple(with_own)
        return points


# `_totals` sums afresh when more than one player in SCRATCH changes value.
SCRATCH = 2


def _calculator(season: Season, with_points: bool) -> _Calculator:
    if season.settings.rounding == "half_per_item":
        from .rounded import RoundedCalculator  # (it builds on `_Calculator`)

        return RoundedCalculator(season, with_points)
    return _Calculator(season, with_points)
