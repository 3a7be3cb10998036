"""Typed results survive the end of a session (issue 24, finding 12), in a real browser at phone
and desktop width: the arbiter types round 13's results, the session ends, Opslaan leads to the
login, and after it the results page is back with everything typed, not yet saved."""

import re

import pytest
from playwright.sync_api import expect

from competition.models import Round
from tests.browser.helpers import ARBITER, log_in

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
