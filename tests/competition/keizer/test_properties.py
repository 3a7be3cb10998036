"""Invariants of rankings and pairings over generated seasons (hypothesis)."""

from __future__ import annotations

from collections import Counter

import networkx as nx
import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st

from competition.keizer.pairing import pair_next_round
from competition.keizer.ranking import compute_rankings
from competition.keizer.season import Result
from tests.hypothesis_profiles import examples

from .reference import reference_rankings, sort_by, totals_for, value
from .strategies import seasons

relaxed = settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@relaxed
@given(seasons())
def test_rankings_agree_with_the_naive_reading_of_the_rules(season):
    engine = compute_rankings(season)
    reference = reference_rankings(season)
    assert len(engine) == len(reference) == len(season.rounds) + 1
    for ranking, expected in zip(engine, reference, strict=True):
        assert list(ranking.order) == expected.order
        assert list(ranking.valuation) == expected.valuation
        assert ranking.oscillation_stop == expected.oscillation_stop
        for standing in ranking.standings:
            assert standing.total == expected.totals[standing.player_id]
            assert list(standing.points) == expected.points[standing.player_id]
            assert standing.value == value(standing.rank, season)


@relaxed
@given(seasons())
def test_every_ranking_is_a_permutation_of_the_joined_players(season):
    for k, ranking in enumerate(compute_rankings(season)):
        joined = {p.id for p in season.players if p.joined_round <= k + 1}
        assert sorted(ranking.order) == sorted(joined)
        assert [s.rank for s in ranking.standings] == list(range(1, len(joined) + 1))


@relaxed
@given(seasons())
def test_each_total_is_own_value_plus_start_points_plus_the_listed_points(season):
    start = {p.id: p.start_points for p in season.players}
    for ranking in compute_rankings(season):
        valuation_value = {pid: value(i, season) for i, pid in enumerate(ranking.valuation, 1)}
        for standing in ranking.standings:
            assert len(standing.points) == ranking.round
            assert standing.total == (
                valuation_value[standing.player_id]
                + start[standing.player_id]
                + sum(standing.points)
            )


@relaxed
@given(seasons(), st.randoms(use_true_random=False))
def test_results_do_not_depend_on_the_order_of_games_or_absences(season, random):
    shuffled_rounds = []
    for round_ in season.rounds:
        games = list(round_.games)
        random.shuffle(games)
        absent = list(round_.absent.items())
        random.shuffle(absent)
        shuffled_rounds.append(round_._replace(games=tuple(games), absent=dict(absent)))
    shuffled = season._replace(rounds=tuple(shuffled_rounds))
    assert compute_rankings(shuffled) == compute_rankings(season)


@relaxed
@given(seasons())
def test_the_same_input_gives_the_same_output(season):
    assert compute_rankings(season) == compute_rankings(season)
    assert pair_next_round(season) == pair_next_round(season)


@relaxed
@given(seasons(), st.data())
def test_a_ranking_does_not_change_when_later_rounds_are_entered(season, data):
    cut = data.draw(st.integers(0, len(season.rounds)))
    earlier = season._replace(rounds=season.rounds[:cut])
    assert compute_rankings(earlier) == compute_rankings(season)[: cut + 1]


@relaxed
@given(seasons(max_rounds=10))
def test_a_fully_revalued_ranking_is_a_fixed_point_unless_the_oscillation_stop_was_taken(season):
    full_from = season.settings.full_revaluation_from_round
    for ranking in compute_rankings(season)[1:]:
        if full_from is None or ranking.round < full_from or ranking.oscillation_stop:
            continue
        order = list(ranking.order)
        totals, _ = totals_for(order, ranking.round, season)
        assert sort_by(totals, order) == order
        assert ranking.valuation == ranking.order


# -- pairing ----------------------------------------------------------------------------------


def meetings_in_period(season):
    """{frozenset(a, b): [rounds]} of games played (not forfeited) in the period being paired."""
    number = len(season.rounds) + 1
    period = season.settings.period_of(number)
    met: dict[frozenset, list[int]] = {}
    for r, round_ in enumerate(season.rounds, start=1):
        if season.settings.period_of(r) == period:
            for game in round_.games:
                if not game.result.value.endswith("F"):
                    met.setdefault(frozenset((game.white, game.black)), []).append(r)
    return met


