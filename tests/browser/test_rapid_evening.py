"""The rapid evening in a real browser, at phone, tablet and desktop width: three rounds of
the demo's rapid competition run from one page (taps on a tablet, the keyboard on a desktop),
and what is stored is what was entered."""

from fractions import Fraction

import pytest
from playwright.sync_api import expect

from competition.models import Absence, Competition
from tests.browser.helpers import ARBITER, SCREENSHOTS, fits_the_screen
from tests.browser.test_security import VIOLATIONS_TO_PYTHON

pytestmark = pytest.mark.browser

SIZES = {
    "phone": {"width": 390, "height": 844},
    "tablet": {"width": 820, "height": 1180},
    "desktop": {"width": 1280, "height": 900},
}
# What the arbiter enters on board 1, 2, 3, 4, ...: white wins, a draw, black wins, again.
TAPPED = ["1-0", "½-½", "0-1"]  # the buttons' labels
TYPED = ["1", "r", "0"]  # the keyboard's shortcuts for the same results
STORED = ["1-0", "1/2-1/2", "0-1"]  # what the site stores for each, by the rules' notation
GUEST = "Klaas Bosch"  # one of the demo's two rapid guests: leaves after round 10


@pytest.fixture(params=SIZES)
def size(request, page):
    page.set_viewport_size(SIZES[request.param])
    SCREENSHOTS.mkdir(exist_ok=True)
    return request.param


def tap_results(page, boards):
    for board in range(1, boards + 1):
        button = page.get_by_role("button", name=f"Bord {board}: {TAPPED[(board - 1) % 3]}")
        button.click()
        expect(button).to_have_attribute("aria-pressed", "true")


def type_results(page, boards):
    """As on the results page: the cursor starts on board 1; a result, Tab, the next board
    (the tap buttons are no tab stops). Each key is seen in its field before the next."""
    fields = page.locator("input[name^=game_]")
    for number in range(boards):
        expect(fields.nth(number)).to_be_focused()
        typed = TYPED[number % 3]
        page.keyboard.type(typed)
        expect(fields.nth(number)).to_have_value(typed)
        if number < boards - 1:
            page.keyboard.press("Tab")


def stored_results(rapid, number):
    return list(
        rapid.rounds.get(number=number).games.order_by("board").values_list("result", flat=True)
    )


