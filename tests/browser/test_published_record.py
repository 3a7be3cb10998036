"""Nothing published changes silently (issue 24), in a real browser at phone and desktop width
on the demo (Sunday 22 November: round 13 published, its results not in yet): a late
cancellation shows on the arbiter's start page (finding 4), round 14 says what it waits for
instead of offering "Indeling maken" (8), the competition page keeps the settings and ranking
0 fixed (2), a newcomer waits for the paired round 13's results (3, issue 37), and the player
page explains the values its table uses (9)."""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from clubweek import worker
from competition.models import Competition, Game, Participant, Standing
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
    expect(card_14.locator(".week-waits")).to_have_text(
        "Ronde 14 kan nog niet ingedeeld worden: ronde 13 is niet compleet."
    )
    expect(card_14.get_by_role("button", name="Indeling maken")).to_have_count(0)
    fits_the_screen(page)
    screenshot(page, "record-start-page", width, full_page=True)

    competition = Competition.objects.get(season__name="2026-2027", kind="classical")
    page.goto(f"{url}/beheer/competition/competition/{competition.pk}/change/")
    expect(page.locator("#content-main")).to_contain_text(
        "de instellingen en ranglijst 0 liggen vast"
    )
    expect(page.locator("input[name=excused_fraction]")).to_have_count(0)

    # A newcomer who comes now waits for round 13's results (issue 37: they were sent away).
    Member.objects.create(name="Nieuw Lid", estimated_rating=1500)
    page.goto(f"{url}/beheer/competitie/{competition.pk}/nieuwe-speler/")
    expect(page.locator("input[name=joined_round]")).to_have_value("14")  # the first it can
    page.locator("select[name=member]").select_option(label="Nieuw Lid")
    page.locator("input[name=joined_round]").fill("13")
    page.get_by_role("button", name="Voorbeeld").click()
    said = page.locator(".errorlist", has_text="Ronde 13 is al ingedeeld")
    expect(said).to_contain_text("Nieuw Lid kan meedoen vanaf ronde 14")
    page.locator("input[name=joined_round]").fill("14")
    page.get_by_role("button", name="Voorbeeld").click()
    preview = page.locator(".module", has=page.get_by_role("heading", name="Voorbeeld"))
    expect(preview).to_contain_text("doet Nieuw Lid mee vanaf ronde 14")
    expect(preview).to_contain_text("en wacht op de uitslagen van ronde 13")
    expect(preview).to_contain_text("Geen gepubliceerde ranglijst verandert")
    expect(preview.locator("tr.selected")).to_contain_text("Nieuw Lid")
    fits_the_screen(page)
    screenshot(page, "record-newcomer-waits", width, full_page=True)
    before = list(Standing.objects.order_by("pk").values_list("pk", "position", "total"))
    marks = list(competition.rankings.values_list("after_round", "corrected_at"))
    page.get_by_role("button", name="Toevoegen met deze startpunten").click()
    expect(page.locator(".messagelist")).to_contain_text(
        "Nieuw Lid doet mee vanaf ronde 14 en komt vanzelf in de ranglijst zodra de uitslagen "
        "van ronde 13 binnen zijn."
    )
    assert Participant.objects.get(member__name="Nieuw Lid").joined_round == 14
    after = list(Standing.objects.order_by("pk").values_list("pk", "position", "total"))
    assert after == before  # nothing published (or stored) changed
    assert list(competition.rankings.values_list("after_round", "corrected_at")) == marks


def test_the_player_page_explains_the_values_its_table_uses(demo, live_server, page, width):
    """Ranking 12 is fully re-valued (from round 10): its own values, not the previous one's."""
    player = Participant.objects.filter(
        competition__season__name="2026-2027", competition__kind="classical"
    ).first()
    page.goto(f"{live_server.url}/spelers/{player.pk}/")
    main = page.locator("main")
    expect(main).to_contain_text(re.compile(r"die de tegenstander in ranglijst 1[23] zelf heeft"))
    assert "de vorige ranglijst" not in main.inner_text()


def test_a_change_made_behind_the_pages_waits_for_the_arbiters_reason(
    demo, live_server, page, width
):
    """Issue 35, finding 1: the players of a paired competition are shown, not offered in a
    dropdown; a change made outside the pages that ask why (here a setting changed by a
    command) is held by the worker's pass, the start page says so, its page shows who moves in
    which ranking, and the arbiter's reason corrects the rankings with it."""
    url = live_server.url
    competition = Competition.objects.get(season__name="2026-2027", kind="classical")
    log_in(page, url, ARBITER, f"/beheer/competition/competition/{competition.pk}/change/")
    players = page.locator("#participants-group")
    expect(players).to_contain_text("Jan de Zeeuw")
    expect(players.locator("select")).to_have_count(0)
    expect(players.locator("input:not([type=hidden])")).to_have_count(0)

    Competition.objects.filter(pk=competition.pk).update(excused_fraction="1/2")
    before = Standing.objects.filter(ranking__competition=competition, ranking__after_round=12)
    totals = dict(before.values_list("participant_id", "total"))
    worker.refresh_rankings(timezone.now())
    assert dict(before.values_list("participant_id", "total")) == totals  # held

    page.goto(f"{url}/beheer/")
    notice = page.get_by_role("alert").filter(has_text="gepubliceerde ranglijsten corrigeren")
    expect(notice).to_be_visible()
    notice.get_by_role("link", name="Bekijk wat er verandert").click()
    expect(page.locator("h1")).to_have_text("Een wijziging van de gepubliceerde ranglijsten")
    expect(page.locator("caption", has_text="Ranglijst 12")).to_have_count(1)
    fits_the_screen(page)
    screenshot(page, "held-change", width, full_page=True)
    reason = page.get_by_label("Reden van de correctie")
    expect(reason).to_have_attribute("required", "")  # no correction without a reason
    reason.fill("Afgemeld telt voortaan voor de helft")
    page.get_by_role("button", name="Ranglijsten corrigeren").click()
    expect(page.locator(".messagelist")).to_contain_text("De ranglijsten zijn gecorrigeerd")
    assert dict(before.values_list("participant_id", "total")) != totals

    page.goto(f"{url}/ranglijst/12/")
    expect(page.locator(".correction")).to_contain_text("Afgemeld telt voortaan voor de helft")
