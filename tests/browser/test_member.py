"""A member's week in a real browser, at phone and desktop width: cancel in time for several
evenings (changing the selection after the preview), register again, cancel late after the
pairing is published, and choose which e-mails to get."""

import re
from datetime import date
from fractions import Fraction

import pytest
import time_machine
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import expect

from absences.models import Registration
from competition import services
from competition.models import Absence, Round, Standing
from members.models import Member
from tests.browser.accessibility import violations
from tests.browser.helpers import MEMBER, fits_the_screen, local, log_in, open_menu, screenshot
from tests.moments import at

pytestmark = pytest.mark.browser
THIRDS = {"": Fraction(0), "⅓": Fraction(1, 3), "⅔": Fraction(2, 3)}
FRIDAY_27 = date(2026, 11, 27)  # the day after round 13; round 14's deadline is at 18:00


def evening(page, number):
    return page.locator(".form-check", has_text=f"Ronde {number},")


def show(page):
    page.get_by_role("button", name="Laat zien wat er gebeurt").click()
    return page.locator("section.preview")


def fits_with_the_preview_in_reach(page):
    """Nothing sticks out sideways, and the (sticky) preview button is in reach without
    scrolling."""
    fits_the_screen(page)
    expect(page.get_by_role("button", name="Laat zien wat er gebeurt")).to_be_in_viewport(ratio=1)


def test_a_member_cancels_changes_their_mind_and_registers_again(demo, live_server, page, width):
    jan = Member.objects.get(name="Jan de Zeeuw")
    log_in(page, live_server.url, MEMBER, "/afmelden/")
    expect(page.locator("h1")).to_have_text("Mijn afmeldingen: Jan de Zeeuw", use_inner_text=True)
    # Round 14's deadline is Friday 27 November 18:00: cancelling for it is timely.
    assert "afmelden tot vr 27 november 18:00" in evening(page, 14).inner_text()
    fits_with_the_preview_in_reach(page)
    screenshot(page, "member-evenings", width)

    # Several evenings at once; the preview says what each means, in points.
    evening(page, 14).get_by_role("checkbox").check()
    evening(page, 15).get_by_role("checkbox").check()
    preview = show(page).inner_text()
    value = Standing.objects.filter(participant__member=jan).latest("ranking__after_round").value
    said = re.search(r"Op tijd afgemeld: ⅓ van je waarde (\d+) = (\d*)([⅓⅔]?) punten\.", preview)
    assert said, preview
    assert int(said[1]) == value
    assert int(said[2] or 0) + THIRDS[said[3]] == Fraction(value, 3)
    assert "Ronde 14:" in preview and "Ronde 15:" in preview
    screenshot(page, "member-preview", width, full_page=True)

    # Changing the selection after the preview: Bevestigen shows the preview again.
    evening(page, 15).get_by_role("checkbox").uncheck()
    page.get_by_role("button", name="Bevestigen").click()
    expect(page.locator("main")).to_contain_text("Je keuze wijkt af van wat je zag")
    preview = page.locator("section.preview").inner_text()
    assert "Ronde 14:" in preview and "Ronde 15:" not in preview
    assert not Absence.objects.filter(participant__member=jan, round__number__in=[14, 15]).exists()

    page.get_by_role("button", name="Bevestigen").click()
    expect(page.locator(".alert-success", has_text="Ronde 14: Op tijd afgemeld")).to_be_visible()
    assert "op tijd afgemeld" in evening(page, 14).inner_text()
    # Said what follows, and what can still be done (issue 37).
    expect(page.locator(".alert-info")).to_have_text(
        "Je krijgt een bevestiging per e-mail (jan.de.zeeuw@example.org)."
    )
    expect(evening(page, 14)).to_contain_text("weer aanmelden tot vr 27 november 18:00")
    assert set(
        Absence.objects.filter(participant__member=jan, round__number__gte=14).values_list(
            "round__number", flat=True
        )
    ) == {14}

    # Registering again needs no reason; the evening is open again.
    page.get_by_label("weer aanmelden", exact=True).check()
    assert page.get_by_label("Reden").is_hidden()
    evening(page, 14).get_by_role("checkbox").check()
    assert "Weer aangemeld: je wordt ingedeeld." in show(page).inner_text()
    page.get_by_role("button", name="Bevestigen").click()
    expect(evening(page, 14)).to_contain_text("aangemeld")  # the page the form led to
    expect(page.locator(".alert-success", has_text="Ronde 14")).to_be_visible()
    assert not Absence.objects.filter(participant__member=jan, round__number=14).exists()
    screenshot(page, "member-registered", width, full_page=True)


