"""Season files: export, import with the engine's validation, and an identical round trip."""

import json
from datetime import date
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from competition.keizer import season_file
from competition.keizer.ranking import compute_rankings
from competition.models import Competition, Standing
from tests.factories import WORKED_EXAMPLE, import_season_file
from tests.rows import row_counts


def export(season="2026-2027", kind="classical") -> str:
    out = StringIO()
    call_command("export_season", "--season", season, "--kind", kind, stdout=out)
    return out.getvalue()


def test_the_export_is_the_worked_example_with_readable_ids(example_competition):
    document = json.loads(export())
    original = json.loads(WORKED_EXAMPLE.read_text(encoding="utf-8"))
    assert [p["name"] for p in document["players"]] == [p["name"] for p in original["players"]]
    assert [p["id"] for p in document["players"]][:3] == ["jansen", "pietersen", "bakker"]
    assert document["rounds"][0]["games"][0] == {
        "white": "jansen",
        "black": "pietersen",
        "result": "1-0",
    }
    # The engine reads it back and computes the seed's ranking 3.
    rankings = compute_rankings(season_file.from_document(document))
    assert (
        rankings[3].standings[0].total
        == Standing.objects.get(
            ranking__competition=example_competition, ranking__after_round=3, position=1
        ).total
    )


def test_export_import_export_gives_an_identical_file(example_competition, tmp_path):
    first = export()
    path = tmp_path / "season.json"
    path.write_text(first, encoding="utf-8")
    out = StringIO()
    import_season_file(path, stdout=out)
    assert "imported 10 players and 3 rounds" in out.getvalue()
    imported = Competition.objects.get(season__name="2027-2028")
    assert imported.rankings.count() == 4
    assert export("2027-2028") == first


def test_an_import_refuses_bad_files_with_the_place_and_changes_nothing(db, tmp_path):
    document = json.loads(WORKED_EXAMPLE.read_text(encoding="utf-8"))
    document["rounds"][1]["games"][3]["result"] = "2-0"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(CommandError) as error:
        import_season_file(path)
    assert str(error.value) == f"{path}: rounds[1].games[3].result: unknown result '2-0'"
    assert not Competition.objects.exists()


def test_the_arbiter_downloads_the_season_file(arbiter_client, example_competition):
    url = reverse("arbiter:season-file", args=[example_competition.pk])
    response = arbiter_client.get(url)
    assert response["Content-Disposition"] == 'attachment; filename="dsc-2026-2027-classical.json"'
    assert json.loads(response.content) == json.loads(export())


def test_importing_matches_members_by_name(example_competition, tmp_path):
    path = tmp_path / "season.json"
    path.write_text(export(), encoding="utf-8")
    import_season_file(path)
    imported = Competition.objects.get(season__name="2027-2028")
    assert set(imported.participants.values_list("member_id", flat=True)) == set(
        example_competition.participants.values_list("member_id", flat=True)
    )
    assert date(2027, 9, 2) == imported.rounds.get(number=1).date


def write_example(tmp_path, change=None, name="season.json"):
    """The worked example as a file, changed by `change(document)` first."""
    document = json.loads(WORKED_EXAMPLE.read_text(encoding="utf-8"))
    if change:
        change(document)
    path = tmp_path / name
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return path


def refusal(path, **options) -> str:
    """The one-line error of an import that must change nothing."""
    before = row_counts()
    out = StringIO()
    with pytest.raises(CommandError) as error:
        import_season_file(path, stdout=out, **options)
    assert row_counts() == before
    assert "\n" not in str(error.value)
    assert "imported" not in out.getvalue()
    return str(error.value)


def test_a_round_that_lost_its_games_is_refused(db, tmp_path):
    path = write_example(tmp_path, lambda document: document["rounds"][1].pop("games"))
    assert refusal(path) == f'{path}: rounds[1]: a round needs "games" (an empty list is allowed)'


def test_a_round_with_no_games_written_as_an_empty_list_is_imported(db, tmp_path):
    def no_games_in_round_3(document):
        document["rounds"][2] = {"games": []}

    out = StringIO()
    import_season_file(write_example(tmp_path, no_games_in_round_3), stdout=out)
    competition = Competition.objects.get()
    assert not competition.rounds.get(number=3).games.exists()
    assert "round 3 (2027-09-16): 0 games, 0 absences" in out.getvalue()
    assert json.loads(export("2027-2028"))["rounds"][2] == {"games": []}  # written, never left out


