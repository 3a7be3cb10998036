"""No visitor input reaches the database unchecked (issue 26, point 3): a NUL in the address or
a form answers the site's own 400 page and changes nothing; an impossible number answers 400 in
a query or form and 404 in the path. The fuzz test (tests/dsc_site/test_fuzz.py) asks every
address; these name the findings."""

import io
import logging
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.urls import reverse

from absences.models import Registration
from operations.logs import RepeatsCounted


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


@pytest.fixture
def site_log():
    """What the site's own log handler (stderr in production, settings.LOGGING) writes, its
    memory of repeats starting empty (it lasts a process, across tests)."""
    [handler] = [h for h in logging.getLogger().handlers if h.get_name() == "stderr"]
    for kind in handler.filters:
        if isinstance(kind, RepeatsCounted):
            kind.seen.clear()
    written = io.StringIO()
    stream = handler.setStream(written)
    yield written
    handler.setStream(stream)


def test_a_hostile_query_string_is_one_warning_and_its_repeats_are_counted(
    client, example_competition, site_log
):
    """Issue 35, finding 13: each query string with a NUL wrote an ERROR with a traceback (674
    lines from one crawl). Now each is a 400 and the log has one WARNING line without a
    traceback; the next one written, ten minutes later, says how many came meanwhile."""
    moment = datetime(2026, 11, 20, 12, tzinfo=UTC)
    with time_machine.travel(moment, tick=False):
        answers = {client.get(f"/ranglijst/?seizoen=%00{n}").status_code for n in range(40)}
        answers |= {client.get(f"/spelers/{n}/?a=b%00").status_code for n in range(10)}
    assert answers == {400}
    lines = site_log.getvalue().splitlines()
    assert [line for line in lines if " ERROR " in line or "Traceback" in line] == []
    [refused] = [line for line in lines if "refused" in line]
    assert " WARNING base.input_checks path=/ranglijst/ " in refused
    assert refused.endswith("refused: a NUL or an impossible number in the address")
    assert not [line for line in lines if "Bad Request" in line]

    with time_machine.travel(moment + timedelta(minutes=10), tick=False):
        assert client.get("/indeling/?seizoen=%00").status_code == 400
    [_first, counted] = [line for line in site_log.getvalue().splitlines() if "refused" in line]
    assert counted.endswith(
        "refused: a NUL or an impossible number in the address "
        "(and 49 more like it in the ten minutes before)"
    )
