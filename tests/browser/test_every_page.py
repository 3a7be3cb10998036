"""Issue 27: every page of the site (read from its URL configuration: tests/pages.py), as a
visitor, a member and the arbiter, at phone and desktop width, breaks no WCAG 2.2 A/AA rule of
axe-core, of any impact, and fits the screen: nothing pushes the page sideways
(`document.documentElement.scrollWidth` is the window's width), and at desktop width no table
hides columns but behind a scrollbar that is always shown. Besides, the states the demo's
Sunday does not show: the evening's provisional results, a team claim waiting."""

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from playwright.sync_api import expect

from competition import services
from competition.models import Absence, Game, Participant, Round
from tests.browser.accessibility import AXE, MISSING, axe_on_every_page, violations
from tests.browser.helpers import ARBITER, MEMBER, WIDTHS, log_in, screenshot
from tests.pages import members_own, pages_of

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not AXE.exists(), reason=MISSING)]

# Who looks; the arbiter's pages in two halves that run side by side: their own application's
# and the admin's lists and forms of each model (/beheer/<app>/<model>/…).
ROLES = {"visitor": None, "member": MEMBER, "arbiter": ARBITER, "arbiter in the admin": ARBITER}
MODEL_ADMIN = re.compile(r"^/beheer/[a-z_]+/[a-z]+/")


def arbiters_pages() -> list[str]:
    """The arbiter's own pages, and the public pages that are different for the arbiter (acting
    for a member); a draft pairing's review page besides the published rounds'."""
    draft = Round.objects.filter(published_at__isnull=True).order_by("date").first()
    played = Round.objects.get(competition=draft.competition, number=draft.number - 1)
    services.enter_results(played, {game.pk: "1-0" for game in played.games.all()})
    services.make_pairing(draft)
    extra = (f"/beheer/ronde/{draft.pk}/", "/", "/afmelden/")
    return pages_of(ARBITER, admin=True, public=False, extra=extra)


def members_pages() -> list[str]:
    """The pages that show a member something of their own (tests/pages.py, MEMBERS_OWN), their
    coming game and their page as a player."""
    game = Game.objects.filter(black__member__name="Jan de Zeeuw").order_by("-round__date").first()
    own = (f"/partij/{game.pk}/", f"/spelers/{game.black_id}/")
    pages = pages_of(MEMBER, extra=own, one_per_view=True)
    return [path for path in pages if members_own(path) or path in own]


# Tables wider than their box at desktop width, unless the box scrolls and always shows its
# scrollbar (not only while scrolling): then the columns it hides are visibly a scroll away.
HIDDEN_COLUMNS = """() => [...document.querySelectorAll("table")].flatMap((table) => {
  const box = table.parentElement, style = getComputedStyle(box);
  const hidden = table.scrollWidth - box.clientWidth;
  const reachable = ["auto", "scroll"].includes(style.overflowX) && style.scrollbarColor !== "auto";
  return hidden > 1 && box.clientWidth > 0 && !reachable ?
    [`${table.className || table.id || "a table"}: ${hidden} px hidden`] : [];
})"""


def too_wide(page) -> list[str]:
    """Nothing pushes the page sideways; at desktop width no table hides columns."""
    window, found = page.viewport_size["width"], []
    wide = page.evaluate("document.documentElement.scrollWidth")
    if wide > window:
        found.append(f"the page is {wide} px wide in a window of {window}")
    if window >= 1280:
        found += page.evaluate(HIDDEN_COLUMNS)
    return found


PAGES_OF = {
    "visitor": lambda: pages_of(None, one_per_view=True),
    "member": members_pages,
    "arbiter": lambda: [path for path in arbiters_pages() if not MODEL_ADMIN.match(path)],
    "arbiter in the admin": lambda: without_twins(
        [path for path in arbiters_pages() if MODEL_ADMIN.match(path)]
    ),
}


def without_twins(paths: list[str]) -> list[str]:
    """The admin's pages, each model's empty form left out where its filled one is visited: the
    same form, fields and widgets (tests/dsc_site/test_valid_html.py still checks both)."""
    filled = {re.sub(r"\d+/change/$", "", path) for path in paths if path.endswith("/change/")}
    return [path for path in paths if not (path.endswith("/add/") and path[:-4] in filled)]


