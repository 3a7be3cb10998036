"""A member's week in a real browser, at phone and desktop width."""

import re
from fractions import Fraction

import pytest

from competition.models import Standing
from tests.browser.helpers import SCREENSHOTS

pytestmark = pytest.mark.browser
THIRDS = {"": Fraction(0), "⅓": Fraction(1, 3), "⅔": Fraction(2, 3)}


def test_a_member_cancels_for_next_week_in_the_browser(demo, live_server, page, width):
    page.goto(f"{live_server.url}/accounts/login/?next=/afmelden/")
    page.get_by_label("Gebruikersnaam").fill("jan")
    page.get_by_label("Wachtwoord").fill("dsc-lid-2026")
    page.get_by_role("button", name="Inloggen").click()
    assert page.locator("h1").inner_text() == "Mijn afmeldingen: Jan de Zeeuw"
    # Round 13's pairing is published (Friday 20 November 20:00 has passed); round 14's
    # deadline is Friday 27 November 18:00: cancelling for it is timely.
    page.get_by_label("Ronde 14, donderdag 3 december").check()
    page.get_by_role("button", name="Laat zien wat er gebeurt").click()
    preview = page.locator(".alert-warning").inner_text()
    # A third of Jan's value in the latest stored ranking, shown exactly.
    value = Standing.objects.filter(participant__member__name="Jan de Zeeuw").latest(
        "ranking__after_round"
    )
    said = re.search(r"Op tijd afgemeld: ⅓ van je waarde (\d+) = (\d*)([⅓⅔]?) punten\.", preview)
    assert said, preview
    assert int(said[1]) == value.value
    assert int(said[2] or 0) + THIRDS[said[3]] == Fraction(value.value, 3)
    page.screenshot(path=str(SCREENSHOTS / f"cancel-{width}.png"), full_page=True)
    page.get_by_role("button", name="Bevestigen").click()
    assert f"Ronde 14: {said[0]}" in page.locator("main").inner_text()
    assert page.locator(".alert-success", has_text="Ronde 14").is_visible()
    evening = page.locator(".form-check", has_text="Ronde 14")
    assert "op tijd afgemeld" in evening.inner_text()
