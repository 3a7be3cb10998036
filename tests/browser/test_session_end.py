"""Typed results survive the end of a session (issue 24, finding 12), in a real browser at phone
and desktop width: the arbiter types round 13's results, the session ends, Opslaan leads to the
login, and after it the results page is back with everything typed, not yet saved."""

import re

import pytest
from playwright.sync_api import expect

from competition.models import Round
from tests.browser.helpers import ARBITER, MEMBER, log_in, open_menu, screenshot

pytestmark = pytest.mark.browser


def test_results_typed_before_the_session_ended_are_back_after_the_login(
    demo, live_server, page, width
):
    round_13 = Round.objects.get(competition__kind="classical", number=13)
    log_in(page, live_server.url, ARBITER, f"/beheer/ronde/{round_13.pk}/uitslagen/")
    fields = page.locator("input[name^=game_]")
    expect(fields.first).to_be_visible()
    codes = ["1", "r", "0"]
    for number, code in enumerate(codes):
        fields.nth(number).fill(code)
    page.context.clear_cookies(name="sessionid")  # the session ends while the arbiter types
    page.get_by_role("button", name="Uitslagen opslaan").click()
    expect(page).to_have_url(re.compile(r"/beheer/login/"))
    page.get_by_label("Gebruikersnaam").fill(ARBITER[0])
    page.get_by_label("Wachtwoord").fill(ARBITER[1])
    page.get_by_role("button", name="Inloggen").click()
    expect(page).to_have_url(re.compile(rf"/beheer/ronde/{round_13.pk}/uitslagen/$"))
    expect(page.locator("ul.messagelist")).to_contain_text("wat je typte staat er weer")
    for number, code in enumerate(codes):
        expect(fields.nth(number)).to_have_value(code)
    assert not round_13.games.exclude(result="").exists()


def test_after_logging_out_the_old_cookies_get_the_visitors_pages(
    demo, live_server, page, browser, width
):
    """Issue 35, finding 5: after logout, the cookies of before (kept by someone, or a copy of
    the browser's) still got the member's cached standings and home page, with their name,
    their next game and "Uitloggen", until the minute ran out."""
    url = live_server.url
    log_in(page, url, MEMBER, "/ranglijst/")
    expect(page.locator("tr[aria-current=true]")).to_contain_text("Jan de Zeeuw")
    page.goto(f"{url}/")
    # On a phone the menu (with the button) is folded away: counted, visible or not.
    expect(page.get_by_role("button", name="Uitloggen", include_hidden=True)).to_have_count(1)
    before = page.context.cookies()
    open_menu(page, width)
    page.get_by_role("button", name="Uitloggen").click()
    expect(page.get_by_role("link", name="Inloggen", include_hidden=True)).to_have_count(1)

    copy = browser.new_context(viewport=page.viewport_size)
    copy.add_cookies(before)
    kept = copy.new_page()
    for path in ("/ranglijst/", "/"):
        kept.goto(f"{url}{path}")
        expect(kept.get_by_role("heading", level=1)).to_be_visible()
        expect(kept.get_by_role("link", name="Inloggen", include_hidden=True)).to_have_count(1)
        expect(kept.get_by_role("button", name="Uitloggen", include_hidden=True)).to_have_count(0)
        expect(kept.locator("tr[aria-current=true]")).to_have_count(0)
    screenshot(kept, "logged-out-old-cookies", width)
    copy.close()
