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
    url = reverse("admin:competition_competition_season-file", args=[example_competition.pk])
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
