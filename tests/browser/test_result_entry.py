"""Players hand in their result on the club evening, in a real browser at phone and desktop
width: both enter the same (it stands, provisional), they differ (the arbiter decides on the
start page), only one enters it (after 23:30 the arbiter decides), and another's game is
refused. The demo's Thursday 26 November 2026: Jan de Zeeuw (black) plays Tjeerd Dijkstra
(white) in round 13."""

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from playwright.sync_api import expect

from competition.models import Game
from tests.browser.helpers import (
    ARBITER,
    MEMBER,
    WIDTHS,
    fits_the_screen,
    laid_out,
    log_in,
    screenshot,
)

pytestmark = pytest.mark.browser

AMSTERDAM = ZoneInfo("Europe/Amsterdam")
OPPONENT = ("tjeerd", "dsc-lid-2026")  # Tjeerd Dijkstra, Jan's opponent in round 13
EVENING = datetime(2026, 11, 26, 21, 0, tzinfo=AMSTERDAM)  # the games are on
LATE = datetime(2026, 11, 26, 23, 31, tzinfo=AMSTERDAM)  # the results are final


def jans_game() -> Game:
    game = Game.objects.select_related("white__member", "black__member").get(
        round__competition__kind="classical",
        round__number=13,
        black__member__name="Jan de Zeeuw",
    )
    assert game.white.name == "Tjeerd Dijkstra"
    return game


def stored(game: Game) -> str:
    return Game.objects.get(pk=game.pk).result


def another_device(browser, width, url, account, next_path="/"):
    """A second person on their own phone (or the club's tablet): a browser of their own."""
    context = browser.new_context(viewport=WIDTHS[width])
    page = context.new_page()
    log_in(page, url, account, next_path)
    return page


def enter(page, result):
    """Tap one of the big result buttons."""
    page.get_by_role("button", name=re.compile(f"^{re.escape(result)} ")).click()


def decide_list(page):
    return page.locator("article.week-decide")


def test_both_players_enter_the_same_result_and_it_stands_provisionally(
    demo, live_server, page, browser, width
):
    game = jans_game()
    url = live_server.url
    with time_machine.travel(EVENING, tick=True):
        log_in(page, url, MEMBER, "/")
        link = page.locator(".own-game-link")
        expect(link).to_contain_text(
            f"Jouw partij: bord {game.board}, Tjeerd Dijkstra – Jan de Zeeuw."
        )
        screenshot(page, "result-home-link", width)
        link.get_by_role("link", name="Uitslag doorgeven").click()
        expect(page.locator("h1")).to_have_text("Mijn partij")
        buttons = page.locator("button.result-choice")
        expect(buttons).to_have_count(3)
        laid_out(page)
        for index in range(3):  # big enough for a thumb, and the page never scrolls sideways
            assert buttons.nth(index).bounding_box()["height"] >= 48
        fits_the_screen(page)
        screenshot(page, "result-choices", width, full_page=True)
        enter(page, "0-1")
        expect(page.locator("main > .alert-success")).to_have_text(
            "Je uitslag is bewaard. Die staat als Tjeerd Dijkstra hetzelfde doorgeeft."
        )
        expect(page.locator(".own-game-reports")).to_contain_text("Jij gaf 0-1 door om 21:")
        expect(page.locator(".own-game-reports")).to_contain_text(
            "Tjeerd Dijkstra heeft nog geen uitslag doorgegeven."
        )
        assert stored(game) == ""

        tjeerd = another_device(browser, width, url, OPPONENT, "/indeling/")
        tjeerd.locator(".own-game-link").get_by_role("link", name="Uitslag doorgeven").click()
        expect(tjeerd.locator(".own-game-reports")).to_contain_text("Jan de Zeeuw gaf 0-1 door om")
        enter(tjeerd, "0-1")
        expect(tjeerd.locator("main > .alert-success")).to_have_text(
            "Jan de Zeeuw gaf dezelfde uitslag door: 0-1 staat (voorlopig tot 23:30)."
        )
        expect(tjeerd.locator(".own-game-result")).to_contain_text("De uitslag: 0-1")
        expect(tjeerd.locator("button.result-choice")).to_have_count(0)
        screenshot(tjeerd, "result-agreed", width, full_page=True)

        # On the pairing, for everyone: the result, marked provisional.
        visitor = browser.new_context(viewport=WIDTHS[width]).new_page()
        visitor.goto(f"{url}/indeling/")
        evening = visitor.locator("section.coming-round").first
        expect(evening.locator("h2 .badge")).to_have_text("voorlopig")
        row = evening.locator("table.pairing tbody tr", has_text="Jan de Zeeuw")
        expect(row.locator("td").nth(2)).to_have_text("0-1")
        expect(visitor.locator(".own-game-link")).to_have_count(0)
    assert stored(game) == "0-1"