def board_5_of_round_3_absent_and_bye(document):
    game = document["rounds"][2]["games"].pop()
    document["rounds"][2].update(absent={game["white"]: "excused"}, bye=game["black"])


def test_it_prints_what_it_stores_and_a_dry_run_stops_there(db, tmp_path):
    path = write_example(tmp_path, board_5_of_round_3_absent_and_bye)
    before = row_counts()
    out = StringIO()
    import_season_file(path, stdout=out, dry_run=True)
    assert row_counts() == before
    shown = out.getvalue().splitlines()
    assert shown == [
        "to store in classical 2027-2028: 10 players (10 new members), 3 rounds",
        "round 1 (2027-09-02): 5 games, 0 absences",
        "round 2 (2027-09-09): 5 games, 0 absences",
        "round 3 (2027-09-16): 4 games, 1 absences, a bye",
        "dry run: nothing was stored",
    ]
    out = StringIO()
    import_season_file(path, stdout=out)
    assert out.getvalue().splitlines()[:4] == shown[:4]
    stored = Competition.objects.get().rounds.get(number=3)
    assert (stored.games.count(), stored.absences.count(), stored.bye is not None) == (4, 1, True)


def test_a_dry_run_refuses_what_the_import_would_refuse(example_competition, tmp_path):
    path = write_example(tmp_path)
    assert refusal(path, season="2026-2027", dry_run=True) == (
        "Seizoen 2026-2027 heeft al een interne competitie."
    )


def long_name(document):
    document["players"][3]["name"] = "B" * 500


def nul_in_a_name(document):
    document["players"][3]["name"] = "Bak\x00ker"


def tab_in_a_name(document):
    document["players"][3]["name"] = "Bak\tker"


def control_character_in_an_id(document):
    document["players"][3]["id"] = "bak\x1bker"


def empty_name(document):
    document["players"][3]["name"] = " "


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (long_name, "players[3].name: is 500 characters long; the site keeps at most 100"),
        (nul_in_a_name, "players[3].name: contains the control character '\\x00'"),
        (tab_in_a_name, "players[3].name: contains the control character '\\t'"),
        (control_character_in_an_id, "players[3].id: contains the control character '\\x1b'"),
        (empty_name, "players[3].name: must not be empty"),
    ],
)
def test_what_a_column_cannot_hold_is_refused_before_the_database_sees_it(
    db, tmp_path, change, message
):
    path = write_example(tmp_path, change)
    assert refusal(path) == f"{path}: {message}"


def test_two_players_of_one_name_are_refused_before_anything_is_stored(db, tmp_path):
    """The site keeps one member per name: two players called alike would become one member
    twice in the competition (the database refused it with an error page before)."""

    def namesake(document):
        document["players"][3]["name"] = document["players"][1]["name"]

    path = write_example(tmp_path, namesake)
    assert refusal(path) == (
        f"{path}: players[3].name: is players[1]'s name too; the site keeps one member a name"
    )


def test_a_name_as_long_as_the_column_is_imported(db, tmp_path):
    def longest_name(document):
        document["players"][3]["name"] = "B" * 100

    import_season_file(write_example(tmp_path, longest_name), stdout=StringIO())
    assert Competition.objects.get().participants.get(initial_position=4).name == "B" * 100


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"season": "2027-2028" * 3},
            "--season: must be 1 to 20 characters: '2027-20282027-20282027-2028'",
        ),
        (
            {"season": "2027\x002028"},
            "--season: contains the control character '\\x00': '2027\\x002028'",
        ),
        (
            {"first_evening": "9999-12-20"},
            "rounds: 3 weekly rounds from 9999-12-20 run past 9999",
        ),
    ],
)
def test_arguments_the_site_cannot_keep_are_refused(db, tmp_path, options, message):
    path = write_example(tmp_path)
    assert refusal(path, **options) == f"{path}: {message}"


def test_a_file_larger_than_any_season_is_refused_before_it_is_read(db, tmp_path):
    path = tmp_path / "huge.json"
    with open(path, "wb") as file:
        file.truncate(1_000_000_000)  # sparse: a gigabyte that costs nothing
    assert refusal(path) == (
        f"{path}: the file is larger than 5000000 bytes, more than any season needs"
    )


def test_a_file_that_is_missing_or_not_text_is_refused(db, tmp_path):
    missing = tmp_path / "missing.json"
    assert refusal(missing) == f"{missing}: cannot read the file: No such file or directory"
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe")
    assert refusal(binary) == f"{binary}: the file is not UTF-8 text"
