"""Attendance: what counts as a played round (rules section 8)."""

from hypothesis import given, settings

from competition.keizer import season_file
from competition.keizer.attendance import (
    attendance_after_each_round,
    forecast,
    required_rounds,
)
from competition.keizer.scoring import ATTENDED, appearances
from competition.keizer.scoring import Outcome as O
from competition.keizer.season import Absence, Game, Player, Result, Round, Season, Settings
from tests.hypothesis_profiles import examples

from .strategies import seasons


def test_games_byes_default_wins_and_team_matches_count_and_nothing_else():
    season = season_file.from_document(
        {
            "players": [{"id": x} for x in "abcdefgh"],
            "rounds": [
                {
                    "games": [
                        {"white": "a", "black": "b", "result": "1-0"},
                        {"white": "c", "black": "d", "result": "1-0F"},
                        {"white": "e", "black": "f", "result": "0-0F"},
                    ],
                    "bye": "g",
                    "absent": {"h": "team"},
                },
                {
                    "games": [],
                    "absent": {"a": "excused", "b": "late", "c": "auto", "d": "unexcused"},
                },
            ],
        }
    )
    after = attendance_after_each_round(season)
    assert after[0] == dict.fromkeys("abcdefgh", 0)
    assert after[1] == {"a": 1, "b": 1, "c": 1, "d": 0, "e": 0, "f": 0, "g": 1, "h": 1}
    assert after[2] == after[1]


def counted_from_appearances(season: Season) -> list[dict[str, int]]:
    """Attendance as the rules read it: after each round, the rounds whose appearance (as
    `appearances` gives it) is one of the attended outcomes."""
    counts = [dict.fromkeys((player.id for player in season.players), 0)]
    for round_ in season.rounds:
        parts = appearances(round_)
        counts.append(
            {
                player_id: count + (player_id in parts and parts[player_id].outcome in ATTENDED)
                for player_id, count in counts[-1].items()
            }
        )
    return counts


@settings(max_examples=examples(150), deadline=None)
@given(seasons(max_players=10, max_rounds=6))
def test_attendance_is_what_the_appearances_say(season):
    assert attendance_after_each_round(season) == counted_from_appearances(season)


def test_a_player_listed_twice_in_a_round_counts_as_their_appearance_says():
    # Not a round the site makes, but the engine reads it: the absence replaces the game, the
    # bye replaces the absence, as in `appearances`.
    players = tuple(Player(x, x) for x in "abcd")
    rounds = (
        Round(games=(Game("a", "b", Result.WHITE_WINS),), absent={"a": Absence.EXCUSED}),
        Round(games=(Game("c", "d", Result.DOUBLE_FORFEIT),), absent={"c": Absence.TEAM}, bye="d"),
    )
    season = Season(Settings(), players, rounds)
    after = attendance_after_each_round(season)
    assert after == counted_from_appearances(season)
    assert after[2] == {"a": 0, "b": 1, "c": 1, "d": 1}


def test_two_thirds_of_28_rounds_is_19():
    assert required_rounds(28) == 19
    assert required_rounds(27) == 18 and required_rounds(3) == 2


# The forecast, on hand-made cases of a 28-round season (19 required, ⌈2·28/3⌉).


def test_a_player_with_every_round_to_come_open_may_miss_the_margin_above_19():
    # 12 rounds played, 9 attended; 16 to come, none known: at most 9 + 16 = 25, so 25 - 19 = 6.
    seen = forecast(9, 28, [None] * 16)
    assert (seen.attended, seen.most, seen.required, seen.may_miss) == (9, 25, 19, 6)
    assert seen.reachable and not seen.reached


def test_evenings_cancelled_already_are_missed_and_team_matches_and_byes_count():
    # 16 to come: cancelled in time twice, late once, automatically once; a team match and the
    # bye count; 10 open. At most 9 + 10 + 2 = 21: 2 more may be missed.
    to_come = [O.EXCUSED, O.EXCUSED, O.LATE, O.AUTO, O.TEAM, O.BYE] + [None] * 10
    seen = forecast(9, 28, to_come)
    assert (seen.most, seen.may_miss) == (21, 2)


def test_results_already_in_count_as_they_are_scored():
    # A forfeit win counts, a forfeit loss, a double forfeit and a no-show do not.
    to_come = [O.FORFEIT_WIN, O.FORFEIT_LOSS, O.DOUBLE_FORFEIT, O.UNEXCUSED, O.WIN, O.DRAW]
    seen = forecast(15, 28, to_come + [None] * 2)
    # 15 + forfeit win + win + draw + 2 open = 20: one more may be missed.
    assert (seen.most, seen.may_miss) == (20, 1)


def test_on_the_edge_none_may_be_missed_and_one_less_can_no_longer_reach_it():
    exactly = forecast(3, 28, [None] * 16)  # 3 + 16 = 19
    assert (exactly.most, exactly.may_miss, exactly.reachable) == (19, 0, True)
    short = forecast(2, 28, [None] * 16)  # 2 + 16 = 18 < 19
    assert (short.most, short.may_miss, short.reachable) == (18, -1, False)


def test_a_newcomer_from_round_11_can_attend_18_at_most_and_misses_the_prizes():
    # Rounds 11..28 are 18 evenings: even attending all of them stays below 19.
    seen = forecast(0, 28, [None] * 18)
    assert (seen.most, seen.reachable) == (18, False)


def test_once_19_are_reached_every_round_to_come_may_be_missed():
    seen = forecast(21, 28, [None] * 5 + [O.EXCUSED])  # 22 played, 6 to come, one cancelled
    assert seen.most == 26
    assert seen.reached and seen.may_miss == 5  # the five still open, not 26 - 19 = 7


def test_a_season_of_27_rounds_asks_for_18():
    seen = forecast(10, 27, [None] * 9)  # 10 + 9 = 19 of at least 18
    assert (seen.required, seen.may_miss) == (18, 1)
