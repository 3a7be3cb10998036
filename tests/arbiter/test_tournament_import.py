"""The arbiter brings a KeizerForClubs tournament (issue 39, point 4): the upload shows what the
site reads in it, the import makes the competition with KeizerForClubs' Keizer, and its
standings hold the points per game and per player KeizerForClubs stored (±0.01). A damaged or
foreign file is refused with a clear message and changes nothing."""

from datetime import date
from fractions import Fraction

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from competition.keizer import keizerforclubs
from competition.models import Competition, Season
from tests.competition.keizer.kfc_files import TOURNAMENT_2024, tournament_file
from tests.factories import make_competition, make_season

URL = reverse("arbiter:import-keizerforclubs")


def upload(client, content: bytes, name="2025-2026"):
    return client.post(
        URL,
        {
            "file": SimpleUploadedFile("Test-Tournament.s3db", content),
            "name": name,
            "first_evening": "2025-09-04",
        },
    )


def test_the_tournament_is_previewed_then_imported_with_its_stored_points(arbiter_client, tmp_path):
    path = tournament_file(tmp_path)
    preview = upload(arbiter_client, path.read_bytes()).content.decode()
    assert "9 spelers en 5 rondes met uitslagen." in preview
    assert "Alle 48 punten per ronde en totalen zijn die van KeizerForClubs (op 0,01)." in preview
    assert "Verdandi <em>(teruggetrokken: haar of zijn partijen tellen voor niemand)" in preview
    assert not Competition.objects.exists()  # nothing stored before "Importeren"

    response = arbiter_client.post(URL, {"import": "1"})
    competition = Competition.objects.get()
    assert response.status_code == 302
    assert competition.season.name == "2025-2026"
    assert competition.variant["profile"] == "keizerforclubs"
    assert competition.engine_settings().top_value == "ratio:3"
    # The standings after round 5 against the file's own numbers, one by one.
    tournament = keizerforclubs.read(str(path))
    name_to_id = {p.name: p.id for p in tournament.season.players}
    ranking = competition.rankings.get(after_round=5)
    standings = list(ranking.standings.select_related("participant__member"))
    assert len(standings) == 8  # Verdandi retired
    for standing in standings:
        player = name_to_id[standing.participant.name]
        assert abs(standing.total - tournament.totals[player]) <= Fraction(1, 100)
        for number, points in enumerate(standing.round_points, start=1):
            stored = tournament.points[number, player]
            assert abs(points - stored) <= Fraction(1, 100), (player, number)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"Naam;Rating\nAmurru;1891\n", "Dit is geen KeizerForClubs-toernooibestand (.s3db)."),
        (b"SQLite format 3\x00" + b"\x00" * 200, "Het bestand is beschadigd"),
    ],
)
def test_a_foreign_or_damaged_file_is_refused_and_changes_nothing(arbiter_client, content, message):
    page = upload(arbiter_client, content).content.decode()
    assert message in page
    assert not Competition.objects.exists() and not Season.objects.exists()
    assert "keizerforclubs_import" not in arbiter_client.session


def test_a_file_with_a_middle_round_unplayed_is_refused_with_the_round(arbiter_client, tmp_path):
    unplayed = "UPDATE Pairing SET Result = -1 WHERE Rnd = 2 AND board = 1"
    path = tournament_file(tmp_path, TOURNAMENT_2024, unplayed)
    page = upload(arbiter_client, path.read_bytes()).content.decode()
    assert "Ronde 2, bord 1 heeft geen uitslag" in page
    assert not Competition.objects.exists()


def test_an_expired_preview_imports_nothing(arbiter_client):
    response = arbiter_client.post(URL, {"import": "1"}, follow=True)
    assert "Het voorbeeld is verlopen; upload het bestand opnieuw." in response.content.decode()
    assert not Competition.objects.exists()


def test_a_season_that_has_its_competition_already_is_refused_at_the_preview(
    arbiter_client, tmp_path
):
    make_competition(make_season(date(2025, 9, 4), name="2025-2026"))
    page = upload(arbiter_client, tournament_file(tmp_path).read_bytes()).content.decode()
    assert "Seizoen 2025-2026 heeft al een" in page
    assert "keizerforclubs_import" not in arbiter_client.session
    assert Competition.objects.count() == 1
