"""The arbiter's week in a real browser, at phone and desktop width."""

import re

import pytest
from playwright.sync_api import expect

from competition import services
from competition.models import Absence, Round
from members.models import Member
from tests.browser.helpers import ARBITER, SCREENSHOTS, fits_the_screen, screenshot

pytestmark = pytest.mark.browser


def log_in_to_the_admin(page, url):
    page.goto(f"{url}/beheer/")
    page.get_by_label("Gebruikersnaam").fill(ARBITER[0])
    page.get_by_label("Wachtwoord").fill(ARBITER[1])
    with page.expect_navigation():  # the start page has loaded, however busy the machine
        page.get_by_role("button", name="Inloggen").click()


def round_card(page, number):
    return page.locator("article.week-round", has_text=f"Ronde {number},")


def messages(page):
    """The messages the page shows, for expect's retrying assertions: after a form posts, the
    page before it may still be shown for a moment on a busy machine."""
    return page.locator("ul.messagelist")


def contrast(locator) -> float:
    """The WCAG contrast ratio of an element's text colour against its background colour."""
    return locator.evaluate(
        """b => {
        const rgb = s => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
        const lum = ([r, g, b]) => [r, g, b].map(c => c / 255)
          .map(c => c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
          .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
        const style = getComputedStyle(b);
        let bg = style.backgroundColor, node = b;
        while (/rgba\\(.*, 0\\)$/.test(bg) || bg === "transparent") {
          node = node.parentElement;
          bg = node ? getComputedStyle(node).backgroundColor : "rgb(255, 255, 255)";
        }
        const [a, c] = [lum(rgb(style.color)), lum(rgb(bg))].sort((x, y) => y - x);
        return (a + 0.05) / (c + 0.05);
    }"""
    )


def type_results(page, boards):
    """As the arbiter does: the cursor starts on board 1; a result, Tab, the next board. Each
    key is seen in its field before the next (a busy machine must not lose a keystroke)."""
    fields = page.locator("input[name^=game_]")
    for number in range(boards):
        expect(fields.nth(number)).to_be_focused()
        typed = "1" if number % 3 == 0 else "r" if number % 3 == 1 else "0"
        page.keyboard.type(typed)
        expect(fields.nth(number)).to_have_value(typed)
        page.keyboard.press("Tab")