def checked_at_both_widths(page, axe_at: tuple[str, ...] = tuple(WIDTHS)) -> list[str]:
    """What the open page breaks on a phone and on a desktop: one load, the window resized in
    between (the page's styles follow the width as they do on a reload). axe runs at the
    widths `axe_at` names, the fit check at both."""
    broken = []
    # The width the page was opened at first: each page is laid out once per width, not again
    # for the width it came at.
    for name, size in sorted(WIDTHS.items(), key=lambda item: item[1] != page.viewport_size):
        if size != page.viewport_size:
            page.set_viewport_size(size)
        found = (violations(page) if name in axe_at else []) + too_wide(page)
        broken += [f"{name}: {line}" for line in found]
    return broken


# Django's own admin pages (its lists and forms of each model) go through axe at desktop width
# only: their markup and styles are Django's and the same at every width (its responsive
# sheet moves and narrows boxes, and the fit check still runs at phone width). Our own pages,
# whose templates we write for both, are checked by axe at both. This halves the slowest
# browser test (issue 36: 33 s of the suite's CPU).
AXE_AT = {"arbiter in the admin": ("desktop",)}


AT_LEAST = {"visitor": 18, "member": 6, "arbiter": 12, "arbiter in the admin": 25}  # pages


@pytest.mark.parametrize("role", ROLES)
def test_every_page_breaks_no_wcag_rule_and_fits_the_screen(demo, live_server, page, role):
    """Each page at phone and at desktop width."""
    paths = PAGES_OF[role]()
    axe_on_every_page(page)
    page.set_viewport_size(WIDTHS["phone"])
    if ROLES[role]:
        log_in(page, live_server.url, ROLES[role], "/")
    found = {}
    for path in paths:
        page.goto(f"{live_server.url}{path}")
        if broken := checked_at_both_widths(page, AXE_AT.get(role, tuple(WIDTHS))):
            found[path] = broken
    assert len(paths) > AT_LEAST[role]
    assert found == {}, "\n".join(f"{p}: {line}" for p, lines in found.items() for line in lines)


EVENING = datetime(2026, 11, 26, 21, 0, tzinfo=ZoneInfo("Europe/Amsterdam"))  # games are on


def test_the_evenings_states_fit_the_screen_and_break_no_wcag_rule(demo, live_server, page):
    """What the demo's Sunday does not show: on the evening, round 13's results entered and
    provisional (the standings' long yellow badge), and Jan's cancellation of round 14 for a
    team match waiting for the arbiter's confirmation, on the pages Jan reads, each at phone
    and at desktop width (one load, the window resized in between)."""
    with time_machine.travel(EVENING, tick=True):
        round_13 = Round.objects.get(competition__kind="classical", number=13)
        round_14 = Round.objects.get(competition=round_13.competition, number=14)
        services.enter_results(round_13, {game.pk: "1-0" for game in round_13.games.all()})
        jan = Participant.objects.get(competition=round_13.competition, member__name="Jan de Zeeuw")
        services.record_absence(round_14, jan, Absence.Reason.EXCUSED, team_claim=True)
        game = round_13.games.get(black=jan)
        axe_on_every_page(page)
        page.set_viewport_size(WIDTHS["phone"])
        log_in(page, live_server.url, MEMBER, "/")
        found = {}
        for path in ["/", "/ranglijst/", "/indeling/", "/afmelden/", f"/partij/{game.pk}/"]:
            page.goto(f"{live_server.url}{path}")
            if broken := checked_at_both_widths(page):
                found[path] = broken
        for width in WIDTHS:
            page.set_viewport_size(WIDTHS[width])
            page.goto(f"{live_server.url}/ranglijst/")
            expect(page.locator(".badge.text-bg-warning")).to_contain_text("voorlopig")
            page.goto(f"{live_server.url}/afmelden/")
            expect(page.locator("main")).to_contain_text("wacht op bevestiging")
            screenshot(page, "evening-cancellations", width)
    assert found == {}, "\n".join(f"{p}: {line}" for p, lines in found.items() for line in lines)


BROKEN = (
    '<!doctype html><html lang="nl"><head><title>Kapot</title></head><body style="margin: 0">'
    "<main>"
    '<input type="text"><div style="width: 3000px">breed</div></main></body></html>'
)


def test_the_check_sees_a_broken_page(page):
    """The checks above can fail: on a page that breaks a rule and sticks out, axe (loaded as
    it is there, before the page's own scripts) names the field without a label, and the
    width check the overflow."""
    axe_on_every_page(page)
    page.route(
        "http://kapot.test/", lambda route: route.fulfill(body=BROKEN, content_type="text/html")
    )
    page.goto("http://kapot.test/")
    assert page.evaluate("typeof axe") == "object"  # there before anything asked for it
    assert any(line.startswith("critical label:") for line in violations(page))
    assert too_wide(page) == ["the page is 3000 px wide in a window of 1280"]
