"""Pairing: bye, repeats, forfeits, periods, colours and the polynomial guarantee."""

import pytest

from competition.keizer import matching, season_file
from competition.keizer.colours import ColourHistory, colours, recent_colours
from competition.keizer.pairing import lexicographic_pairing, pair_next_round
from competition.keizer.season import Game, Result


def season(players, rounds, absent=None, **settings):
    return season_file.from_document(
        {
            "settings": settings,
            "players": [{"id": p} for p in players],
            "rounds": rounds,
            "pair": {"absent": absent or {}},
        }
    )


def game(white, black, result="1/2-1/2"):
    return {"white": white, "black": black, "result": result}


def meetings(pairing):
    return [(p.white, p.black) for p in pairing.pairs]


def test_the_bye_goes_to_the_lowest_ranked_player_with_fewest_byes():
    # All drew in round 1 with the bye for e: the order stays a..e (ties keep the valuation).
    rounds = [{"games": [game("a", "b"), game("c", "d")], "bye": "e"}]
    pairing = pair_next_round(season("abcde", rounds, rounds_per_period=1))
    assert pairing.bye == "d"  # e had a bye already; d is the lowest of those with none


def test_the_bye_moves_up_when_the_others_could_only_be_paired_with_a_repeat():
    # Present: a, b, c. a and b met this period; with c out, a–b would be a repeat.
    rounds = [{"games": [game("a", "b")], "absent": {"c": "excused"}}]
    pairing = pair_next_round(season("abc", rounds))
    assert pairing.bye == "b"
    assert meetings(pairing) == [("c", "a")] or meetings(pairing) == [("a", "c")]
    assert pairing.warnings == []


def test_a_forced_repeat_is_paired_with_a_warning_naming_it():
    rounds = [{"games": [game("a", "b")]}]
    pairing = pair_next_round(season("ab", rounds))
    assert len(pairing.pairs) == 1
    assert pairing.warnings == ["repeat: a and b already met this period (round 1)"]


def test_repeats_go_to_the_least_recent_meetings_first():
    # Everyone met everyone in rounds 1–3 of a 4-round period: a's least recent opponent is c.
    rounds = [
        {"games": [game("a", "c"), game("b", "d")]},
        {"games": [game("a", "b"), game("c", "d")]},
        {"games": [game("a", "d"), game("b", "c")]},
    ]
    pairing = pair_next_round(season("abcd", rounds, rounds_per_period=4))
    pairs = {frozenset(pair) for pair in meetings(pairing)}
    assert pairs == {frozenset("ac"), frozenset("bd")}
    assert len(pairing.warnings) == 2


def test_a_forfeit_is_not_a_meeting():
    rounds = [{"games": [game("a", "b", "1-0F")]}]
    pairing = pair_next_round(season("ab", rounds))
    assert {frozenset(pair) for pair in meetings(pairing)} == {frozenset("ab")}
    assert pairing.warnings == []


def test_meetings_of_an_earlier_period_do_not_count():
    rounds = [{"games": [game("a", "b"), game("c", "d")]}]
    same_period = pair_next_round(season("abcd", rounds, rounds_per_period=2))
    next_period = pair_next_round(season("abcd", rounds, rounds_per_period=1))
    assert {frozenset(p) for p in meetings(same_period)} == {frozenset("ac"), frozenset("bd")}
    assert {frozenset(p) for p in meetings(next_period)} == {frozenset("ab"), frozenset("cd")}


def test_absent_players_are_not_paired_and_newcomers_are():
    document = {
        "players": [
            {"id": "a"},
            {"id": "b"},
            {"id": "c"},
            {"id": "n", "joined_round": 2},
            {"id": "later", "joined_round": 5},
        ],
        "rounds": [{"games": [game("a", "b")], "absent": {"c": "team"}}],
        "pair": {"absent": {"b": "excused"}},
    }
    pairing = pair_next_round(season_file.from_document(document))
    seated = {p for pair in meetings(pairing) for p in pair} | {pairing.bye}
    assert seated == {"a", "c", "n"}


