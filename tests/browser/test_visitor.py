"""A visitor reads the demo season in a real browser, at phone and desktop width."""

import pytest

from competition.models import Round
from tests.browser.helpers import SCREENSHOTS, open_menu

pytestmark = pytest.mark.browser


def test_a_visitor_reads_the_standings_and_the_pairing(demo, live_server, page, width):
    page.goto(f"{live_server.url}/ranglijst/")
    assert page.locator("h1").inner_text() == "Ranglijst 2026-2027"
    assert "Ranglijst 12, na ronde 12." in page.locator("main").inner_text()
    rows = page.locator("table.standings tbody tr")
    assert rows.count() == 40
    first_row = rows.first.locator("td")
    assert first_row.nth(0).inner_text() == "1"
    assert rows.first.locator("th").inner_text()  # the player's name heads the row
    assert first_row.nth(1).inner_text() in "ABCD"  # the player's group
    assert first_row.nth(2).inner_text() == "50"  # the value of position 1
    headers = page.locator("table.standings thead th")
    assert headers.count() == 4 + 12 + 3  # #, name, group, value, rounds 1..12, total, att., ±
    page.screenshot(path=str(SCREENSHOTS / f"standings-{width}.png"), full_page=False)

    open_menu(page, width)
    page.get_by_role("link", name="Indeling").click()
    assert page.locator("h1").inner_text() == "Indeling en uitslagen"
    round_13 = Round.objects.get(number=13)
    heading = page.locator("h2").first.inner_text()
    assert heading.startswith("Ronde 13, donderdag 26 november 2026")
    boards = page.locator("table.pairing").first.locator("tbody tr")
    assert boards.count() == round_13.games.count() > 0
    first_game = round_13.games.get(board=1)
    assert first_game.white.name in boards.first.inner_text()
    page.screenshot(path=str(SCREENSHOTS / f"pairing-{width}.png"), full_page=False)

    page.locator("table.pairing").first.get_by_role("link").first.click()
    assert page.locator("h1").inner_text() == first_game.white.name
    assert "Plaats" in page.locator("main").inner_text()
    page.screenshot(path=str(SCREENSHOTS / f"player-{width}.png"), full_page=True)
