"""The arbiter changes the club's week (issue 40): the page shows which coming rounds move
before anything is saved, then saves. Phone and desktop."""

import pytest
from playwright.sync_api import expect

from club.models import current
from tests.browser.helpers import ARBITER, fits_the_screen, log_in, screenshot

pytestmark = pytest.mark.browser


def test_the_arbiter_moves_the_deadline_and_sees_the_rounds_that_follow(
    demo, live_server, page, width
):
    log_in(page, live_server.url, ARBITER, "/beheer/vereniging/")
    for legend in ("Wie de club is", "De week van de club", "De afspraken van de club"):
        expect(page.get_by_role("heading", name=legend)).to_be_visible()
    publication_day = page.get_by_label("Publicatie van de indeling: dag")
    expect(publication_day.locator("option:checked")).to_have_text("de dag van de afmeldtermijn")
    expect(page.get_by_label("Opkomst voor de prijzen")).to_have_value("2/3")
    changes = page.locator(".club-changes")
    expect(changes).to_contain_text("Wat het verandert voor de komende rondes")
    page.get_by_label("Afmeldtermijn: dag").select_option("3")  # Thursday, before the evening
    page.get_by_role("button", name="Laten zien wat het verandert").click()
    expect(changes.locator("tr.club-moves").first).to_contain_text("→")
    expect(changes.locator("tr.club-keeps").first).to_contain_text("houdt zijn publicatie")
    assert current().deadline_weekday == 4  # shown, not saved
    screenshot(page, "club-page", width, full_page=True)
    fits_the_screen(page)
    page.get_by_role("button", name="Opslaan", exact=True).click()
    expect(page.locator("ul.messagelist")).to_contain_text("komende rondes volgen de nieuwe week")


LOGO = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32">'
    b'<rect width="32" height="32" rx="6" fill="#c8102e"/></svg>'
)


def test_the_arbiter_uploads_the_clubs_logo_and_every_page_shows_it(demo, live_server, page, width):
    log_in(page, live_server.url, ARBITER, "/beheer/vereniging/")
    page.get_by_label("Logo").set_input_files(
        files=[{"name": "toren.svg", "mimeType": "image/svg+xml", "buffer": LOGO}]
    )
    page.get_by_role("button", name="Logo opslaan").click()
    expect(page.locator("ul.messagelist")).to_contain_text("Het logo is opgeslagen.")
    expect(page.get_by_role("img", name="het huidige logo")).to_be_visible()
    page.goto(f"{live_server.url}/ranglijst/")
    brand = page.locator(".navbar-brand")
    expect(brand).to_contain_text("DSC Drachten")
    logo = brand.locator("img.club-logo")
    expect(logo).to_be_visible()
    assert logo.evaluate("img => img.naturalWidth") == 32  # the image itself arrived
    screenshot(page, "club-logo", width)
    fits_the_screen(page)