@pytest.mark.parametrize(
    ("higher", "lower", "white"),
    [
        (ColourHistory(1, 0, "white"), ColourHistory(0, 1, "black"), "lower"),  # more blacks
        (ColourHistory(0, 2, "black"), ColourHistory(1, 1, "black"), "higher"),
        (ColourHistory(1, 1, "white"), ColourHistory(1, 1, "black"), "lower"),  # last black
        (ColourHistory(1, 1, "black"), ColourHistory(0, 0, None), "higher"),
        (ColourHistory(1, 1, "white"), ColourHistory(0, 0, None), "lower"),  # last white
        (ColourHistory(1, 1, "white"), ColourHistory(1, 1, "white"), "higher"),  # same: rank
        (ColourHistory(0, 0, None), ColourHistory(0, 0, None), "higher"),
    ],
)
def test_colours_follow_balance_then_last_game_then_rank(higher, lower, white):
    histories = {"higher": higher, "lower": lower}
    assert colours("higher", "lower", histories)[0] == white


def test_recent_colours_are_the_last_games_played_over_the_board_latest_last():
    played = [
        Game("a", "b", Result.DRAW),
        Game("b", "a", Result.WHITE_WINS),
        Game("c", "a", Result.BLACK_WINS_BY_FORFEIT),  # a forfeit: no colour for a or c
        Game("a", "c", Result.BLACK_WINS),
        Game("c", "b", Result.WHITE_WINS),
        Game("b", "a", Result.DRAW),
    ]
    assert recent_colours(played, 3) == {
        "a": ("black", "white", "black"),  # its first game (white) is one too many
        "b": ("white", "black", "white"),
        "c": ("black", "white"),
    }


def test_forfeits_give_no_colour_history():
    rounds = [{"games": [game("a", "b", "1-0F")]}, {"games": [game("b", "a", "0-1F")]}]
    pairing = pair_next_round(season("ab", rounds, rounds_per_period=1))
    assert meetings(pairing) == [("a", "b")]  # balance equal, no last colour: higher gets white


# -- the polynomial guarantee -----------------------------------------------------------------


class BudgetExceeded(Exception):
    pass


def naive_backtracking(count, met, budget):
    """The textbook search without a feasibility check: try 1–2, else 1–3, ... and backtrack."""
    steps = 0

    def search(unpaired):
        nonlocal steps
        if not unpaired:
            return []
        top, rest = unpaired[0], unpaired[1:]
        for partner in rest:
            steps += 1
            if steps > budget:
                raise BudgetExceeded
            if partner in met[top]:
                continue
            tail = search([p for p in rest if p != partner])
            if tail is not None:
                return [(top, partner), *tail]
        return None

    return search(list(range(count)))


def bottom_group_history(count, group):
    """The last `group` players (odd) have all met each other this period, and nobody else."""
    met = [set() for _ in range(count)]
    bottom = range(count - group, count)
    for i in bottom:
        met[i].update(j for j in bottom if j != i)
    return met


def test_a_bottom_group_that_met_each_other_is_paired_without_exponential_search(monkeypatch):
    count, group = 60, 11
    met = bottom_group_history(count, group)
    with pytest.raises(BudgetExceeded):
        naive_backtracking(count, met, budget=1_000_000)

    searches = 0
    augment = matching.Matching._augment_from

    def counting(self, root):
        nonlocal searches
        searches += 1
        return augment(self, root)

    monkeypatch.setattr(matching.Matching, "_augment_from", counting)
    pairs, bye = lexicographic_pairing(count, met, lambda i, j: 1, list(range(count))[::-1])

    # Each of the 11 bottom players needs a partner from above; the lexicographically first
    # way: 0–1, 2–3, …, 36–37 among the top, then 38–49, 39–50, …, 48–59.
    top = count - group
    expected = [(i, i + 1) for i in range(0, top - group, 2)]
    expected += [(top - group + j, top + j) for j in range(group)]
    assert bye is None
    assert pairs == expected
    # At most one labelling search and one repair per pair, plus the initial matching:
    # linear in the number of players, against more than a million naive steps.
    assert searches <= 2 * count


def test_two_hundred_players_who_all_met_are_still_paired():
    count = 200
    met = [set(range(count)) - {i} for i in range(count)]
    pairs, bye = lexicographic_pairing(count, met, lambda i, j: abs(i - j), list(range(count)))
    assert bye is None and len(pairs) == 100
    assert sorted(p for pair in pairs for p in pair) == list(range(count))
