"""The keyboard alone (phone and desktop): its first stop on every public page is "Naar de
inhoud", visible when it has the focus, and Enter puts the focus on the page's content, past the
menu; the three main flows (a member cancels, a player enters a result, the arbiter enters a
round's results) are done with Tab, Space, Enter and typing, every stop showing its focus."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from playwright.sync_api import expect

from competition.models import Game, Round
from tests.browser.helpers import ARBITER, MEMBER, fits_the_screen, screenshot

pytestmark = pytest.mark.browser
EVENING = datetime(2026, 11, 26, 21, 0, tzinfo=ZoneInfo("Europe/Amsterdam"))  # games are on


def test_the_skip_link_takes_the_keyboard_past_the_menu(demo, live_server, page, width):
    page.goto(f"{live_server.url}/ranglijst/")
    skip = page.get_by_role("link", name="Naar de inhoud")
    assert not skip.is_visible() or skip.bounding_box()["width"] <= 1  # hidden until focused
    page.keyboard.press("Tab")
    expect(skip).to_be_focused()
    box = skip.bounding_box()
    assert box["width"] > 50 and 0 <= box["y"] < 100  # shown at the top
    screenshot(page, "skip-link", width)
    page.keyboard.press("Enter")
    expect(page.locator("main#inhoud")).to_be_focused()
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.closest('main') !== null")
    assert focused  # the next stop is in the content, not the menu


def test_the_accessibility_statement_is_reached_from_every_page(demo, live_server, page, width):
    page.goto(f"{live_server.url}/indeling/")
    page.get_by_role("link", name="Toegankelijkheid").click()
    expect(page.locator("h1")).to_have_text("Toegankelijkheid")
    expect(page.get_by_role("heading", name="Wat nog niet goed werkt")).to_be_visible()
    fits_the_screen(page)
    screenshot(page, "accessibility-statement", width, full_page=True)


# What the keyboard is on: its accessible name (or text), and whether its focus shows (an
# outline or Bootstrap's focus ring, a box shadow).
FOCUSED = """() => {
  const el = document.activeElement, style = getComputedStyle(el);
  const label = el.labels && el.labels.length ? el.labels[0].innerText : "";
  return {
    name: (el.getAttribute("aria-label") || label || el.innerText || el.value || "").trim(),
    tag: el.tagName.toLowerCase(),
    shown: (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0)
      || style.boxShadow !== "none",
  };
}"""


def tab_to(page, wanted: str, most: int = 80) -> dict:
    """Press Tab until the focus is on what is named `wanted` (its start), checking that every
    stop on the way shows its focus; fails after `most` presses. Where the page put the focus
    itself (autofocus) on it, no Tab is needed."""
    for press in range(most + 1):
        if press:
            page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused["tag"] == "body":
            continue  # the document itself, before the page's first stop
        assert focused["shown"], f"no visible focus on {focused}"
        if focused["name"].startswith(wanted):
            return focused
    raise AssertionError(f"{wanted!r} not reached with {most} presses of Tab")


def log_in_by_keyboard(page, url: str, account: tuple[str, str], next_path: str) -> None:
    page.goto(f"{url}/accounts/login/?next={next_path}")
    tab_to(page, "Gebruikersnaam")
    page.keyboard.type(account[0])
    tab_to(page, "Wachtwoord")
    page.keyboard.type(account[1])
    with page.expect_navigation():
        page.keyboard.press("Enter")


def test_a_member_cancels_with_the_keyboard_alone(demo, live_server, page, width):
    log_in_by_keyboard(page, live_server.url, MEMBER, "/afmelden/")
    expect(page.locator("h1")).to_have_text("Mijn afmeldingen: Jan de Zeeuw", use_inner_text=True)
    tab_to(page, "Ronde 14,")
    page.keyboard.press("Space")
    tab_to(page, "Laat zien wat er gebeurt")
    page.keyboard.press("Enter")
    expect(page.locator("section.preview")).to_contain_text("Ronde 14:")
    tab_to(page, "Bevestigen")
    page.keyboard.press("Enter")
    expect(page.locator(".alert-success", has_text="Ronde 14: Op tijd afgemeld")).to_be_visible()
    screenshot(page, "keyboard-cancelled", width)


def test_a_player_enters_a_result_with_the_keyboard_alone(demo, live_server, page, width):
    with time_machine.travel(EVENING, tick=True):
        game = Game.objects.get(
            round__competition__kind="classical",
            round__number=13,
            black__member__name="Jan de Zeeuw",
        )
        log_in_by_keyboard(page, live_server.url, MEMBER, f"/partij/{game.pk}/")
        expect(page.locator("h1")).to_have_text("Mijn partij")
        tab_to(page, "0-1")
        page.keyboard.press("Enter")
        expect(page.locator("main > .alert-success")).to_contain_text("Je uitslag is bewaard.")
        expect(page.locator(".own-game-reports")).to_contain_text("Jij gaf 0-1 door om 21:")


def test_the_arbiter_enters_a_rounds_results_with_the_keyboard_alone(
    demo, live_server, page, width
):
    round_13 = Round.objects.get(competition__kind="classical", number=13)
    boards = round_13.games.count()
    with time_machine.travel(EVENING, tick=True):
        log_in_by_keyboard(
            page, live_server.url, ARBITER, f"/beheer/ronde/{round_13.pk}/uitslagen/"
        )
        expect(page.locator("h1")).to_have_text("Uitslagen ronde 13", use_inner_text=True)
        tab_to(page, "Bord 1:")
        for _board in range(boards):
            page.keyboard.type("r")  # remise
            page.keyboard.press("Tab")
        tab_to(page, "Uitslagen opslaan")
        page.keyboard.press("Enter")
        expect(page.locator("ul.messagelist")).to_contain_text(f"{boards} uitslag(en) opgeslagen")
        screenshot(page, "keyboard-results", width)
    assert set(round_13.games.values_list("result", flat=True)) == {"1/2-1/2"}  # stored code