def test_a_member_cancels_after_the_pairing_is_published(demo, live_server, page, width):
    jan = Member.objects.get(name="Jan de Zeeuw")
    round_13 = Round.objects.get(number=13)
    game = (
        round_13.games.select_related("white__member", "black__member").get(white__member=jan)
        if round_13.games.filter(white__member=jan).exists()
        else round_13.games.get(black__member=jan)
    )
    colour, opponent = ("wit", game.black) if game.white.member == jan else ("zwart", game.white)
    log_in(page, live_server.url, MEMBER, "/afmelden/")
    # The published pairing is on the page: board, colour and opponent.
    assert f"Bord {game.board}, {colour} tegen {opponent.name}" in evening(page, 13).inner_text()
    assert "indeling gepubliceerd: nu afmelden is reglementair verlies" in (
        evening(page, 13).inner_text()
    )
    evening(page, 13).get_by_role("checkbox").check()
    preview = show(page)
    assert f"0 punten, {opponent.name} wint reglementair en krijgt een e-mail" in (
        preview.inner_text()
    )
    confirm = page.get_by_role("button", name="Bevestigen")
    assert "btn-danger" in confirm.get_attribute("class")
    # Bootstrap's danger red, not the primary blue.
    expect(confirm).to_have_css("background-color", "rgb(220, 53, 69)")  # once the CSS is in
    screenshot(page, "member-late", width, full_page=True)
    confirm.click()
    expect(page.locator(".alert-success", has_text="Ronde 13")).to_be_visible()
    game.refresh_from_db()
    assert game.result == ("0-1F" if colour == "wit" else "1-0F")
    assert Registration.objects.get(member=jan, round=round_13).outcome == "forfeit"


def test_a_member_chooses_their_e_mails(demo, live_server, page, width):
    log_in(page, live_server.url, MEMBER, "/")
    open_menu(page, width)
    page.get_by_role("link", name="Mijn profiel").click()
    expect(page.locator("h1")).to_have_text("Mijn profiel: Jan de Zeeuw", use_inner_text=True)
    assert page.get_by_label("De indeling").is_checked()
    page.get_by_label("De indeling").uncheck()
    page.get_by_label("De nieuwe ranglijst").check()
    page.get_by_role("button", name="Opslaan").click()
    assert page.locator(".alert-success").inner_text() == "Je keuze van e-mails is opgeslagen."
    assert not page.get_by_label("De indeling").is_checked()
    jan = Member.objects.get(name="Jan de Zeeuw")
    assert (jan.mail_pairing, jan.mail_confirmations, jan.mail_ranking) == (False, True, True)
    screenshot(page, "member-profile", width, full_page=True)


