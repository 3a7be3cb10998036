"""Nothing published changes silently (issue 24), in a real browser at phone and desktop width
on the demo (Sunday 22 November: round 13 published, its results not in yet): a late
cancellation shows on the arbiter's start page (finding 4), round 14 says what it waits for
instead of offering "Indeling maken" (8), the competition page keeps the settings and ranking
0 fixed (2), a newcomer cannot join the paired round 13 (3), and the player page explains the
values its table uses (9)."""

import re

import pytest
from playwright.sync_api import expect

from competition.models import Competition, Game, Participant
from members.models import Member
from tests.browser.helpers import ARBITER, MEMBER, fits_the_screen, log_in, screenshot

pytestmark = pytest.mark.browser


def test_the_arbiters_pages_keep_the_published_record_and_say_what_happened(
    demo, live_server, page, browser, width
):
    url = live_server.url
    # Jan cancels round 13 after its publication: a forfeit.
    member = browser.new_context(viewport=page.viewport_size).new_page()
    log_in(member, url, MEMBER, "/afmelden/")
    member.locator(".form-check", has_text="Ronde 13,").get_by_role("checkbox").check()
    member.get_by_role("button", name="Laat zien wat er gebeurt").click()
    member.get_by_role("button", name="Bevestigen").click()
    expect(member.locator(".alert-success")).to_contain_text("Ronde 13")
    assert Game.objects.filter(
        round__number=13, round__competition__kind="classical", result__endswith="F"
    ).exists()

    log_in(page, url, ARBITER, "/beheer/")
    card_13 = page.locator("article.week-round", has_text="Ronde 13,")
    expect(card_13).to_contain_text("Jan de Zeeuw – reglementair verloren")
    assert "Niemand heeft zich afgemeld" not in card_13.inner_text()
    card_14 = page.locator("article.week-round", has_text="Ronde 14,")
    expect(card_14).to_contain_text("Nog niet in te delen: Ronde 14 kan nog niet ingedeeld")
    expect(card_14.get_by_role("button", name="Indeling maken")).to_have_count(0)
    fits_the_screen(page)
    screenshot(page, "record-start-page", width, full_page=True)

    competition = Competition.objects.get(season__name="2026-2027", kind="classical")
    page.goto(f"{url}/beheer/competition/competition/{competition.pk}/change/")
    expect(page.locator("#content-main")).to_contain_text(
        "de instellingen en ranglijst 0 liggen vast"
    )
    expect(page.locator("input[name=excused_fraction]")).to_have_count(0)

    Member.objects.create(name="Nieuw Lid", estimated_rating=1500)
    page.goto(f"{url}/beheer/competitie/{competition.pk}/nieuwe-speler/")
    page.locator("select[name=member]").select_option(label="Nieuw Lid")
    page.locator("input[name=joined_round]").fill("13")
    page.get_by_role("button", name="Voorbeeld").click()
    said = page.locator(".errorlist", has_text="Ronde 13 is al ingedeeld")
    expect(said).to_have_count(1)
    expect(said).to_contain_text("Nieuw Lid doet mee vanaf ronde 14")
    assert not Participant.objects.filter(member__name="Nieuw Lid").exists()


def test_the_player_page_explains_the_values_its_table_uses(demo, live_server, page, width):
    """Ranking 12 is fully re-valued (from round 10): its own values, not the previous one's."""
    player = Participant.objects.filter(
        competition__season__name="2026-2027", competition__kind="classical"
    ).first()
    page.goto(f"{live_server.url}/spelers/{player.pk}/")
    main = page.locator("main")
    expect(main).to_contain_text(re.compile(r"met de waarden van ranglijst 1[23] zelf"))
    assert "de vorige ranglijst" not in main.inner_text()