def test_the_arbiter_runs_three_rapid_rounds_from_one_page(demo, live_server, page, size):
    rapid = Competition.objects.get(kind=Competition.Kind.RAPID, season__is_closed=False)
    # The page's script and styles work under the Content-Security-Policy, at every step.
    refused = []
    page.expose_function("reportViolation", lambda text: refused.append(text))
    page.add_init_script(VIOLATIONS_TO_PYTHON)
    page.on("pageerror", lambda error: refused.append(f"script error: {error}"))
    page.goto(f"{live_server.url}/beheer/")
    page.get_by_label("Gebruikersnaam").fill(ARBITER[0])
    page.get_by_label("Wachtwoord").fill(ARBITER[1])
    page.get_by_role("button", name="Inloggen").click()
    page.get_by_role("link", name="Rapidavond").click()
    address = f"{live_server.url}/beheer/competitie/{rapid.pk}/rapidavond/"
    expect(page).to_have_url(address)
    expect(page.locator("h1")).to_have_text("Rapidavond zondag 22 november 2026")
    expect(page.get_by_text("Nieuwe rapidavond: nog geen ronden op deze avond.")).to_be_visible()
    expect(page.get_by_text("Aanwezig in ronde 10: 20 van 20")).to_be_visible()
    fits_the_screen(page)
    page.screenshot(path=str(SCREENSHOTS / f"rapid-evening-new-{size}.png"), full_page=True)

    # Round 10: everyone is here. One tap pairs and publishes it; the boards appear here.
    page.get_by_role("button", name="Indeling maken: ronde 10").click()
    expect(page.locator(".messagelist .success")).to_contain_text(
        "Ronde 10 is ingedeeld en gepubliceerd: 10 bord(en)."
    )
    assert page.url == address
    expect(page.locator("#boards-title")).to_have_text("Ronde 10: uitslagen")
    tap = page.get_by_role("button", name="Bord 1: 1-0")
    assert tap.bounding_box()["height"] >= 44  # a target for a finger
    # The keys to type only where a keyboard is likely: not above a phone's tap buttons.
    hint = page.locator(".evening-boards").get_by_text("Tab gaat naar het volgende bord")
    expect(hint).to_be_hidden() if size == "phone" else expect(hint).to_be_visible()
    fits_the_screen(page)
    tap_results(page, 10)
    page.screenshot(path=str(SCREENSHOTS / f"rapid-evening-results-{size}.png"), full_page=True)

    # Klaas Bosch leaves after round 10: marked once, before the next round is paired.
    page.locator("#presence-title").click()  # opens the presence list
    page.locator(".evening-presence").get_by_label(GUEST).select_option(label="op tijd afgemeld")
    page.get_by_role("button", name="Opslaan en volgende ronde indelen").click()
    expect(page.locator(".messagelist .success")).to_contain_text(
        "Uitslagen van ronde 10 opgeslagen. Ronde 11 is ingedeeld en gepubliceerd: 9 bord(en)."
    )
    assert page.url == address
    assert stored_results(rapid, 10) == [STORED[i % 3] for i in range(10)]
    expect(page.locator(".evening-bye")).to_contain_text("Vrij (oneven): ")

    # Round 11 by keyboard: Enter after the last board saves and pairs round 12.
    type_results(page, 9)
    page.keyboard.press("Enter")
    expect(page.locator("#boards-title")).to_have_text("Ronde 12: uitslagen")
    assert page.url == address
    assert stored_results(rapid, 11) == [STORED[i % 3] for i in range(9)]
    expect(page.get_by_text("Aanwezig in ronde 13: 19 van 20")).to_be_attached()

    # Round 12, the last of the evening: the results only.
    tap_results(page, 9)
    page.get_by_role("button", name="Uitslagen opslaan").click()
    expect(page.locator(".messagelist .success")).to_contain_text("9 uitslag(en) opgeslagen")
    assert page.url == address
    expect(page.get_by_role("button", name="Indeling maken: ronde 13")).to_be_visible()
    expect(page.locator(".evening-rounds")).to_contain_text("Ronde 12: 9/9")
    fits_the_screen(page)
    page.screenshot(path=str(SCREENSHOTS / f"rapid-evening-done-{size}.png"), full_page=True)

    # Stored as entered: the guest was absent in rounds 11 and 12 (carried), in time; every
    # game of round 12 scores by the rules' table with the values ranking 12 was computed with.
    klaas = rapid.participants.get(guest_name=GUEST)
    for number in (11, 12):
        absences = rapid.rounds.get(number=number).absences
        assert list(absences.values_list("participant", "reason")) == [
            (klaas.pk, Absence.Reason.EXCUSED)
        ]
    ranking = rapid.rankings.get(after_round=12)
    standing = {s.participant_id: s for s in ranking.standings.all()}
    assert (
        standing[klaas.pk].round_points[10:]
        == [Fraction(standing[klaas.pk].valuation_value, 3)] * 2
    )
    for game in rapid.rounds.get(number=12).games.all():
        white, black = standing[game.white_id], standing[game.black_id]
        share = {"1-0": (1, 0), "1/2-1/2": (Fraction(1, 2), Fraction(1, 2)), "0-1": (0, 1)}
        white_share, black_share = share[game.result]
        assert white.round_points[11] == white_share * black.valuation_value
        assert black.round_points[11] == black_share * white.valuation_value

    assert refused == []
    page.goto(f"{live_server.url}/rapid/ranglijst/")
    expect(page.locator("main")).to_contain_text("Ranglijst 12, na ronde 12.")
