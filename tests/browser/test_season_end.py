"""Closing the running season is never one click (issue 24, finding 1), in a real browser at
phone and desktop width: the page lists what is left, refuses to close before the last round
without a reason, and a closed season reopens with one. The demo's season has 13 of 28 rounds
played."""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from competition import seasons
from competition.models import Season
from tests.browser.accessibility import violations
from tests.browser.helpers import ARBITER, MEMBER, fits_the_screen, log_in, screenshot

pytestmark = pytest.mark.browser


def test_the_arbiter_closes_the_running_season_only_with_a_reason_and_reopens_it(
    demo, live_server, page, width
):
    season = Season.objects.get(name="2026-2027")
    log_in(page, live_server.url, ARBITER, "/beheer/competition/season/")
    row = page.locator("#result_list tr", has_text="2026-2027")
    expect(page.locator("select[name=action]")).to_have_count(0)  # no list action
    row.get_by_role("link", name="Afsluiten…").click()
    warning = page.locator(".warning-note")
    expect(warning).to_contain_text("Het seizoen is niet af:")
    expect(warning).to_contain_text("ronden nog niet gespeeld")
    screenshot(page, "close-season", width, full_page=True)

    # The reason is required: the browser does not send the form without it.
    close = page.get_by_role("button", name="Seizoen 2026-2027 afsluiten")
    close.click()
    expect(page.get_by_label("Waarom nu afsluiten? (verplicht)")).to_be_focused()
    assert not Season.objects.get(pk=season.pk).is_closed

    reason = page.get_by_label("Waarom nu afsluiten? (verplicht)")
    reason.fill("Test van de wedstrijdleider")
    # Enter in the reason does not close: the page is shown again, the reason kept.
    with page.expect_navigation():
        reason.press("Enter")
    expect(page.get_by_label("Waarom nu afsluiten? (verplicht)")).to_have_value(
        "Test van de wedstrijdleider"
    )
    assert not Season.objects.get(pk=season.pk).is_closed
    fits_the_screen(page)
    close.click()
    expect(page.locator("ul.messagelist")).to_contain_text(
        "Seizoen 2026-2027 is afgesloten; de stand is definitief."
    )
    assert Season.objects.get(pk=season.pk).is_closed

    page.locator("#result_list tr", has_text="2026-2027").get_by_role(
        "link", name="Heropenen…"
    ).click()
    page.get_by_label(re.compile("Waarom heropenen")).fill("Per ongeluk afgesloten")
    page.get_by_role("button", name="Seizoen 2026-2027 heropenen").click()
    expect(page.locator("ul.messagelist")).to_contain_text("Seizoen 2026-2027 is weer open.")
    assert not Season.objects.get(pk=season.pk).is_closed
    reasons = list(
        season.history.order_by("history_id").values_list("history_change_reason", flat=True)
    )
    assert reasons[-2:] == ["Test van de wedstrijdleider", "Per ongeluk afgesloten"]


def test_a_member_sees_the_closed_season_on_home_cancellations_and_pairing(
    demo, live_server, page, width
):
    """Issue 35, finding 11: the arbiter closes the demo's season on Sunday 22 November with a
    reason (the arbiter's pages are the test above). Jan then finds no next evening, no
    cancellation form and no promised pairing: each page says the season is closed, on which
    date and why. Reopening brings the next evening back."""
    season = Season.objects.get(name="2026-2027")
    seasons.close_season(season, timezone.now(), "De zaal is tot de zomer dicht.")
    said = (
        "Seizoen 2026-2027 is afgesloten op zondag 22 november 2026. Reden: De zaal is tot de "
        "zomer dicht. De stand is definitief: er worden geen rondes meer gespeeld."
    )
    log_in(page, live_server.url, MEMBER, "/")
    main = page.locator("main")
    expect(main.locator(".season-closed")).to_have_text(said)
    expect(main).not_to_contain_text("Volgende clubavond")
    expect(main).not_to_contain_text("Mijn volgende clubavond")
    expect(main.get_by_role("link", name="Afmelden of aanmelden")).to_have_count(0)
    expect(main).to_contain_text("Ranglijst na ronde 12")  # the final standings stay
    fits_the_screen(page)
    assert violations(page) == []
    screenshot(page, "closed-home", width)

    page.goto(f"{live_server.url}/afmelden/")
    expect(main.locator(".season-closed")).to_have_text(said)
    expect(page.get_by_role("button", name="Laat zien wat er gebeurt")).to_have_count(0)
    expect(page.get_by_role("checkbox")).to_have_count(0)
    fits_the_screen(page)
    assert violations(page) == []
    screenshot(page, "closed-cancellations", width)

    page.goto(f"{live_server.url}/indeling/")
    notice = main.locator(".season-closed")
    expect(notice).to_have_text(said)
    first_round = main.locator("section h2").first
    expect(first_round).to_contain_text("Ronde 13")
    expect(first_round).to_contain_text("vervalt: het seizoen is afgesloten")
    # The notice stands above the rounds.
    assert notice.bounding_box()["y"] < first_round.bounding_box()["y"]
    expect(main).not_to_contain_text("De indeling verschijnt")
    fits_the_screen(page)
    assert violations(page) == []
    screenshot(page, "closed-pairing", width)

    seasons.reopen_season(Season.objects.get(pk=season.pk), "Toch een andere zaal gevonden")
    page.goto(f"{live_server.url}/")
    expect(main).to_contain_text("Volgende clubavond: ronde 13")
    expect(main.locator(".season-closed")).to_have_count(0)
    expect(main.get_by_role("link", name="Afmelden of aanmelden")).to_be_visible()
