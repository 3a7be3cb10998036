"""The variants' settings one by one (`keizer-variants.md`): how the season file reads them,
and what each changes, on seasons small enough to work out by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from competition.keizer import season_file, settings_file
from competition.keizer.pairing import pair_next_round
from competition.keizer.ranking import compute_rankings
from competition.keizer.season import Absence, Settings
from competition.keizer.season_file import SeasonFileError
from competition.keizer.values import top_value


def season(settings: dict, players: list, rounds: list) -> dict:
    return {"settings": settings, "players": players, "rounds": rounds}


def standings(document: dict, k: int = -1) -> dict[str, tuple]:
    ranking = compute_rankings(season_file.from_document(document))[k]
    return {s.player_id: (s.rank, s.value, s.total, s.points) for s in ranking.standings}


PLAYERS = [{"id": name} for name in "abcd"]


# -- the file ------------------------------------------------------------------------------


def test_a_preset_gives_its_settings_and_the_keys_beside_it_replace_them():
    read = season_file.from_document(
        {"settings": {"profile": "keizerforclubs", "bye_fraction": "1/4"}, "players": []}
    ).settings
    assert read.profile == "keizerforclubs"
    assert read.top_value == "ratio:3" and read.revaluation == "cascade"
    assert read.bye_fraction == Fraction(1, 4)  # beside the preset: replaces its 1/2
    assert read.excused_fraction == Fraction(7, 20)
    assert read.absence_share("unexcused") == Fraction(1, 20)


def test_an_entry_of_a_table_replaces_the_presets_entry_only():
    read = season_file.from_document(
        {
            "settings": {"profile": "sharly-chess", "absence_fractions": {"rest": "1/2"}},
            "players": [],
        }
    ).settings
    assert read.absence_share("rest") == Fraction(1, 2)
    assert read.absence_share("half_bye") == Fraction(1, 3)  # the preset's, kept


def test_a_dsc_file_writes_only_dscs_eight_settings_and_a_variant_reads_back_the_same():
    assert list(settings_file.settings_document(Settings())) == [
        "top_value",
        "step",
        "rounds_per_period",
        "full_revaluation_from_round",
        "bye_fraction",
        "excused_fraction",
        "team_fraction",
        "auto_absence_fraction",
    ]
    for profile in ("keizerforclubs", "sharly-chess", "chesspairing"):
        document = {
            "settings": {"profile": profile, "fixed_points": {"bye": 5}, "own_value": False},
            "players": [{"id": "a", "withdrawn_after_round": 0}],
            "rounds": [{"games": [], "absent": {"a": "excused"}}],
        }
        first = season_file.from_document(document)
        assert season_file.loads(season_file.dumps(first)) == first


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"profile": "swiss"}, "settings.profile: unknown profile 'swiss'"),
        ({"own_value": "no"}, "settings.own_value: must be true or false"),
        ({"revaluation": "twice"}, "settings.revaluation: unknown value 'twice'"),
        ({"top_value": "2N"}, "settings.top_value: unknown rule '2N'"),
        ({"top_value": "ratio:1"}, "settings.top_value: the ratio of first to last must be"),
        ({"game_shares": {"win": "-1"}}, "settings.game_shares.win: must not be negative"),
        ({"game_shares": {"lose": 0}}, "settings.game_shares.lose: unknown key 'lose'"),
        ({"absence_fractions": {"Ziek": "1/2"}}, "a reason is a lower-case word"),
        ({"fixed_points": {"ill": 3}}, "settings.fixed_points.ill: unknown reason 'ill'"),
        ({"absence_limit_reasons": ["ill"]}, "settings.absence_limit_reasons[0]: unknown"),
        ({"absence_limit": -1}, "settings.absence_limit: must be a whole number from 0"),
        (
            {"excused_fraction": "1/3", "absence_fractions": {"excused": "1/2"}},
            "settings.excused_fraction: differs from settings.absence_fractions.excused",
        ),
    ],
)
def test_a_bad_setting_is_refused_by_name(settings, message):
    with pytest.raises(SeasonFileError, match=message.replace("[", r"\[").replace("]", r"\]")):
        season_file.from_document({"settings": settings, "players": []})


def test_the_older_key_and_the_table_may_say_the_same():
    read = season_file.from_document(
        {"settings": {"excused_fraction": "1/3", "absence_fractions": {"excused": "2/6"}}}
        | {"players": []}
    ).settings
    assert read == Settings()


def test_a_round_may_name_a_reason_of_the_clubs_own_only_when_the_settings_know_it():
    players = [{"id": "a"}, {"id": "b"}]
    rounds = [{"games": [], "absent": {"a": "ziek"}}]
    with pytest.raises(SeasonFileError, match=r"rounds\[0\]\.absent\.a: unknown reason 'ziek'"):
        season_file.from_document(season({}, players, rounds))
    read = season_file.from_document(
        season({"absence_fractions": {"ziek": "1/2"}}, players, rounds)
    )
    assert read.rounds[0].absent == {"a": "ziek"}
    assert season_file.from_document(
        season({}, players, [{"games": [], "absent": {"a": "team"}}])
    ).rounds[0].absent == {"a": Absence.TEAM}


def test_a_withdrawn_player_plays_no_more():
    players = [{"id": "a"}, {"id": "b", "withdrawn_after_round": 1}, {"id": "c"}]
    game = {"white": "a", "black": "b", "result": "1-0"}
    with pytest.raises(
        SeasonFileError, match=r"rounds\[1\]\.games\[0\]\.black: player 'b' withdrew after round 1"
    ):
        season_file.from_document(season({}, players, [{"games": [game]}, {"games": [game]}]))


# -- what each setting changes, by hand ------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "size", "top"),
    [
        ("N", 10, 10),
        ("N-1+(N-1)//2", 10, 13),  # 9 + 4
        ("N-1+(N-1)//2", 2, 1),
        ("ratio:3", 10, 14),  # 9 × 3/2 = 13.5: to the even 14
        ("ratio:3", 8, 10),  # 7 × 3/2 = 10.5: to the even 10
        ("ratio:3", 9, 12),
        ("ratio:5/2", 7, 10),  # 6 × (5/2) / (3/2) = 10
    ],
)
def test_a_top_value_that_follows_the_field(rule, size, top):
    assert top_value(Settings(top_value=rule), size) == top


def test_ratio_three_makes_the_first_worth_three_times_the_last():
    # 9 players: values 12 down to 4.
    result = standings(season({"top_value": "ratio:3"}, [{"id": f"p{i}"} for i in range(9)], []))
    assert [result[f"p{i}"][1] for i in range(9)] == [12, 11, 10, 9, 8, 7, 6, 5, 4]


def test_without_the_own_value_a_total_is_the_rounds_points_alone():
    # Ranking 0: a 50, b 49, c 48, d 47. a beats b: 49; c draws d: c 47/2, d 24.
    games = [{"white": "a", "black": "b", "result": "1-0"}]
    games.append({"white": "c", "black": "d", "result": "1/2-1/2"})
    result = standings(season({"own_value": False}, PLAYERS, [{"games": games}]))
    assert {p: result[p][2] for p in "abcd"} == {"a": 49, "b": 0, "c": Fraction(47, 2), "d": 24}
    assert [result[p][0] for p in "adcb"] == [1, 2, 3, 4]


def test_a_loss_and_a_forfeit_earn_their_shares_of_the_opponents_value():
    games = [{"white": "a", "black": "b", "result": "1-0"}]
    games.append({"white": "c", "black": "d", "result": "0-1F"})
    settings = {"game_shares": {"loss": "1/4"}, "forfeit_shares": {"win": "1/2", "loss": "1/10"}}
    result = standings(season(settings, PLAYERS, [{"games": games}]))
    assert result["a"][3] == (49,)
    assert result["b"][3] == (Fraction(50, 4),)  # a quarter of a's 50
    assert result["c"][3] == (Fraction(47, 10),)  # a tenth of d's 47
    assert result["d"][3] == (24,)  # half of c's 48


def test_fixed_points_replace_the_share():
    settings = {"fixed_points": {"bye": 20, "excused": "5/2"}}
    rounds = [{"games": [{"white": "a", "black": "b", "result": "1-0"}], "bye": "c"}]
    rounds[0]["absent"] = {"d": "excused"}
    result = standings(season(settings, PLAYERS, rounds))
    assert result["c"][3] == (20,)
    assert result["d"][3] == (Fraction(5, 2),)


def absent_d(*reasons: str) -> list[dict]:
    """Rounds in which no one plays and d is away: without the own value d alone scores, so d
    is first (worth 50) from ranking 1 on, and every round is valued with 50."""
    return [{"games": [], "absent": {"d": reason}} for reason in reasons]


def test_beyond_the_limit_an_absence_scores_nothing_and_team_matches_do_not_count():
    # Counted: excused (1), excused (2), excused (3: beyond the limit of 2); team is not.
    rounds = absent_d("excused", "team", "excused", "excused")
    result = standings(season({"absence_limit": 2, "own_value": False}, PLAYERS, rounds))
    assert result["d"][3] == (Fraction(50, 3), Fraction(100, 3), Fraction(50, 3), 0)


def test_the_limit_counts_the_reasons_it_is_given():
    rounds = absent_d("team", "team", "excused")
    settings = {"absence_limit": 1, "absence_limit_reasons": ["team"], "own_value": False}
    result = standings(season(settings, PLAYERS, rounds))
    assert result["d"][3] == (Fraction(100, 3), 0, Fraction(50, 3))


def test_decay_halves_each_next_counted_absence():
    rounds = absent_d("excused", "team", "excused", "excused")
    result = standings(season({"absence_decay": True, "own_value": False}, PLAYERS, rounds))
    third = Fraction(50, 3)
    assert result["d"][3] == (third, 2 * third, third / 2, third / 4)


def test_decay_of_rounded_amounts_counts_halves_and_rounds_down():
    # 50/3 = 16.67 -> 16.5, that is 33 halves: then 16 halves (8), then 8 halves (4).
    rounds = absent_d("excused", "excused", "excused")
    settings = {"absence_decay": True, "own_value": False, "rounding": "half_per_item"}
    result = standings(season(settings, PLAYERS, rounds))
    assert result["d"][3] == (Fraction(33, 2), 8, 4)


def test_rounding_each_amount_to_a_half():
    # Ranking 0: a 50, b 49, c 48, d 47. b's bye: 49/3 = 16.33 -> 16.5; c excused: 48/3 = 16;
    # a draws d: half of 47 = 23.5 stays; d: half of 50 = 25.
    rounds = [
        {
            "games": [{"white": "a", "black": "d", "result": "1/2-1/2"}],
            "bye": "b",
            "absent": {"c": "excused"},
        }
    ]
    settings = {"rounding": "half_per_item", "bye_fraction": "1/3"}
    result = standings(season(settings, PLAYERS, rounds))
    assert result["b"][3] == (Fraction(33, 2),)
    assert result["c"][3] == (16,)
    assert result["a"][3] == (Fraction(47, 2),)
    assert result["d"][3] == (25,)


def test_a_frozen_round_keeps_the_points_of_the_ranking_before_it():
    # Ranking 0: a 50, b 49, c 48. Round 1: c beats a, valued with ranking 0: c 50.
    # Ranking 1 by points: c 50, a 0, b 0 (a before b: the valuation's order).
    # Round 2: b beats c, valued with ranking 1 (c 50, a 49, b 48): b 50; c keeps 50.
    rounds = [
        {"games": [{"white": "c", "black": "a", "result": "1-0"}]},
        {"games": [{"white": "b", "black": "c", "result": "1-0"}]},
    ]
    players = [{"id": "a"}, {"id": "b"}, {"id": "c"}]
    document = season({"revaluation": "frozen", "own_value": False}, players, rounds)
    one = standings(document, 1)
    assert [one[p][0] for p in "cab"] == [1, 2, 3]
    two = standings(document, 2)
    assert two["b"][3] == (0, 50)
    assert two["c"][3] == (50, 0)
    assert two["c"][2] == two["b"][2] == 50
    assert [two[p][0] for p in "cba"] == [1, 2, 3]  # equal: ranking 1's order decides


def test_frozen_with_the_own_value_sorts_once_more():
    # By the points alone: c 50, a 0, b 0; the own values of those places: 50, 49, 48.
    rounds = [{"games": [{"white": "c", "black": "a", "result": "1-0"}]}]
    players = [{"id": "a"}, {"id": "b"}, {"id": "c"}]
    one = standings(season({"revaluation": "frozen"}, players, rounds), 1)
    assert (one["c"][2], one["a"][2], one["b"][2]) == (100, 49, 48)


def test_ranking_zero_may_show_no_totals():
    zero = standings(season({"ranking0_totals": "zero"}, PLAYERS, []), 0)
    assert [zero[p][2] for p in "abcd"] == [0, 0, 0, 0]
    assert [zero[p][1] for p in "abcd"] == [50, 49, 48, 47]


@pytest.mark.parametrize(("tiebreak", "order"), [("previous", "dabc"), ("ranking0", "abcd")])
def test_equal_totals_keep_the_previous_order_or_the_start_order(tiebreak, order):
    # Round 1: d beats e (46): ranking 1 is d, a, b, c, e. e withdraws after round 1, and d's
    # win then counts as an unexcused absence (0): in ranking 2 everyone has 0.
    players = [*PLAYERS, {"id": "e", "withdrawn_after_round": 1}]
    rounds = [{"games": [{"white": "d", "black": "e", "result": "1-0"}]}, {"games": []}]
    document = season({"own_value": False, "tiebreak": tiebreak}, players, rounds)
    assert [p for p, _ in sorted(standings(document, 1).items(), key=lambda x: x[1][0])] == list(
        "dabce"
    )
    two = standings(document, 2)
    assert sorted(two, key=lambda p: two[p][0]) == list(order)


def test_a_late_joiner_under_handicap_is_ranked_from_the_start_and_scores_the_handicap():
    # Ranking 0: a 50, b 49, c 48 (c joins in round 2). Round 1: a beats b (49), c scores 10.
    players = [{"id": "a"}, {"id": "b"}, {"id": "c", "joined_round": 2}]
    rounds = [{"games": [{"white": "a", "black": "b", "result": "1-0"}]}, {"games": []}]
    settings = {"late_join": "handicap", "late_join_handicap": 10, "own_value": False}
    document = season(settings, players, rounds)
    assert set(standings(document, 0)) == {"a", "b", "c"}
    one = standings(document, 1)
    assert one["c"][3] == (10,)
    assert (one["a"][2], one["c"][2], one["b"][2]) == (49, 10, 0)
    assert standings(document, 2)["c"][3] == (10, 0)


@pytest.mark.parametrize(("fraction", "points"), [(None, 0), ("3/4", Fraction(3 * 50, 4))])
def test_a_withdrawn_opponents_game_counts_as_the_setting_says(fraction, points):
    # Ranking 0: a 50, b 49, c 48. b beats c: 48, so ranking 1 is b, a, c. c withdraws after
    # round 1: ranking 2 holds b (50) and a (49), and b's win counts as an unexcused absence
    # (nothing), or as 3/4 of b's own value of 50.
    players = [{"id": "a"}, {"id": "b"}, {"id": "c", "withdrawn_after_round": 1}]
    rounds = [{"games": [{"white": "b", "black": "c", "result": "1-0"}]}, {"games": []}]
    settings = {"withdrawn_opponent_fraction": fraction, "own_value": False}
    document = season(settings, players, rounds)
    assert standings(document, 1)["b"][3] == (48,)
    after = standings(document, 2)
    assert set(after) == {"a", "b"}
    assert after["b"][3] == (points, 0)


@pytest.mark.parametrize(("gap", "again"), [(1, True), (2, False), (None, False)])
def test_a_repeat_gap_lets_two_players_meet_again_from_round_j_plus_the_gap(gap, again):
    # Four players; a-b and c-d met in round 1 and a and b stay on top. Round 2 pairs a-b
    # again only when the gap (sliding from round 1) has passed: 2 >= 1 + gap.
    rounds = [
        {
            "games": [
                {"white": "a", "black": "b", "result": "1/2-1/2"},
                {"white": "c", "black": "d", "result": "1/2-1/2"},
            ]
        }
    ]
    document = season({"repeat_gap": gap, "rounds_per_period": None}, PLAYERS, rounds)
    pairing = pair_next_round(season_file.from_document(document))
    met = {frozenset((pair.white, pair.black)) for pair in pairing.pairs}
    assert (frozenset("ab") in met) is again
    assert pairing.warnings == []
