"""A member of a club with its own Keizer reads their rounds in its words (issue 39, point 3):
the club's own reason (*ziek*) on the player page, and how the competition counts, folded
under the standings. Phone and desktop."""

import pytest
from playwright.sync_api import expect

from competition.keizer import settings_file
from competition.models import Competition
from tests.browser.helpers import fits_the_screen, screenshot
from tests.competition.test_own_reasons import round_1_with_de_wit_ill

pytestmark = pytest.mark.browser

KEIZERFORCLUBS_ILL = settings_file.settings_from_document(
    {"profile": "keizerforclubs", "absence_fractions": {"ziek": "1/2"}}
)


def test_a_member_reads_the_clubs_reason_and_how_the_competition_counts(
    transactional_db, live_server, page, width
):
    _competition, pk = round_1_with_de_wit_ill(**Competition.values_of(KEIZERFORCLUBS_ILL))
    page.goto(f"{live_server.url}/spelers/{pk['de-wit']}/")
    rounds = page.get_by_role("table")
    expect(rounds).to_contain_text("ziek: ½ van eigen waarde")
    summary = page.locator("details.keizer-settings-summary")
    expect(summary).to_contain_text("Hoe deze competitie telt: Keizer volgens KeizerForClubs")
    reasons = summary.locator("dd", has_text="ziek ½")
    expect(reasons).to_be_hidden()  # folded until asked
    summary.locator("summary").click()
    expect(reasons).to_be_visible()
    expect(summary.locator("dt", has_text="Herwaardering")).to_be_visible()
    fits_the_screen(page)
    screenshot(page, "keizer-words-player", width, full_page=True)

    page.goto(f"{live_server.url}/ranglijst/")
    page.locator("details.keizer-settings-summary summary").click()
    expect(page.locator("details.keizer-settings-summary dd", has_text="ziek ½")).to_be_visible()
    fits_the_screen(page)
