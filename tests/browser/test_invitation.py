"""Every member in (issue 23), in a real browser at phone and desktop width: the arbiter invites
everyone without a login in one action; a member follows the invitation, chooses a password,
cancels for the first time and enters a result on the evening; another cancels from the
pairing e-mail's link without a password (after publication: the forfeit shown in red first).
The demo's Sunday 22 November 2026: round 13 is published and played on Thursday 26."""

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.utils import timezone
from playwright.sync_api import expect

from clubweek import pairing_mail
from competition.models import Absence, Game, ResultReport, Round
from members import accounts
from members.models import Member
from tests.browser.helpers import (
    ARBITER,
    BOUND,
    WIDTHS,
    fits_the_screen,
    local,
    log_in,
    screenshot,
)

pytestmark = pytest.mark.browser

AMSTERDAM = ZoneInfo("Europe/Amsterdam")
EVENING = datetime(2026, 11, 26, 21, 0, tzinfo=AMSTERDAM)  # round 13's games are on
PASSWORD = "mijn-eigen-wachtwoord-26"


def round_13() -> Round:
    return Round.objects.get(competition__kind="classical", number=13)


def a_player_without_a_login(exclude=()) -> tuple[Game, Member]:
    """A member seated in round 13 with an address and no account yet."""
    for game in round_13().games.select_related("white__member", "black__member"):
        for player in (game.white, game.black):
            member = player.member
            if member and member.email and member.user_id is None and member.pk not in exclude:
                return game, member
    raise AssertionError("the demo has such a member")


def test_the_arbiter_invites_everyone_and_a_member_gets_in_cancels_and_enters_a_result(
    demo, live_server, page, browser, width, mailoutbox
):
    url = live_server.url
    without_login = accounts.not_yet_in()
    game, member = a_player_without_a_login()
    assert member in without_login

    # The arbiter: the member list says who is not invited; one action invites them all.
    log_in(page, url, ARBITER, "/beheer/members/member/")
    row = page.locator("#result_list tr", has_text=member.name)
    expect(row).to_contain_text("niet uitgenodigd")
    page.get_by_role("link", name="Iedereen zonder account uitnodigen").click()
    expect(page.locator("main, #content").first).to_contain_text(
        f"{len(without_login)} leden krijgen een uitnodiging per e-mail"
    )
    screenshot(page, "invite-all", width, full_page=True)
    page.get_by_role("button", name="Uitnodigingen versturen").click()
    expect(page.locator(".messagelist")).to_contain_text(
        f"{len(without_login)} uitnodigingen verstuurd."
    )
    assert sorted(m.to[0] for m in mailoutbox) == sorted(m.email for m in without_login)
    expect(page.locator("#result_list tr", has_text=member.name)).to_contain_text("uitgenodigd op")
    screenshot(page, "member-list", width)

    # The member, on their own phone: from the e-mail to a password, logged in at once.
    invitation = next(m for m in mailoutbox if m.to == [member.email])
    link = re.search(r"https?://\S+/welkom/\S+/", invitation.body)[0]
    own_phone = browser.new_context(viewport=WIDTHS[width])
    own_phone.set_default_timeout(BOUND)
    phone = own_phone.new_page()
    phone.goto(url + local(link))
    expect(phone.locator("h1")).to_have_text("Welkom op de competitiesite van DSC")
    fits_the_screen(phone)
    screenshot(phone, "invitation", width, full_page=True)
    phone.get_by_label("Nieuw wachtwoord").first.fill(PASSWORD)
    phone.get_by_label("Nieuw wachtwoord bevestigen").fill(PASSWORD)
    phone.get_by_role("button", name="Wachtwoord opslaan").click()
    expect(phone.locator(".alert-success")).to_contain_text("Welkom! Je wachtwoord is opgeslagen")
    expect(phone.locator("h1")).to_have_text(f"Mijn afmeldingen: {member.name}")

    # The first cancellation: round 14, in time.
    phone.locator(".form-check", has_text="Ronde 14,").get_by_role("checkbox").check()
    phone.get_by_role("button", name="Laat zien wat er gebeurt").click()
    expect(phone.locator("section.preview")).to_contain_text("Op tijd afgemeld")
    phone.get_by_role("button", name="Bevestigen").click()
    expect(phone.locator(".alert-success", has_text="Ronde 14: Op tijd afgemeld")).to_be_visible()
    assert Absence.objects.filter(participant__member=member, round__number=14).exists()

    # The arbiter sees who activated.
    page.reload()
    expect(page.locator("#result_list tr", has_text=member.name)).to_contain_text("actief sinds")

    # On the evening: the home page shows the game; the member enters the result.
    with time_machine.travel(EVENING, tick=True):
        phone.goto(f"{url}/")
        phone.locator(".own-game-link").get_by_role("link", name="Uitslag doorgeven").click()
        expect(phone.locator("h1")).to_have_text("Mijn partij")
        phone.get_by_role("button", name=re.compile(r"^½-½ ")).click()
        expect(phone.locator("main > .alert-success")).to_contain_text("Je uitslag is bewaard.")
    report = ResultReport.objects.get(game=game)
    assert report.participant.member == member and report.result == Game.Result.DRAW


