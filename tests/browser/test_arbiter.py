"""The arbiter's week in a real browser, at phone and desktop width."""

import pytest

from competition.models import Round
from tests.browser.helpers import SCREENSHOTS

pytestmark = pytest.mark.browser


def test_the_arbiter_enters_a_rounds_results_and_the_standings_change(
    demo, live_server, page, width
):
    page.goto(f"{live_server.url}/beheer/")
    page.get_by_label("Gebruikersnaam").fill("wedstrijdleider")
    page.get_by_label("Wachtwoord").fill("dsc-demo-2026")
    page.get_by_role("button", name="Inloggen").click()
    round_13 = Round.objects.get(number=13)
    round_14 = Round.objects.get(number=14)
    page.goto(f"{live_server.url}/beheer/competition/round/{round_14.pk}/change/")
    making = page.get_by_role("button", name="Indeling maken")
    assert making.evaluate("b => getComputedStyle(b).borderRadius") == "15px"  # a styled pill
    page.screenshot(path=str(SCREENSHOTS / f"round-{width}.png"))
    page.goto(f"{live_server.url}/beheer/competition/round/{round_13.pk}/change/")
    page.get_by_role("link", name="Uitslagen invoeren").click()
    assert page.locator("h1").inner_text() == "Uitslagen ronde 13"
    # The cursor starts on board 1: type a result, Tab to the next board, and so on.
    boards = round_13.games.count()
    for number in range(boards):
        page.keyboard.type("1" if number % 3 == 0 else "r" if number % 3 == 1 else "0")
        page.keyboard.press("Tab")
    page.get_by_role("button", name="Uitslagen opslaan").click()
    assert f"{boards} uitslag(en) opgeslagen" in page.locator("body").inner_text()
    page.screenshot(path=str(SCREENSHOTS / f"results-{width}.png"))

    page.goto(f"{live_server.url}/ranglijst/")
    assert "Ranglijst 13, na ronde 13." in page.locator("main").inner_text()
    assert page.locator("table.standings thead th").count() == 4 + 13 + 3
