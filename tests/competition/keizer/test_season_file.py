"""Reading, validating and writing the season file."""

import io
import json
from fractions import Fraction

import pytest

from competition.keizer import season_file
from competition.keizer.season import Absence, Result, Settings
from competition.keizer.season_file import SeasonFileError


def minimal(**changes) -> dict:
    document = {
        "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}, {"id": "c", "name": "C"}],
        "rounds": [{"games": [{"white": "a", "black": "b", "result": "1-0"}], "bye": "c"}],
    }
    document.update(changes)
    return document


def test_defaults_are_dscs():
    season = season_file.from_document({"players": []})
    assert season.settings == Settings()
    assert season.settings.top_value == 50 and season.settings.step == 1
    assert season.settings.rounds_per_period == 7
    assert season.settings.full_revaluation_from_round == 10
    assert season.settings.excused_fraction == Fraction(1, 3)
    assert season.settings.team_fraction == Fraction(2, 3)


def test_it_reads_fractions_results_and_absences():
    season = season_file.from_document(
        {
            "settings": {
                "excused_fraction": "2/6",
                "bye_fraction": 1,
                "full_revaluation_from_round": None,
            },
            "players": [
                {"id": "a", "name": "A", "joined_round": 2, "start_points": "143/2"},
                {"id": "b", "name": "B"},
                {"id": "c", "name": "C"},
            ],
            "rounds": [
                {"games": [], "absent": {"b": "team"}},
                {"games": [{"white": "a", "black": "b", "result": "½-½"}], "absent": {"c": "auto"}},
            ],
        }
    )
    assert season.settings.excused_fraction == Fraction(1, 3)
    assert season.settings.full_revaluation_from_round is None
    assert season.players[0].start_points == Fraction(143, 2)
    assert season.players[0].joined_round == 2
    assert season.rounds[0].absent == {"b": Absence.TEAM}
    assert season.rounds[1].games[0].result is Result.DRAW
    assert season.rounds[1].absent == {"c": Absence.AUTO}


def test_writing_and_reading_gives_the_same_season(worked_example):
    text = season_file.dumps(worked_example)
    assert season_file.loads(text) == worked_example
    assert season_file.dumps(season_file.loads(text)) == text


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (
            minimal(rounds=[{"games": [{"white": "a", "black": "b", "result": "2-0"}]}]),
            "rounds[0].games[0].result: unknown result '2-0'",
        ),
        (
            minimal(
                rounds=[
                    {"games": []},
                    {"games": []},
                    {"games": []},
                    {
                        "games": [
                            {"white": "a", "black": "b", "result": "1-0"},
                            {"white": "c", "black": "x", "result": "1-0"},
                        ]
                    },
                ]
            ),
            "rounds[3].games[1].black: unknown player id 'x'",
        ),
        (
            minimal(
                rounds=[
                    {
                        "games": [
                            {"white": "a", "black": "b", "result": "1-0"},
                            {"white": "c", "black": "a", "result": "0-1"},
                        ]
                    }
                ]
            ),
            "rounds[0].games[1].black: player 'a' appears twice in this round "
            "(also at rounds[0].games[0].white)",
        ),
        (
            minimal(rounds=[{"games": [{"white": "a", "black": "a", "result": "1-0"}]}]),
            "rounds[0].games[0].black: player 'a' appears twice in this round "
            "(also at rounds[0].games[0].white)",
        ),
        (
            minimal(
                rounds=[{"games": [{"white": "a", "black": "b", "result": "1-0"}], "bye": "b"}]
            ),
            "rounds[0].bye: player 'b' appears twice in this round "
            "(also at rounds[0].games[0].black)",
        ),
        (
            minimal(rounds=[{"games": [], "bye": "c", "absent": {"c": "excused"}}]),
            "rounds[0].absent.c: player 'c' appears twice in this round (also at rounds[0].bye)",
        ),
        (
            minimal(rounds=[{"games": [], "absent": {"c": "ill"}}]),
            "rounds[0].absent.c: unknown reason 'ill' "
            "(one of excused, team, late, unexcused, auto)",
        ),
        (
            minimal(players=[{"id": "a", "start_points": "1/0"}], rounds=[]),
            "players[0].start_points: bad fraction '1/0': division by zero",
        ),
        (
            minimal(players=[{"id": "a", "start_points": 0.5}], rounds=[]),
            'players[0].start_points: bad fraction 0.5: expected an integer or a string like "2/3"',
        ),
        (
            minimal(players=[{"id": "a", "start_points": "-3"}], rounds=[]),
            "players[0].start_points: must not be negative",
        ),
        (
            minimal(settings={"team_fraction": "two thirds"}),
            "settings.team_fraction: bad fraction 'two thirds': expected an integer or a string "
            'like "2/3"',
        ),
        (
            minimal(settings={"top_value": 0}),
            "settings.top_value: must be a whole number from 1 to 1000000, not 0",
        ),
        (
            minimal(settings={"step": True}),
            "settings.step: must be a whole number from 1 to 1000000, not True",
        ),
        (minimal(settings={"topvalue": 50}), "settings.topvalue: unknown key 'topvalue'"),
        (
            minimal(players=[{"id": "a"}, {"id": "a"}], rounds=[]),
            "players[1].id: duplicate player id 'a'",
        ),
        (
            minimal(players=[{"name": "nobody"}], rounds=[]),
            "players[0].id: must be a non-empty string",
        ),
        (
            minimal(
                players=[{"id": "a"}, {"id": "b", "joined_round": 3}],
                rounds=[{"games": [{"white": "a", "black": "b", "result": "1-0"}]}],
            ),
            "rounds[0].games[0].black: player 'b' joins in round 3, not yet",
        ),
        (minimal(pair={"absent": {"zz": "excused"}}), "pair.absent.zz: unknown player id 'zz'"),
        (minimal(rounds={"games": []}), "rounds: must be a list"),
        (minimal(rounds=[{"games": []}] * 101), "rounds: at most 100 rounds, not 101"),
        (
            minimal(players=[{"id": f"p{i}"} for i in range(301)], rounds=[]),
            "players: at most 300 players, not 301",
        ),
        (
            minimal(rounds=[{"games": []}] * 3 + [{"absent": {"a": "excused"}, "bye": "b"}]),
            'rounds[3]: a round needs "games" (an empty list is allowed)',
        ),
        (minimal(rounds=[{}]), 'rounds[0]: a round needs "games" (an empty list is allowed)'),
        (
            minimal(players=[{"id": "a", "name": "Jan\x00sen"}], rounds=[]),
            "players[0].name: contains the control character '\\x00'",
        ),
        (
            minimal(players=[{"id": "a", "name": "Jan\nsen"}], rounds=[]),
            "players[0].name: contains the control character '\\n'",
        ),
        (
            minimal(players=[{"id": "a\tb"}], rounds=[]),
            "players[0].id: contains the control character '\\t'",
        ),
        (
            minimal(players=[{"id": "a", "name": "Jan\x85sen"}], rounds=[]),
            "players[0].name: contains the control character '\\x85'",
        ),
        (  # the right-to-left override: "Jansen" shown backwards on every page (issue 26)
            minimal(players=[{"id": "a", "name": "Jan\u202esen"}], rounds=[]),
            "players[0].name: contains the control character '\\u202e'",
        ),
        (  # a zero-width space: two names that look the same
            minimal(players=[{"id": "a", "name": "Jan\u200bsen"}], rounds=[]),
            "players[0].name: contains the control character '\\u200b'",
        ),
        ([], "the season file must be a JSON object"),
    ],
)
def test_bad_input_names_the_place_and_the_problem(document, message):
    with pytest.raises(SeasonFileError) as error:
        season_file.from_document(document)
    assert str(error.value) == message