def test_a_member_cancels_from_the_pairing_email_without_a_password(
    demo, live_server, page, width, mailoutbox
):
    game, member = a_player_without_a_login()
    pairing_mail.pairing(round_13())  # as the worker sent it on Friday
    mine = next(m for m in mailoutbox if m.to == [member.email])
    link = re.search(r"Ik kan niet komen: (\S+)", mine.body)[1]
    page.goto(live_server.url + local(link))
    expect(page.locator("h1")).to_contain_text(f"Ronde 13, donderdag 26 november: {member.name}")
    preview = page.locator("section.preview")
    expect(preview).to_contain_text("reglementair")  # after publication: a forfeit, in red
    expect(preview).to_have_class(re.compile(r"alert-danger"))
    assert not Game.objects.get(pk=game.pk).result
    fits_the_screen(page)
    screenshot(page, "cancel-by-link", width, full_page=True)
    page.get_by_role("button", name="Bevestigen").click()
    expect(page.locator(".alert-success")).to_contain_text("Gedaan:")
    assert Game.objects.get(pk=game.pk).result in (
        Game.Result.WHITE_WINS_BY_FORFEIT,
        Game.Result.BLACK_WINS_BY_FORFEIT,
    )
    # No login came with it.
    page.goto(f"{live_server.url}/profiel/")
    expect(page).to_have_url(re.compile(r"/accounts/login/"))


def test_a_member_is_told_in_dutch_why_a_password_is_too_short_and_then_gets_in(
    demo, live_server, page, width, mailoutbox
):
    """Issue 35, finding 8: the rules stand under the field before anything is typed; a password
    of 8 characters is refused with the reason, a good one is taken."""
    _game, member = a_player_without_a_login()
    accounts.invite([member], timezone.now())
    [invitation] = mailoutbox
    page.goto(live_server.url + local(re.search(r"https?://\S+/welkom/\S+/", invitation.body)[0]))
    rules = page.locator("#id_new_password1_helptext li")
    expect(rules).to_have_text(
        [
            "Je wachtwoord heeft minstens 10 tekens.",
            "Het is geen veelgebruikt wachtwoord.",
            "Het lijkt niet op je naam, gebruikersnaam of e-mailadres.",
            "Het bestaat niet alleen uit cijfers.",
        ]
    )
    type_and_save(page, "dsc12345")
    again = page.get_by_label("Nieuw wachtwoord bevestigen")
    expect(page.locator("#id_new_password2_error")).to_have_text(
        "Dit wachtwoord is te kort: het moet minstens 10 tekens hebben."
    )
    expect(again).to_have_attribute("aria-invalid", "true")
    expect(rules.first).to_be_visible()
    fits_the_screen(page)
    screenshot(page, "password-too-short", width, full_page=True)
    assert not Member.objects.get(pk=member.pk).user.has_usable_password()
    type_and_save(page, PASSWORD)
    expect(page.locator(".alert-success")).to_contain_text("Welkom! Je wachtwoord is opgeslagen")
    assert Member.objects.get(pk=member.pk).user.check_password(PASSWORD)


def type_and_save(page, password: str) -> None:
    """Type the password twice and save; returns once the answer has loaded."""
    page.get_by_label("Nieuw wachtwoord").first.fill(password)
    page.get_by_label("Nieuw wachtwoord bevestigen").fill(password)
    with page.expect_navigation():
        page.get_by_role("button", name="Wachtwoord opslaan").click()


def test_a_cancellation_link_sent_to_an_earlier_address_says_what_to_do_instead(
    demo, live_server, page, width, mailoutbox
):
    """Issue 35, finding 6: the member's address changed after the pairing e-mail; its link
    no longer acts, and the page says how to get in instead."""
    game, member = a_player_without_a_login()
    pairing_mail.pairing(round_13())  # as the worker sent it on Friday
    mine = next(m for m in mailoutbox if m.to == [member.email])
    link = re.search(r"Ik kan niet komen: (\S+)", mine.body)[1]
    Member.objects.filter(pk=member.pk).update(email="nieuw.adres@example.org")
    page.goto(live_server.url + local(link))
    expect(page.locator("h1")).to_have_text("Deze link werkt niet meer")
    expect(page.locator(".alert-warning")).to_contain_text("eerder e-mailadres")
    expect(page.get_by_role("link", name="Inloggen", exact=True).last).to_have_attribute(
        "href", "/accounts/login/?next=/afmelden/"
    )
    expect(page.get_by_role("link", name="wedstrijdleider@dscdrachten.nl")).to_be_visible()
    fits_the_screen(page)
    screenshot(page, "link-outdated", width, full_page=True)
    assert not Game.objects.get(pk=game.pk).result
