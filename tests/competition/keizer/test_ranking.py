"""Rankings: ties, the value floor, newcomers, full re-valuation and its oscillation stop.

Every expected number below is worked out by hand in the comments.
"""

from fractions import Fraction

from competition.keizer import season_file
from competition.keizer.ranking import compute_rankings
from competition.keizer.values import value_at


def season(players, rounds, **settings):
    return season_file.from_document({"settings": settings, "players": players, "rounds": rounds})


def game(white, black, result):
    return {"white": white, "black": black, "result": result}


def table(ranking):
    return [(s.player_id, s.value, s.total) for s in ranking.standings]


def test_ties_keep_the_order_of_the_valuation_ranking():
    # a: 50 + 0; b: 49 + 1 start point + 0 -> both 50; a was above b, so a stays above b.
    players = [{"id": "a"}, {"id": "b", "start_points": 1}]
    rankings = compute_rankings(
        season(players, [{"games": [], "absent": {"a": "late", "b": "late"}}])
    )
    assert table(rankings[1]) == [("a", 50, 50), ("b", 49, 50)]
    swapped = [{"id": "b"}, {"id": "a", "start_points": 1}]
    rankings = compute_rankings(
        season(swapped, [{"games": [], "absent": {"a": "late", "b": "late"}}])
    )
    assert [s.player_id for s in rankings[1].standings] == ["b", "a"]


def test_values_never_drop_below_one():
    settings = season([{"id": "a"}], [], top_value=3).settings
    assert [value_at(position, settings) for position in range(1, 6)] == [3, 2, 1, 1, 1]
    ranking = compute_rankings(season([{"id": x} for x in "abcde"], [], top_value=3))[0]
    assert [s.value for s in ranking.standings] == [3, 2, 1, 1, 1]


def test_ranking_zero_keeps_the_list_order_and_adds_start_points():
    players = [{"id": "a"}, {"id": "b", "start_points": "5/2"}]
    ranking = compute_rankings(season(players, []))[0]
    assert table(ranking) == [("a", 50, 50), ("b", 49, Fraction(103, 2))]


def test_a_newcomer_is_inserted_where_value_plus_start_points_beats_the_total():
    # Ranking 1 (after a beat b, c excused): a 50+49 = 99, c 48+16 = 64, b 49+0 = 49.
    # n joins in round 3 with 20 start points: 50+20 = 70 > 99? no; 49+20 = 69 > 64 (c)? yes,
    # so n is second in the valuation for ranking 2: a 50, n 49, c 48, b 47.
    # Round 2: a draws c, b excused.  a = 50 + 47 + 24 = 121;  n = 49 + 20 = 69;
    # c = 48 + 16 + 25 = 89;  b = 47 + 0 + 47/3 = 188/3.
    players = [
        {"id": "a"},
        {"id": "b"},
        {"id": "c"},
        {"id": "n", "joined_round": 3, "start_points": 20},
    ]
    rounds = [
        {"games": [game("a", "b", "1-0")], "absent": {"c": "excused"}},
        {"games": [game("a", "c", "1/2-1/2")], "absent": {"b": "excused"}},
    ]
    rankings = compute_rankings(season(players, rounds))
    assert [s.player_id for s in rankings[1].standings] == ["a", "c", "b"]
    assert rankings[2].valuation == ("a", "n", "c", "b")
    assert table(rankings[2]) == [
        ("a", 50, 121),
        ("c", 49, 89),
        ("n", 48, 69),
        ("b", 47, Fraction(188, 3)),
    ]
    assert rankings[2].standings[2].points == (0, 0)


def test_newcomers_joining_together_are_inserted_one_after_another():
    # Both join in round 2, so they are inserted into ranking 0 (totals = values: a 50, b 49,
    # c 48) before ranking 1 is computed.
    players = [
        {"id": "a"},
        {"id": "b"},
        {"id": "c"},
        {"id": "n", "joined_round": 2, "start_points": 20},
        {"id": "m", "joined_round": 2, "start_points": 5},
    ]
    rounds = [{"games": [game("a", "b", "1-0")], "absent": {"c": "excused"}}]
    rankings = compute_rankings(season(players, rounds))
    assert [s.player_id for s in rankings[0].standings] == ["a", "b", "c"]
    # In ranking 0 the totals are the values (a 50, b 49, c 48): n (50+20) goes on top,
    # then m: 55 > 70 (n)? 54 > 50 (a)? yes -> second.
    assert rankings[1].valuation == ("n", "m", "a", "b", "c")


def test_full_revaluation_repeats_until_the_order_settles():
    # Round 1: c beats a, b excused; full re-valuation from round 1.
    # Pass 1 (a 50, b 49, c 48): a 50, b 49 + 49/3, c 48 + 50 = 98  ->  c, b, a.
    # Pass 2 (c 50, b 49, a 48): c 50 + 48 = 98, b 49 + 49/3, a 48  ->  c, b, a: settled.
    players = [{"id": "a"}, {"id": "b"}, {"id": "c"}]
    rounds = [{"games": [game("c", "a", "1-0")], "absent": {"b": "excused"}}]
    ranking = compute_rankings(season(players, rounds, full_revaluation_from_round=1))[1]
    assert table(ranking) == [("c", 50, 98), ("b", 49, Fraction(196, 3)), ("a", 48, 48)]
    assert ranking.passes == 2 and not ranking.oscillation_stop
    single = compute_rankings(season(players, rounds, full_revaluation_from_round=None))[1]
    assert single.passes == 1


def test_an_oscillating_revaluation_stops_at_the_first_repeated_order():
    # a and c drew, a won, then c won: whoever is ranked higher has the lower total.
    # Ranking 2 (single pass): a 50 + 24½ + 49 = 123½, c 49 + 25 + 0 = 74.
    # Ranking 3, pass 1 (a 50, c 49): a 50 + 24½ + 49 + 0 = 123½, c 49 + 25 + 0 + 50 = 124 -> c, a
    # pass 2 (c 50, a 49): c 50 + 24½ + 0 + 49 = 123½, a 49 + 25 + 50 + 0 = 124 -> a, c: repeated.
    players = [{"id": "a"}, {"id": "c"}]
    rounds = [
        {"games": [game("a", "c", "1/2-1/2")]},
        {"games": [game("c", "a", "0-1")]},
        {"games": [game("c", "a", "1-0")]},
    ]
    rankings = compute_rankings(season(players, rounds, full_revaluation_from_round=3))
    assert table(rankings[2]) == [("a", 50, Fraction(247, 2)), ("c", 49, 74)]
    ranking = rankings[3]
    assert ranking.oscillation_stop and ranking.passes == 2
    assert table(ranking) == [("a", 50, 124), ("c", 49, Fraction(247, 2))]
    assert ranking.standings[0].points == (25, 50, 0)
    assert ranking.valuation == ("c", "a")


def test_a_player_who_took_no_part_scores_zero_for_that_round():
    players = [{"id": "a"}, {"id": "b"}, {"id": "c"}]
    rankings = compute_rankings(season(players, [{"games": [game("a", "b", "0-1")]}]))
    c = rankings[1].standings[rankings[1].position_of("c") - 1]
    assert c.points == (0,) and c.total == 48
