"""People who try, in a real browser: a member locked out after wrong passwords finds the way
out by e-mail; every page, the admin included, works under the Content-Security-Policy."""

import re

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from competition.models import Participant, Round
from members import accounts
from members.models import Member
from tests.browser.helpers import ARBITER, MEMBER, WIDTHS, local, log_in, open_menu, screenshot
from training.models import Article

pytestmark = pytest.mark.browser


def test_a_locked_out_member_finds_the_way_out_by_email(
    transactional_db, live_server, page, width, mailoutbox
):
    account = User.objects.create_user("jan", password="the-right-password")
    Member.objects.create(name="Jan", email="jan@example.org", user=account)  # the address
    for _ in range(5):
        log_in(page, live_server.url, ("jan", "a-wrong-password"))
    log_in(page, live_server.url, ("jan", "the-right-password"))
    main = page.locator("main")
    expect(page.locator("h1")).to_have_text("Te veel mislukte pogingen", use_inner_text=True)
    assert (
        "Na 5 verkeerde wachtwoorden kan dit account vanaf dit adres 30 minuten niet inloggen."
        in main.inner_text()
    )
    assert page.get_by_role("link", name="Nieuw wachtwoord kiezen via e-mail").is_visible()
    screenshot(page, "locked-out", width)

    page.get_by_role("link", name="Nieuw wachtwoord kiezen via e-mail").click()
    page.get_by_label("E-mailadres").fill("jan@example.org")
    page.get_by_role("button", name="Stuur de link").click()
    page.wait_for_url(re.compile(r"/accounts/password_reset/done/$"))  # the request is stored
    accounts.answer_reset_requests(timezone.now())  # the worker's next pass sends the link
    [message] = mailoutbox
    assert message.subject == "DSC: een nieuw wachtwoord voor de competitiesite"
    assert "heft ook een blokkade op" in message.body
    link = re.search(r"https?://\S+/accounts/reset/\S+", message.body)[0]
    page.goto(live_server.url + local(link))
    page.get_by_label("Nieuw wachtwoord").first.fill("a-new-long-password")
    page.get_by_label("Nieuw wachtwoord bevestigen").fill("a-new-long-password")
    with page.expect_navigation():
        page.get_by_role("button", name="Wachtwoord opslaan").click()
    # Logged in at once, on the home page (issue 37), and the new password works next time.
    assert page.url == f"{live_server.url}/"
    expect(page.locator(".alert")).to_contain_text(
        "Je nieuwe wachtwoord is opgeslagen en je bent ingelogd."
    )
    expect(page.get_by_role("button", name="Uitloggen", include_hidden=True)).to_have_count(1)
    page.context.clear_cookies()
    log_in(page, live_server.url, ("jan", "a-new-long-password"))
    assert page.url == f"{live_server.url}/"


VIOLATIONS_TO_PYTHON = """
document.addEventListener("securitypolicyviolation", (event) => {
  const where = `${event.sourceFile}:${event.lineNumber}`;
  window.reportViolation(`${event.violatedDirective} blocked ${event.blockedURI} at ${where}`);
});
"""


