"""The arbiter chooses another club's Keizer for next season's competition (issue 39,
point 3): a preset, what it means on the club's own ranking 0, then saved. Phone and desktop."""

from datetime import date

import pytest
from playwright.sync_api import expect

from competition.models import Competition, Participant
from members.models import Member
from tests.browser.helpers import ARBITER, fits_the_screen, log_in, screenshot
from tests.factories import make_competition, make_season

pytestmark = pytest.mark.browser


def test_the_arbiter_chooses_keizerforclubs_and_sees_its_values_before_saving(
    demo, live_server, page, width
):
    competition = make_competition(make_season(date(2027, 9, 2)))
    for position, member in enumerate(Member.objects.order_by("pk")[:12], start=1):
        Participant.objects.create(
            competition=competition, member=member, initial_position=position
        )
    log_in(page, live_server.url, ARBITER, f"/beheer/competitie/{competition.pk}/keizer/")
    preview = page.locator("#keizer-preview")
    expect(preview).to_contain_text("Ranglijst 0 heeft 12 spelers.")
    expect(preview).to_contain_text("Nummer 1 is 50 waard, de laatste 39.")

    page.get_by_label("voorinstelling").select_option("keizerforclubs")
    page.get_by_role("button", name="Deze voorinstelling gebruiken").click()
    # ratio 3 with 12 players: 11 × 3/2 = 16.5, to the even 16; the last 16 - 11 = 5.
    expect(preview).to_contain_text("Nummer 1 is 16 waard, de laatste 5.")
    expect(page.get_by_label("waardecijfer van nummer 1")).to_have_value("ratio:3")
    bye = preview.locator("tr", has_text="vrij (oneven)")
    expect(bye).to_contain_text("8")  # half of 16
    expect(bye).to_contain_text("2½")  # half of 5
    screenshot(page, "keizer-settings", width, full_page=True)
    fits_the_screen(page)
    assert Competition.objects.get(pk=competition.pk).variant == {}  # not saved yet

    page.get_by_role("button", name="Opslaan").click()
    expect(page.locator("ul.messagelist")).to_contain_text(
        "De Keizer-instellingen zijn opgeslagen."
    )
    assert Competition.objects.get(pk=competition.pk).variant["profile"] == "keizerforclubs"
