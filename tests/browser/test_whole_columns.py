"""Issue 37, finding 1 in a real browser: what a member sees of the standings at 360, 390, 1200
and 1280 px. They open at their left end when the rounds' points are hidden, at the latest
round when shown; the group, value, rating and percentage are whole and not under the sticky
names (on a wide screen they stay in view themselves); the member's own row is marked."""

import pytest
from playwright.sync_api import expect

from competition.models import Competition
from tests.browser.helpers import MEMBER, SCREENSHOTS, laid_out, log_in

pytestmark = pytest.mark.browser

# 1200: the widest container, narrower than the table of twelve rounds (it scrolls).
VIEWPORTS = {360: 800, 390: 844, 1200: 900, 1280: 900}

# Where a cell is and whether it is itself what the reader sees at its centre (not a sticky
# name cell above it), and within its scroll box's visible part.
SEEN = """cell => {
  const box = cell.closest('.standings-scroll').getBoundingClientRect();
  const r = cell.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {text: cell.innerText.trim(), left: r.left, right: r.right, boxLeft: box.left,
          boxRight: box.right, itself: hit !== null && cell.contains(hit)};
}"""


def shot(page, name, px):
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}-{px}.png"))


@pytest.mark.parametrize("px", list(VIEWPORTS))
def test_the_standings_open_with_whole_columns_and_the_own_row_marked(demo, live_server, page, px):
    page.set_viewport_size({"width": px, "height": VIEWPORTS[px]})
    log_in(page, live_server.url, MEMBER, "/ranglijst/")
    laid_out(page)
    box = page.locator(".standings-scroll")
    expect(page.locator("tr.own")).to_have_count(1)
    expect(page.locator("tr.own th.name")).to_contain_text("Jan de Zeeuw")
    phone = px < 768
    if phone:
        expect(page.locator("thead th.rnd").first).to_be_hidden()
        assert box.evaluate("b => b.scrollLeft") == 0  # main: 283 of 649 at 390 px
    headers = [t.strip() for t in page.locator("table.standings thead th").all_inner_texts()]
    columns = {name: headers.index(name) for name in ("Gr.", "Wrd", "Rating", "%")}
    edge = page.locator("table.standings thead th.total").evaluate(
        "t => t.getBoundingClientRect().right"
    )
    opened = box.evaluate("b => b.scrollLeft")
    for name in ("Klaas Jansen", "Jan de Zeeuw"):
        row = page.locator("table.standings tbody tr", has_text=name)
        for header, index in columns.items():
            cell = row.locator("> *").nth(index)
            # At load nothing slid under the sticky position, name and total ...
            assert cell.evaluate(SEEN)["left"] >= edge - 0.5, (name, header)
            # ... and a column further right is a scroll away, whole once there.
            cell.evaluate("c => c.scrollIntoView({block: 'center', inline: 'nearest'})")
            seen = cell.evaluate(SEEN)
            assert seen["itself"], (name, header, seen)
            assert seen["boxLeft"] <= seen["left"] and seen["right"] <= seen["boxRight"] + 0.5
            box.evaluate("(b, x) => { b.scrollLeft = x; }", opened)
    jan = page.locator("tr.own > *").nth(columns["%"]).inner_text()
    assert jan.endswith("%") and len(jan) >= 3, jan  # "59%", not "9%"
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "whole-columns-standings", px)

    # Shown, the rounds' points open at the latest round, wholly in view.
    if phone:
        page.get_by_label("Punten per ronde tonen").check()
    latest = page.locator("table.standings thead th.rnd").last
    seen = latest.evaluate(SEEN)
    assert seen["itself"] and seen["right"] <= seen["boxRight"] + 0.5, seen
    assert seen["text"] == str(
        Competition.objects.get(season__name="2026-2027", kind="classical")
        .rankings.order_by("-after_round")
        .first()
        .after_round
    )
    shot(page, "whole-columns-rounds", px)
