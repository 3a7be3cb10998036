"""No visitor input reaches the database unchecked (issue 26, point 3): a NUL in the address or
a form answers the site's own 400 page and changes nothing; an impossible number answers 400 in
a query or form and 404 in the path. The fuzz test (tests/dsc_site/test_fuzz.py) asks every
address; these name the findings."""

import pytest
from django.urls import reverse

from absences.models import Registration


@pytest.mark.parametrize("path", ["/ranglijst/", "/indeling/", "/prijzen/", "/", "/wat-als/"])
def test_a_nul_in_the_season_picker_answers_the_sites_400_page(client, example_competition, path):
    response = client.get(path, {"seizoen": "\x00"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Verzoek niet begrepen" in page and '<html lang="nl"' in page


def test_a_nul_in_a_form_changes_nothing(jansen_client, round_4):
    response = jansen_client.post(
        reverse("absences:mine"), {"rounds": [round_4.pk], "action": "cancel", "reason": "\x00"}
    )
    assert response.status_code == 400
    assert not Registration.objects.exists()


def test_an_impossible_number_answers_404_in_the_path_and_400_in_a_form(
    client, jansen_client, example_competition
):
    assert client.get("/spelers/99999999999999999999/").status_code == 404
    assert client.get("/ranglijst/99999999999999999999/").status_code == 404
    response = jansen_client.post(reverse("absences:mine"), {"rounds": ["99999999999999999999"]})
    assert response.status_code == 400


def test_ordinary_numbers_and_text_pass(client, example_competition):
    assert client.get("/ranglijst/", {"seizoen": "2026-2027"}).status_code in (200, 404)
    assert client.get("/ranglijst/", {"seizoen": "x" * 300}).status_code == 404
