"""The arbiter sees on the start page whether the worker runs: a red warning when it is late,
the time it was last seen otherwise (phone and desktop width)."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from operations.models import WorkerHeartbeat
from tests.browser.helpers import fits_the_screen, log_in, screenshot
from tests.factories import make_arbiter

pytestmark = pytest.mark.browser


def test_the_start_page_warns_in_red_while_the_worker_is_away(
    transactional_db, live_server, page, width
):
    make_arbiter()
    WorkerHeartbeat.objects.record(timezone.now() - timedelta(hours=2))
    page.goto(f"{live_server.url}/beheer/")
    page.get_by_label("Gebruikersnaam").fill("arbiter")
    page.get_by_label("Wachtwoord").fill("arbiter-password")
    page.get_by_role("button", name="Inloggen").click()

    warning = page.get_by_role("alert").filter(has_text="De verwerker is sinds")
    assert re.fullmatch(
        r"De verwerker is sinds \w+ \d+ \w+ \d\d:\d\d niet meer gezien: de indeling wordt niet "
        r"automatisch gepubliceerd\. Waarschuw de beheerder\.",
        warning.inner_text(),
    )
    red, green, blue = map(
        int, re.findall(r"\d+", warning.evaluate("e => getComputedStyle(e).color"))[:3]
    )
    assert red > 150 and green < 80 and blue < 80  # Django's error colour
    fits_the_screen(page)
    screenshot(page, "arbiter-worker-late", width)

    WorkerHeartbeat.objects.record(timezone.now())  # the worker is back
    page.reload()
    assert page.get_by_role("alert").filter(has_text="De verwerker").count() == 0
    assert re.fullmatch(
        r"Verwerker laatst gezien om \d\d:\d\d\.", page.locator(".week-worker").inner_text()
    )


def test_the_start_page_names_a_step_of_the_worker_that_fails(
    transactional_db, live_server, page, width
):
    """Issue 35: a failing step of the pass is named, with since when and its error, while the
    worker itself is seen (its other steps go on)."""
    make_arbiter()
    now = timezone.now()
    WorkerHeartbeat.objects.record(now - timedelta(minutes=3), {"publication": "RuntimeError: x"})
    WorkerHeartbeat.objects.record(now, {"publication": "OperationalError: disk full"})
    log_in(page, live_server.url, ("arbiter", "arbiter-password"), "/beheer/")

    warning = page.get_by_role("alert").filter(has_text="mislukt de verwerker")
    assert re.fullmatch(
        r"Sinds \w+ \d+ \w+ \d\d:\d\d mislukt de verwerker bij het publiceren van de indeling "
        r"\(OperationalError: disk full\)\. De andere stappen gaan door; laat het de beheerder "
        r"weten\.",
        warning.inner_text(),
    )
    since = timezone.localtime(now - timedelta(minutes=3))
    assert f"{since:%H:%M} mislukt" in warning.inner_text()  # since the first failure
    assert re.fullmatch(
        r"Verwerker laatst gezien om \d\d:\d\d\.", page.locator(".week-worker").inner_text()
    )
    fits_the_screen(page)
    screenshot(page, "arbiter-worker-step-failing", width)

    WorkerHeartbeat.objects.record(timezone.now())  # the step works again
    page.reload()
    assert page.get_by_role("alert").filter(has_text="mislukt de verwerker").count() == 0
