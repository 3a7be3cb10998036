"""The demo season in a real browser, at phone and desktop width: a visitor reads the
standings and the pairing, the arbiter enters results, a member cancels."""

import re
from datetime import datetime
from fractions import Fraction
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.management import call_command

from competition.models import Round, Standing

pytestmark = pytest.mark.browser
NOW = datetime(2026, 11, 22, 12, tzinfo=ZoneInfo("Europe/Amsterdam"))
SCREENSHOTS = Path(__file__).parent / "screenshots"
WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}
THIRDS = {"": Fraction(0), "⅓": Fraction(1, 3), "⅔": Fraction(2, 3)}


@pytest.fixture
def demo(transactional_db):
    with time_machine.travel(NOW, tick=True):
        call_command("load_demo")
        yield


@pytest.fixture(params=WIDTHS)
def width(request, page):
    page.set_viewport_size(WIDTHS[request.param])
    SCREENSHOTS.mkdir(exist_ok=True)
    return request.param


def open_menu(page, width):
    if width == "phone":
        page.get_by_role("button", name="Menu").click()


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
