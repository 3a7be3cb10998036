"""The arbiter's start page says when the worker (which publishes the pairing) was last seen,
and warns in red when it has not been seen for five minutes."""

from datetime import timedelta

import time_machine

from operations.models import WorkerHeartbeat
from tests.moments import at

NOW = at(20, minute=3)


def start_page(client) -> str:
    with time_machine.travel(NOW, tick=False):
        response = client.get("/beheer/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_start_page_says_when_the_worker_was_last_seen(arbiter_client):
    WorkerHeartbeat.objects.record(at(20, minute=1))
    page = start_page(arbiter_client)
    assert "Verwerker laatst gezien om 20:01." in page
    assert "niet meer gezien" not in page


def test_the_start_page_warns_in_red_when_the_worker_is_late(arbiter_client):
    WorkerHeartbeat.objects.record(NOW - timedelta(minutes=5, seconds=1))
    page = start_page(arbiter_client)
    assert (
        '<p class="errornote week-worker" role="alert">De verwerker is sinds vrijdag '
        "18 september 19:57 niet meer gezien: de indeling wordt niet automatisch gepubliceerd. "
        "Waarschuw de beheerder.</p>"
    ) in page
    assert "Verwerker laatst gezien" not in page


def test_the_start_page_warns_when_the_worker_was_never_seen(arbiter_client):
    assert "De verwerker is nog nooit gezien: de indeling wordt niet automatisch gepubliceerd." in (
        start_page(arbiter_client)
    )