def test_every_page_works_under_the_content_security_policy(demo, live_server, page):
    """One width: this is a sweep, not a flow. Violations are caught twice: the page's own
    securitypolicyviolation events (Playwright's init script is not subject to the policy) and
    Chromium's console messages; a script error on any page fails the sweep as well."""
    url = live_server.url
    seen = []
    page.expose_function("reportViolation", lambda text: seen.append(text))
    page.add_init_script(VIOLATIONS_TO_PYTHON)
    page.on(
        "console",
        lambda message: "Content Security Policy" in message.text and seen.append(message.text),
    )
    page.on("pageerror", lambda error: seen.append(f"script error: {error}"))

    def visit(path):
        page.goto(f"{url}{path}")
        page.evaluate("() => new Promise((done) => setTimeout(done))")  # queued events first
        assert not seen, (path, seen)

    # The catcher catches: an inline style attribute is refused and reported.
    page.set_viewport_size(WIDTHS["phone"])
    visit("/reglement/")
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<b style=\"color: red\">x</b>')")
    page.evaluate("() => new Promise((done) => setTimeout(done))")
    assert seen and "style-src" in seen[0]
    seen.clear()

    # The public site, at phone width: the menu opens (Bootstrap's script runs).
    round_13 = Round.objects.get(competition__kind="classical", number=13)
    round_14 = Round.objects.get(competition__kind="classical", number=14)
    player = Participant.objects.filter(competition=round_13.competition).first()
    for path in [
        "/",
        "/ranglijst/",
        "/ranglijst/12/",
        "/indeling/",
        "/indeling/13/afdrukken/",
        "/indeling/13/uitslagbriefjes/",
        "/ranglijst/afdrukken/",
        f"/spelers/{player.pk}/",
        "/prijzen/",
        "/rapid/ranglijst/",
        "/rapid/indeling/",
        "/teamspelers/",
        "/reglement/",
        "/training/",
        "/training/schaakregels-remise/",
        "/wat-als/?bord-1=1-0",
        "/geen-pagina/",
        "/accounts/password_reset/",
    ]:
        visit(path)
    expect(page.locator("h1")).to_have_text("Wachtwoord vergeten?", use_inner_text=True)
    open_menu(page, "phone")
    page.get_by_role("link", name="Ranglijst", exact=True).wait_for(state="visible")

    log_in(page, url, MEMBER, "/afmelden/")
    assert not seen, seen
    visit("/afmelden/")
    page.locator(".form-check", has_text="Ronde 14,").get_by_role("checkbox").check()
    page.get_by_role("button", name="Laat zien wat er gebeurt").click()
    expect(page.locator("section.preview")).to_be_visible()
    visit("/profiel/")
    jans_game = round_13.games.get(black__member__name="Jan de Zeeuw")
    visit(f"/partij/{jans_game.pk}/")  # his own game (entering opens on Thursday)
    page.context.clear_cookies()

    # The admin, at desktop width.
    page.set_viewport_size(WIDTHS["desktop"])
    visit("/beheer/")
    page.get_by_label("Gebruikersnaam").fill(ARBITER[0])
    page.get_by_label("Wachtwoord").fill(ARBITER[1])
    with page.expect_navigation():  # the start page has loaded: its violations are caught
        page.get_by_role("button", name="Inloggen").click()
    assert not seen, seen
    visit("/beheer/")
    assert "Deze week" in page.locator("#content-main").inner_text()

    # A change list whose script works: "select all" ticks every row and counts them.
    visit("/beheer/competition/round/")
    page.locator("#action-toggle").check()
    rows = page.locator("input.action-select")
    assert rows.count() > 1 and all(box.is_checked() for box in rows.all())
    assert (
        f"{rows.count()} van de {rows.count()} geselecteerd"
        in page.locator(".action-counter").inner_text()
    )
    visit("/beheer/members/teamplayerlot/")  # a list without actions
    locked = {"username": "jan", "ip_address": "192.0.2.10", "failures_since_start": 5}
    AccessAttempt.objects.create(**locked, user_agent="x", http_accept="*/*", path_info="/")
    visit("/beheer/axes/accessattempt/")
    assert "Geblokkeerd tot" in page.locator("#result_list").inner_text()
    screenshot(page, "arbiter-lockouts", "desktop")
    visit("/beheer/members/member/")
    with page.expect_navigation():  # until the form has loaded: its violations are caught
        page.get_by_role("link", name="Toevoegen").first.click()  # a change form, empty
    assert not seen, seen

    # A round's steps: its form, the results, the pairing, publishing early, the history.
    visit(f"/beheer/ronde/{round_13.pk}/")
    visit(f"/beheer/ronde/{round_13.pk}/uitslagen/")
    expect(page.locator("h1")).to_have_text("Uitslagen ronde 13", use_inner_text=True)
    for _board in range(round_13.games.count()):  # the cursor starts on board 1
        page.keyboard.type("r")
        page.keyboard.press("Tab")
    page.get_by_role("button", name="Uitslagen opslaan").click()
    page.get_by_role("button", name="Ja, uitslagen nu opslaan").first.click()
    expect(page.locator("ul.messagelist")).to_contain_text("uitslag(en) opgeslagen")
    assert not seen, seen
    visit(f"/beheer/ronde/{round_14.pk}/")
    page.get_by_role("button", name="Indeling maken").click()
    expect(page.locator("ul.messagelist")).to_contain_text("De indeling is gemaakt")
    visit(f"/beheer/ronde/{round_14.pk}/afdrukken/")  # the draft, printed
    visit(f"/beheer/ronde/{round_14.pk}/")
    page.get_by_role("button", name="Indeling publiceren").click()
    expect(page.locator("h1")).to_have_text(
        "Ronde 14 publiceren vóór de afmeldtermijn?", use_inner_text=True
    )
    assert not seen, seen
    visit(f"/beheer/competition/round/{round_13.pk}/history/")
    visit(f"/beheer/competition/game/{jans_game.pk}/history/")  # with the players' entries
    visit(f"/beheer/competition/competition/{round_13.competition.pk}/change/")
    visit("/beheer/members/ratinglist/import/")
    assert page.locator("input[type=file]").count() == 1
    # A training article: the form (its address made from the title), the preview.
    visit("/beheer/training/article/add/")
    page.get_by_label("Titel").press_sequentially("Nieuw artikel")
    expect(page.get_by_label("Adres")).to_have_value("nieuw-artikel")  # made by the script
    draw = Article.objects.get(slug="schaakregels-remise")
    visit(f"/beheer/training/article/{draw.pk}/voorbeeld/")
    visit(f"/beheer/training/article/{draw.pk}/history/")