def test_the_players_differ_and_the_arbiter_decides_on_the_start_page(
    demo, live_server, page, browser, width
):
    game = jans_game()
    url = live_server.url
    with time_machine.travel(EVENING, tick=True):
        log_in(page, url, MEMBER, f"/partij/{game.pk}/")
        enter(page, "0-1")
        expect(page.locator("main > .alert-success")).to_contain_text("Je uitslag is bewaard.")
        tjeerd = another_device(browser, width, url, OPPONENT, f"/partij/{game.pk}/")
        enter(tjeerd, "1-0")
        expect(tjeerd.locator("main > .alert-warning")).to_have_text(
            "Je uitslag is bewaard, maar Jan de Zeeuw gaf een andere door: de wedstrijdleider "
            "beslist."
        )
        expect(tjeerd.locator("main")).to_contain_text(
            "Jullie uitslagen verschillen: de wedstrijdleider beslist. Vergist? Kies opnieuw."
        )
        screenshot(tjeerd, "result-differ", width, full_page=True)
        assert stored(game) == ""

        arbiter = another_device(browser, width, url, ARBITER, "/beheer/")
        decide = decide_list(arbiter)
        expect(decide.locator("h3")).to_have_text("Uitslagen om te beslissen")
        expect(decide).to_contain_text(
            f"Ronde 13, bord {game.board}: Tjeerd Dijkstra – Jan de Zeeuw"
        )
        expect(decide).to_contain_text(
            "Tjeerd Dijkstra (wit): 1-0, doorgegeven donderdag 26 november 21:"
        )
        expect(decide).to_contain_text("Jan de Zeeuw (zwart): 0-1, doorgegeven")
        fits_the_screen(arbiter)
        screenshot(arbiter, "result-start-page", width, full_page=True)
        decide.get_by_role("button", name="0-1 vaststellen").click()
        expect(arbiter.locator("ul.messagelist")).to_contain_text(
            f"Ronde 13, bord {game.board}: 0-1."
        )
        expect(decide_list(arbiter)).to_have_count(0)
        assert stored(game) == "0-1"

        page.reload()
        expect(page.locator(".own-game-result")).to_contain_text("De uitslag: 0-1")
        expect(page.locator("button.result-choice")).to_have_count(0)


def test_only_one_player_enters_it_and_after_half_past_eleven_the_arbiter_decides(
    demo, live_server, page, browser, width
):
    game = jans_game()
    url = live_server.url
    with time_machine.travel(EVENING, tick=True):
        log_in(page, url, MEMBER, f"/partij/{game.pk}/")
        enter(page, "½-½")
        expect(page.locator("main > .alert-success")).to_contain_text("Je uitslag is bewaard.")
        arbiter = another_device(browser, width, url, ARBITER, "/beheer/")
        expect(arbiter.locator("section.this-week")).to_be_visible()
        expect(decide_list(arbiter)).to_have_count(0)  # Tjeerd may still enter it
    with time_machine.travel(LATE, tick=True):
        page.reload()
        expect(page.locator("main")).to_contain_text(
            "De uitslagen van ronde 13 zijn definitief sinds 23:30: de wedstrijdleider beslist."
        )
        expect(page.locator("button.result-choice")).to_have_count(0)
        screenshot(page, "result-too-late", width, full_page=True)

        arbiter.reload()
        decide = decide_list(arbiter)
        expect(decide).to_contain_text("Tjeerd Dijkstra (wit): niets doorgegeven")
        expect(decide).to_contain_text("Jan de Zeeuw (zwart): ½-½, doorgegeven")
        screenshot(arbiter, "result-lone", width, full_page=True)
        # The arbiter decides on the results page, where the players' entries are beside the
        # boards (a missing result needs no reason after 23:30: it changes nothing stored).
        decide.get_by_role("link", name="Uitslagenpagina").click()
        row = arbiter.locator("tr", has=arbiter.locator(f"input[name=game_{game.pk}]"))
        expect(row.locator(".player-reports")).to_have_text(
            re.compile(r"^Doorgegeven door de spelers: Jan de Zeeuw: ½-½ \(21:\d\d\)$")
        )
        fits_the_screen(arbiter)
        screenshot(arbiter, "result-results-page", width, full_page=True)
        row.locator(f"input[name=game_{game.pk}]").fill("r")
        arbiter.get_by_role("button", name="Uitslagen opslaan").click()
        expect(arbiter.locator("ul.messagelist")).to_contain_text("1 uitslag(en) opgeslagen")
        assert stored(game) == "1/2-1/2"
        # The game's history: the result's change by the arbiter, beside Jan's entry.
        arbiter.goto(f"{url}/beheer/competition/game/{game.pk}/history/")
        changes = arbiter.locator("#change-history tbody tr").first
        expect(changes).to_contain_text("wedstrijdleider")
        entries = arbiter.locator("section.player-entries tbody tr")
        expect(entries).to_have_count(1)
        for cell in ("26 november 2026 21:", "Jan de Zeeuw", "½-½", "doorgegeven", "jan"):
            expect(entries).to_contain_text(cell)
        fits_the_screen(arbiter)
        screenshot(arbiter, "result-history", width, full_page=True)


def test_a_player_cannot_enter_the_result_of_another_game(demo, live_server, page, width):
    game = jans_game()
    board_1 = Game.objects.get(round=game.round, board=1)
    assert "Jan de Zeeuw" not in (board_1.white.name, board_1.black.name)
    with time_machine.travel(EVENING, tick=True):
        log_in(page, live_server.url, MEMBER, "/indeling/")
        # Only his own game is linked.
        links = page.locator(".own-game-link a")
        expect(links).to_have_count(1)
        expect(links).to_have_attribute("href", f"/partij/{game.pk}/")
        response = page.goto(f"{live_server.url}/partij/{board_1.pk}/")
        assert response.status == 403
        expect(page.locator("h1")).to_have_text("Niet jouw partij")
        expect(page.locator(".alert-danger")).to_have_text(
            "Dit is niet jouw partij: alleen de twee spelers geven de uitslag door."
        )
        expect(page.locator("button.result-choice")).to_have_count(0)
        screenshot(page, "result-not-yours", width)
    assert stored(board_1) == ""
