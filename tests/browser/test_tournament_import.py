"""A club moving from KeizerForClubs brings its tournament (issue 39, point 4): the arbiter
uploads the file, reads what the site found in it, imports it and sees the standings with
KeizerForClubs' numbers. Phone and desktop."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import ARBITER, fits_the_screen, log_in, screenshot
from tests.competition.keizer.kfc_files import tournament_file

pytestmark = pytest.mark.browser


def test_the_arbiter_imports_a_keizerforclubs_tournament(demo, live_server, page, width, tmp_path):
    log_in(page, live_server.url, ARBITER, "/beheer/seizoen/keizerforclubs/")
    page.get_by_label("KeizerForClubs-toernooi").set_input_files(str(tournament_file(tmp_path)))
    page.get_by_label("Seizoen").fill("2019-2020")
    page.get_by_label("Eerste clubavond").fill("05-09-2019")
    page.get_by_role("button", name="Laten zien wat erin staat").click()
    preview = page.locator(".tournament-preview")
    expect(preview).to_contain_text("9 spelers en 5 rondes met uitslagen.")
    expect(preview).to_contain_text("seizoen 2019-2020, een ronde per week vanaf donderdag 5")
    expect(preview).to_contain_text(
        "Alle 48 punten per ronde en totalen zijn die van KeizerForClubs"
    )
    expect(preview.locator("ol.tournament-players li").first).to_have_text("Amurru")
    screenshot(page, "tournament-import", width, full_page=True)
    fits_the_screen(page)

    page.get_by_role("button", name="Inlezen").click()
    expect(page.locator("ul.messagelist")).to_contain_text(
        "Het toernooi is ingelezen: 9 spelers, 5 rondes."
    )
    page.goto(f"{live_server.url}/ranglijst/?seizoen=2019-2020")
    # KeizerForClubs stored Amurru's total as 37.5 after round 5 (Player.Keizer_SumPts).
    expect(page.locator("table.standings tbody tr").first).to_contain_text("Amurru")
    expect(page.locator("table.standings tbody tr").first).to_contain_text("37½")
