"""Attendance: what counts as a played round (rules section 8)."""

from competition.keizer import season_file
from competition.keizer.attendance import attendance_after_each_round, required_rounds


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


def test_two_thirds_of_28_rounds_is_19():
    assert required_rounds(28) == 19
    assert required_rounds(27) == 18 and required_rounds(3) == 2