def test_the_arbiters_week_from_the_start_page(demo, live_server, page, width):
    """Sunday 22 November: round 13 (Thursday 26th) is published, round 14 (3 December) is
    open for cancellations until Friday 27th 18:00."""
    round_13 = Round.objects.get(competition__kind="classical", number=13)
    round_14 = Round.objects.get(competition__kind="classical", number=14)
    pieter = round_14.competition.participants.get(member__name="Pieter Bakker")
    anne = round_14.competition.participants.get(member__name="Sjoerd Bosma")
    services.record_absence(round_14, pieter, Absence.Reason.EXCUSED)
    services.record_absence(round_14, anne, Absence.Reason.EXCUSED, team_claim=True)

    log_in_to_the_admin(page, live_server.url)
    assert page.url == f"{live_server.url}/beheer/"
    week = page.locator("section.this-week")
    assert "Deze week: interne competitie" in week.locator("h2").inner_text()
    card = round_card(page, 14)
    assert "Ronde 14, donderdag 3 december 2026" in card.inner_text()
    assert "Open voor afmeldingen tot vrijdag 27 november 18:00." in card.inner_text()
    assert "Pieter Bakker – op tijd afgemeld" in card.inner_text()
    assert "Sjoerd Bosma – op tijd afgemeld (teamwedstrijd opgegeven" in card.inner_text()
    assert "Indeling gepubliceerd op" in round_card(page, 13).inner_text()
    fits_the_screen(page)
    screenshot(page, "arbiter-start", width, full_page=True)

    # The team match Sjoerd claimed: confirmed from the start page.
    claims = page.locator("article.week-claims")
    assert "Sjoerd Bosma, ronde 14" in claims.inner_text()
    claims.get_by_role("button", name="Bevestigen").click()
    expect(messages(page)).to_contain_text("Sjoerd Bosma: teamwedstrijd in ronde 14 bevestigd.")
    assert page.locator("article.week-claims").count() == 0
    assert "Sjoerd Bosma – teamwedstrijd" in round_card(page, 14).inner_text()

    # Round 13's results, typed on the Sunday before its evening: the site asks first.
    round_card(page, 13).get_by_role("link", name="Uitslagen invoeren").click()
    expect(page.locator("h1")).to_have_text("Uitslagen ronde 13", use_inner_text=True)
    boards = round_13.games.count()
    type_results(page, boards)
    page.get_by_role("button", name="Uitslagen opslaan").click()
    assert (
        "Ronde 13 wordt gespeeld op donderdag 26 november 2026."
        in page.locator(".warning-note").inner_text()
    )
    assert not round_13.games.exclude(result="").exists()
    screenshot(page, "arbiter-results-early", width)
    # Enter in a result field does not answer the question: the page asks again, keeping
    # what was typed, and nothing is saved.
    first = page.locator("input[name^=game_]").first
    first.press("Enter")
    expect(page.locator(".warning-note").first).to_contain_text("Ronde 13 wordt gespeeld op")
    expect(first).to_have_value("1")
    assert not round_13.games.exclude(result="").exists()
    page.get_by_role("button", name="Ja, uitslagen nu opslaan").first.click()
    expect(messages(page)).to_contain_text(f"{boards} uitslag(en) opgeslagen")
    assert not round_13.games.filter(result="").exists()

    # Round 14: make the pairing from the start page, then publish it early.
    page.goto(f"{live_server.url}/beheer/")
    assert "Uitslagen ingevoerd (voorlopig tot 23:30)." in round_card(page, 13).inner_text()
    round_card(page, 14).get_by_role("button", name="Indeling maken").click()
    expect(messages(page)).to_contain_text("De indeling is gemaakt")
    publish = page.get_by_role("button", name="Indeling publiceren")
    assert publish.evaluate("b => b.tagName") == "BUTTON"
    expect(publish).to_have_css("border-radius", "4px")  # a real button, once the CSS is in
    screenshot(page, "arbiter-round-draft", width)
    publish.click()
    expect(page.locator("h1")).to_have_text(
        "Ronde 14 publiceren vóór de afmeldtermijn?", use_inner_text=True
    )
    recipients = [p.name for p in Round.objects.get(pk=round_14.pk).pairing_recipients()]
    assert len(recipients) > 20 and "Pieter Bakker" not in recipients
    listed = page.locator("ul.recipients li").all_inner_texts()
    assert [re.sub(r" \(.*\)$", "", item) for item in listed] == recipients
    assert (
        f"{len(recipients)} leden krijgen de indeling per e-mail"
        in page.locator("#content-main h2").inner_text()
    )
    assert not Round.objects.get(pk=round_14.pk).is_published
    fits_the_screen(page)
    screenshot(page, "arbiter-publish-early", width, full_page=True)
    page.get_by_role("button", name="Nu publiceren").click()
    expect(messages(page)).to_contain_text("De indeling is gepubliceerd.")
    assert Round.objects.get(pk=round_14.pk).is_published

    # The round's history says it was published, in Dutch.
    page.get_by_role("link", name="Geschiedenis").click()
    expect(page.locator("#content-main")).to_contain_text("Indeling gepubliceerd")
    history = page.locator("#content-main").inner_text()
    assert "Indeling gepubliceerd" in history and "wedstrijdleider" in history  # who
    assert "Choose a date" not in history and "pk=" not in history
    fits_the_screen(page)
    screenshot(page, "arbiter-history", width, full_page=True)

    # A member phones: the arbiter picks the member on the start page.
    page.goto(f"{live_server.url}/beheer/")
    harm = Member.objects.get(name="Harm Mulder")
    page.locator("#week-member").select_option(str(harm.pk))
    page.get_by_role("button", name="Afmelden of aanmelden voor dit lid").click()
    expect(page).to_have_url(re.compile(rf"/afmelden/\?lid={harm.pk}$"))
    # The page speaks of the member, not to the arbiter as if they were the member.
    expect(page.locator("h1")).to_have_text("Afmeldingen van Harm Mulder", use_inner_text=True)
    assert contrast(page.get_by_role("button", name="Openen")) >= 4.5
    page.locator(".form-check", has_text="Ronde 15,").get_by_role("checkbox").check()
    page.get_by_role("button", name="Laat zien wat er gebeurt").click()
    forecast = page.locator(".eligibility-preview")
    expect(forecast).to_contain_text("Harm Mulder")
    preview = page.locator("section.preview").inner_text()
    assert "Op tijd afgemeld: ⅓ van eigen waarde" in preview
    assert not re.search(r"\bje\b", preview)