def test_a_member_subscribes_to_their_calendar_and_renews_the_link(demo, live_server, page, width):
    """The profile shows the member's own calendar link; the feed behind it holds Jan's game
    of round 13; a new link makes the old one stop working (fetched through the page's own
    browser context)."""
    jan = Member.objects.get(name="Jan de Zeeuw")
    round_13 = Round.objects.get(number=13)
    game = round_13.games.filter(white__member=jan).first() or round_13.games.get(black__member=jan)
    colour, opponent = ("wit", game.black) if game.white.member == jan else ("zwart", game.white)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    log_in(page, live_server.url, MEMBER, "/profiel/")
    section = page.locator("section.calendar-feed")
    expect(section.get_by_role("heading", name="In je agenda")).to_be_visible()
    field = section.get_by_label("Of kopieer je link naar je agenda-app")
    old_link = field.input_value()
    assert old_link == f"http://127.0.0.1:8000/kalender/{jan.calendar_token}.ics"
    subscribe = section.get_by_role("link", name="Zet in mijn agenda")
    assert subscribe.get_attribute("href") == "webcal:" + old_link.split(":", 1)[1]
    # The whole link is in sight (wrapped on a phone), and "Kopiëren" copies it.
    fits_the_screen(page)
    assert field.evaluate("f => f.scrollHeight <= f.clientHeight && f.scrollWidth <= f.clientWidth")
    copy = section.get_by_role("button", name="Kopiëren")
    copy.click()
    expect(section.get_by_role("button", name="Gekopieerd")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == old_link
    old_path = old_link.removeprefix("http://127.0.0.1:8000")
    feed = page.request.get(live_server.url + old_path)
    assert feed.ok and feed.headers["content-type"] == "text/calendar; charset=utf-8"
    text = feed.text().replace("\r\n ", "")  # unfolded
    assert (
        f"SUMMARY:DSC clubavond ronde 13: Bord {game.board}\\, {colour} tegen {opponent.name}"
        in (text)
    )
    screenshot(page, "member-calendar-link", width, full_page=True)

    section.get_by_role("button", name="Nieuwe link maken").click()
    expect(page.locator(".alert-success")).to_have_text(
        "Je nieuwe agendalink staat hieronder; de oude werkt niet meer."
    )
    new_link = (
        page.locator("section.calendar-feed")
        .get_by_label("Of kopieer je link naar je agenda-app")
        .input_value()
    )
    jan.refresh_from_db()
    assert new_link != old_link and new_link.endswith(f"/kalender/{jan.calendar_token}.ics")
    assert page.request.get(live_server.url + old_path).status == 404
    assert page.request.get(live_server.url + new_link.removeprefix("http://127.0.0.1:8000")).ok
    screenshot(page, "member-calendar-renewed", width)


def test_a_member_changes_their_address_and_password_on_the_profile(
    demo, live_server, page, width, mailoutbox
):
    """Issue 23, point 3: a new address is confirmed by a link sent to it; the old one is told;
    a new password works at the next login."""
    log_in(page, live_server.url, MEMBER, "/profiel/")
    page.get_by_label("Een herinnering op vrijdagochtend").check()
    page.get_by_role("button", name="Opslaan").click()
    expect(page.locator(".alert-success")).to_contain_text("Je keuze van e-mails is opgeslagen.")
    assert Member.objects.get(name="Jan de Zeeuw").mail_reminder

    old = Member.objects.get(name="Jan de Zeeuw").email
    page.get_by_label("Nieuw e-mailadres").fill("jan.nieuw@example.org")
    page.get_by_role("button", name="Bevestigingslink sturen").click()
    expect(page.locator(".alert-success")).to_contain_text("jan.nieuw@example.org")
    screenshot(page, "member-profile-account", width, full_page=True)
    [confirmation] = [m for m in mailoutbox if m.to == ["jan.nieuw@example.org"]]
    link = re.search(r"https?://\S+(/profiel/e-mail/bevestigen/\S+)", confirmation.body)[1]
    page.goto(live_server.url + link)
    expect(page.locator("main")).to_contain_text("jan.nieuw@example.org")
    page.get_by_role("button", name="Bevestigen").click()
    expect(page.locator(".alert-success")).to_contain_text("Gedaan: je e-mails gaan nu naar")
    assert Member.objects.get(name="Jan de Zeeuw").email == "jan.nieuw@example.org"
    assert any(m.to == [old] for m in mailoutbox)  # the old address is told

    page.goto(f"{live_server.url}/profiel/")
    page.get_by_role("link", name="Mijn wachtwoord wijzigen").click()
    page.get_by_label("Oud wachtwoord").fill(MEMBER[1])
    page.get_by_label("Nieuw wachtwoord", exact=False).first.fill("een-nieuw-wachtwoord-26")
    page.get_by_label("Nieuw wachtwoord bevestigen").fill("een-nieuw-wachtwoord-26")
    page.get_by_role("button", name="Wachtwoord opslaan").click()
    expect(page.locator(".alert-success")).to_contain_text("Je nieuwe wachtwoord is opgeslagen.")
    fits_the_screen(page)


def test_ik_kom_toch_after_an_early_publication_says_what_is_true_and_names_the_arbiter(
    demo, live_server, page, width, mailoutbox
):
    """Issue 35, finding 12. Round 13 was played on Thursday 26 November. On Friday 27 at
    09:00 Jan cancels for round 14 in time; at 10:00 the arbiter publishes round 14's pairing
    early. Jan's "Ik kom toch" from the confirmation then says that the pairing is fixed, that
    he stays cancelled in time and that only the arbiter can change it, with the arbiter's
    address to write to (or a reply to the confirmation), and offers no Bevestigen."""
    jan = Member.objects.get(name="Jan de Zeeuw")
    rounds = Round.objects.filter(competition__kind="classical")
    round_13, round_14 = rounds.get(number=13), rounds.get(number=14)
    services.enter_results(round_13, {game.pk: "1-0" for game in round_13.games.all()})
    with time_machine.travel(at(9, day=FRIDAY_27), tick=True):
        log_in(page, live_server.url, MEMBER, "/afmelden/")
        evening(page, 14).get_by_role("checkbox").check()
        expect(show(page)).to_contain_text("Op tijd afgemeld")
        page.get_by_role("button", name="Bevestigen").click()
        expect(
            page.locator(".alert-success", has_text="Ronde 14: Op tijd afgemeld")
        ).to_be_visible()
    [confirmation] = [m for m in mailoutbox if m.to == [jan.email]]
    back = re.search(r"Ik kom toch: (\S+)", confirmation.body)[1]

    with time_machine.travel(at(10, day=FRIDAY_27), tick=True):
        services.make_pairing(round_14)
        assert services.publish(round_14, timezone.now())
        page.goto(live_server.url + local(back))
        expect(page.locator("h1")).to_have_text("Ronde 14, donderdag 3 december: Jan de Zeeuw")
        preview = page.locator("section.preview")
        expect(preview).to_contain_text(
            "De indeling is gepubliceerd en ligt vast; voor jou blijft het: op tijd afgemeld. "
            "Alleen de wedstrijdleider kan dat nu nog veranderen."
        )
        address = settings.ARBITER_EMAIL
        expect(preview.get_by_role("link", name=address)).to_have_attribute(
            "href", f"mailto:{address}"
        )
        expect(preview).to_contain_text(
            "een antwoord op een e-mail van de club (ook je bevestiging) komt ook bij de "
            "wedstrijdleider"
        )
        expect(page.get_by_role("button", name="Bevestigen")).to_have_count(0)
        fits_the_screen(page)
        assert violations(page) == []
        screenshot(page, "come-after-all-published-early", width, full_page=True)
    assert Absence.objects.get(participant__member=jan, round=round_14).reason == "excused"