def exhaustive_pairing(season, order):
    """Try every pairing in the order of the 1–2, 3–4 rule; the first with fewest repeats wins."""
    met = meetings_in_period(season)
    absent = season.pair.absent if season.pair else {}
    present = [p for p in order if p not in absent]
    rank = {p: i for i, p in enumerate(present)}

    def all_pairings(players):
        if not players:
            yield []
            return
        top, rest = players[0], players[1:]
        fresh = [q for q in rest if frozenset((top, q)) not in met]
        again = sorted(
            (q for q in rest if frozenset((top, q)) in met),
            key=lambda q: (max(met[frozenset((top, q))]), rank[q]),
        )
        for partner in fresh + again:
            remaining = [p for p in rest if p != partner]
            for tail in all_pairings(remaining):
                yield [(top, partner), *tail]

    def repeats(pairing):
        return sum(frozenset(pair) in met for pair in pairing)

    def fewest(players):
        return min(repeats(pairing) for pairing in all_pairings(players))

    bye = None
    if len(present) % 2:
        byes = Counter(round_.bye for round_ in season.rounds)
        bye_order = sorted(present, key=lambda p: (byes[p], -rank[p]))
        costs = {b: fewest([p for p in present if p != b]) for b in bye_order}
        bye = next(b for b in bye_order if costs[b] == min(costs.values()))
        present = [p for p in present if p != bye]
    target = fewest(present)
    return next(p for p in all_pairings(present) if repeats(p) == target), bye


def pairs_by_rank(pairing, order):
    rank = {p: i for i, p in enumerate(order)}
    return [tuple(sorted((pair.white, pair.black), key=rank.get)) for pair in pairing.pairs]


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seasons(max_players=12, max_rounds=6, pair=True))
def test_the_pairing_equals_an_exhaustive_lexicographic_search(season):
    ranking = compute_rankings(season)[-1]
    pairing = pair_next_round(season, ranking)
    expected_pairs, expected_bye = exhaustive_pairing(season, ranking.order)
    assert pairs_by_rank(pairing, ranking.order) == expected_pairs
    assert pairing.bye == expected_bye
    met = meetings_in_period(season)
    assert len(pairing.repeats) == sum(frozenset(pair) in met for pair in expected_pairs)


@relaxed
@given(seasons(max_players=40, max_rounds=6, pair=True))
def test_every_present_player_is_seated_once_with_fewest_repeats(season):
    ranking = compute_rankings(season)[-1]
    pairing = pair_next_round(season, ranking)
    absent = season.pair.absent if season.pair else {}
    present = [p for p in ranking.order if p not in absent]
    seated = [p for pair in pairing.pairs for p in (pair.white, pair.black)]
    seated += [pairing.bye] if pairing.bye else []
    assert sorted(seated) == sorted(present)
    assert (pairing.bye is not None) == (len(present) % 2 == 1)
    met = meetings_in_period(season)
    allowed = nx.Graph()
    allowed.add_nodes_from(present)
    allowed.add_edges_from(
        (a, b)
        for i, a in enumerate(present)
        for b in present[i + 1 :]
        if frozenset((a, b)) not in met
    )
    most_fresh_pairs = len(nx.max_weight_matching(allowed, maxcardinality=True))
    assert len(pairing.repeats) == len(present) // 2 - most_fresh_pairs
    assert {frozenset((r.first, r.second)) for r in pairing.repeats} == {
        frozenset((p.white, p.black)) for p in pairing.pairs if frozenset((p.white, p.black)) in met
    }


@pytest.mark.parametrize("result", list(Result))
def test_strategies_produce_every_result(result):
    """Guard against a strategy that silently stopped generating the interesting cases."""
    season = find(
        seasons(max_rounds=4),
        lambda s: any(g.result is result for r in s.rounds for g in r.games),
        settings=settings(max_examples=2000, deadline=None, database=None, phases=[Phase.generate]),
    )
    assert any(g.result is result for r in season.rounds for g in r.games)


@relaxed
@given(seasons())
def test_rankings_without_points_have_the_same_order_values_and_totals(season):
    full, light = compute_rankings(season), compute_rankings(season, with_points=False)
    for ranking, lighter in zip(full, light, strict=True):
        assert [(s.player_id, s.value, s.total) for s in ranking.standings] == [
            (s.player_id, s.value, s.total) for s in lighter.standings
        ]
        assert lighter.valuation == ranking.valuation
        assert all(s.points == () for s in lighter.standings)