def test_the_arbiter_enters_a_rounds_results_and_the_standings_change(
    demo, live_server, page, width
):
    log_in_to_the_admin(page, live_server.url)
    round_13 = Round.objects.get(competition__kind="classical", number=13)
    round_14 = Round.objects.get(competition__kind="classical", number=14)
    page.goto(f"{live_server.url}/beheer/ronde/{round_14.pk}/")
    # Round 13 has no results yet: round 14 cannot be paired, and the page says so.
    expect(page.locator("p.week-waits")).to_contain_text("ronde 13 is niet compleet")
    expect(page.get_by_role("button", name="Indeling maken")).to_have_count(0)
    # An arbiter's bookmark from when the round page lived in the admin still leads there.
    page.goto(f"{live_server.url}/beheer/competition/round/{round_13.pk}/change/")
    expect(page).to_have_url(re.compile(rf"/beheer/ronde/{round_13.pk}/$"))
    page.get_by_role("link", name="Uitslagen invoeren").click()
    expect(page.locator("h1")).to_have_text("Uitslagen ronde 13", use_inner_text=True)
    # The cursor starts on board 1: type a result, Tab to the next board, and so on.
    boards = round_13.games.count()
    type_results(page, boards)
    page.get_by_role("button", name="Uitslagen opslaan").click()
    # Sunday, before Thursday's evening: the site asks first, keeping what was typed.
    page.get_by_role("button", name="Ja, uitslagen nu opslaan").first.click()
    expect(messages(page)).to_contain_text(f"{boards} uitslag(en) opgeslagen")
    page.screenshot(path=str(SCREENSHOTS / f"results-{width}.png"))
    # Now round 14 can be paired: its page offers the button (a real button).
    page.goto(f"{live_server.url}/beheer/ronde/{round_14.pk}/")
    making = page.get_by_role("button", name="Indeling maken")
    expect(making).to_have_css("border-radius", "4px")
    page.screenshot(path=str(SCREENSHOTS / f"round-{width}.png"))

    page.goto(f"{live_server.url}/ranglijst/")
    assert "Ranglijst 13, na ronde 13." in page.locator("main").inner_text()
    # #, name, total, group, value; rating, games, +, =, −, %; 13 rounds; att., ±
    assert page.locator("table.standings thead th").count() == 5 + 6 + 13 + 2


# Whether two boxes (Playwright's bounding boxes) share any area.
def overlap(a: dict, b: dict) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def test_the_competitions_steps_leave_its_title_readable(demo, live_server, page, width):
    """Issue 37: the competition's page floated its five step buttons up over its name."""
    from competition.models import Competition

    competition = Competition.objects.get(season__name="2026-2027", kind="classical")
    log_in_to_the_admin(page, live_server.url)
    page.goto(f"{live_server.url}/beheer/competition/competition/{competition.pk}/change/")
    title = page.locator("#content h2").first
    expect(title).to_have_text(str(competition))
    boxes = [tool.bounding_box() for tool in page.locator(".object-tools li").all()]
    assert len(boxes) >= 5
    assert not [box for box in boxes if overlap(box, title.bounding_box())]
    fits_the_screen(page)
    screenshot(page, "competition-page", width)


def test_the_arbiter_adds_a_newcomer_who_is_no_member_yet(demo, live_server, page, width):
    """Issue 37: every member plays already, so the member list is empty; the newcomer is made
    in the same form, previewed, and added."""
    from competition.models import Competition, Participant

    competition = Competition.objects.get(season__name="2026-2027", kind="classical")
    round_13 = competition.rounds.get(number=13)
    services.enter_results(round_13, {game.pk: "1-0" for game in round_13.games.all()})
    log_in_to_the_admin(page, live_server.url)
    page.goto(f"{live_server.url}/beheer/competition/competition/{competition.pk}/change/")
    page.get_by_role("link", name="Nieuwe speler toevoegen").click()
    expect(page.locator("select[name=member]")).to_contain_text("een nieuw lid: vul hieronder in")
    expect(page.locator("input[name=joined_round]")).to_have_value("14")  # the next to pair
    page.get_by_label("Naam nieuw lid").fill("Sjoukje Nieuwenhuis")
    page.get_by_label("E-mailadres nieuw lid").fill("sjoukje@example.org")
    page.get_by_label("Geschatte rating").fill("1500")
    page.get_by_role("button", name="Voorbeeld").click()
    expect(page.locator(".module h2")).to_have_text("Voorbeeld")
    expect(page.locator("tr.selected")).to_contain_text("Sjoukje Nieuwenhuis")
    fits_the_screen(page)
    screenshot(page, "newcomer-new-member", width, full_page=True)
    page.get_by_role("button", name="Toevoegen met deze startpunten").click()
    expect(page.locator(".messagelist")).to_contain_text(
        "Sjoukje Nieuwenhuis doet mee vanaf ronde 14"
    )
    joined = Participant.objects.get(competition=competition, member__name="Sjoukje Nieuwenhuis")
    assert joined.joined_round == 14 and joined.member.email == "sjoukje@example.org"