def test_malformed_json_names_line_and_column():
    # A missing value: Python 3.11 to 3.13 word and place this error alike (a trailing comma
    # is reported differently from 3.13 on).
    with pytest.raises(SeasonFileError) as error:
        season_file.loads('{"players": [\n  {"id": }\n]}')
    assert str(error.value) == "line 2 column 10: malformed JSON: Expecting value"


def test_duplicate_keys_are_refused():
    with pytest.raises(SeasonFileError) as error:
        season_file.loads(
            '{"players": [{"id": "a"}], "rounds": [{"absent": {"a": "excused", "a": "team"}}]}'
        )
    assert str(error.value) == "malformed JSON: duplicate key 'a'"
    with pytest.raises(SeasonFileError) as error:  # the first key that comes again is named
        season_file.loads('{"rounds": [], "players": [], "players": [], "rounds": []}')
    assert str(error.value) == "malformed JSON: duplicate key 'players'"


def test_the_written_file_is_json_with_every_setting(worked_example):
    document = json.loads(season_file.dumps(worked_example))
    assert document["settings"]["excused_fraction"] == "1/3"
    assert document["settings"]["full_revaluation_from_round"] == 10
    assert len(document["rounds"]) == 3


def test_the_largest_season_is_read():
    players = [{"id": f"p{i}"} for i in range(season_file.MAX_PLAYERS)]
    season = season_file.from_document(
        {"players": players, "rounds": [{"games": []}] * season_file.MAX_ROUNDS}
    )
    assert (len(season.players), len(season.rounds)) == (300, 100)


def test_a_round_with_an_empty_list_of_games_is_read():
    season = season_file.from_document(minimal(rounds=[{"games": []}]))
    assert season.rounds[0].games == () and season.rounds[0].absent == {}


def test_a_file_larger_than_the_limit_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "season.json"
    with open(path, "wb") as file:
        file.truncate(season_file.MAX_FILE_BYTES + 1)  # sparse: costs no disk or memory
    with open(path, "rb") as file:
        with pytest.raises(SeasonFileError) as error:
            season_file.read(file, "season.json")
        assert file.tell() == 0  # refused by its size, nothing read
    assert str(error.value) == (
        "season.json: the file is larger than 5000000 bytes, more than any season needs"
    )


def test_a_stream_is_read_up_to_the_limit_only():
    stream = io.BytesIO(b"x" * 101)
    with pytest.raises(SeasonFileError) as error:
        season_file.read(stream, "-", max_bytes=100)
    assert str(error.value) == "-: the file is larger than 100 bytes, more than any season needs"
    assert season_file.read(io.BytesIO(b'{"players": []}'), "-", max_bytes=100) == (
        '{"players": []}'
    )
    with pytest.raises(SeasonFileError, match=r"^-: the file is not UTF-8 text$"):
        season_file.read(io.BytesIO(b"\xff"), "-")


def test_text_beyond_the_limit_is_refused():
    with pytest.raises(SeasonFileError) as error:
        season_file.loads('{"players": []}' + " " * 100, max_bytes=100)
    assert str(error.value) == "the file is larger than 100 bytes, more than any season needs"
