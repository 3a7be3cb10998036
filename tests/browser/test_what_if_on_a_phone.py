"""Issue 37, finding 3: what-if on a phone "did nothing". With one board chosen, "Ranglijst
tonen" loaded the page again at its top, the reason (every board needs a result) sat below 19
boards, the member's own board was not marked, and the selects were cut to "nog gee…". Now a
board without a result counts as a draw, the page lands at the answer, the member's own board
comes first and marked, and every select shows its whole result."""

import pytest
from playwright.sync_api import expect

from competition.keizer.season import Result
from competition.models import Competition
from tests.browser.helpers import MEMBER, laid_out, log_in, screenshot
from tests.browser.test_visitor import shown_rows
from tests.competition.test_what_if import entered_for_real

pytestmark = pytest.mark.browser
# The smallest phones the club's members use, a common one, and a laptop.
SCREENS = {
    "360": {"width": 360, "height": 740},
    "390": {"width": 390, "height": 844},
    "1280": {"width": 1280, "height": 900},
}
JAN = "Jan de Zeeuw"


@pytest.fixture(params=SCREENS)
def screen(request, page):
    page.set_viewport_size(SCREENS[request.param])
    return request.param


def in_the_window(page, locator) -> bool:
    """The element is wholly inside the window as it is now (nothing scrolled by the test)."""
    box = locator.bounding_box()
    size = page.viewport_size
    return (
        box is not None
        and box["y"] >= 0
        and box["y"] + box["height"] <= size["height"]
        and box["x"] >= 0
        and box["x"] + box["width"] <= size["width"]
    )


# Per select: the text it shows, its scroll and client widths, and the width its widest
# option's text needs in the select's own font against the room inside its padding (the arrow
# sits in the right one): whatever is chosen, it is shown whole.
SELECTS_MEASURED = """() => [...document.querySelectorAll('table.what-if-boards select')].map(s => {
  const style = getComputedStyle(s);
  const probe = document.createElement('span');
  probe.style.font = style.font;
  probe.style.whiteSpace = 'pre';
  probe.style.position = 'absolute';
  document.body.appendChild(probe);
  const needed = Math.max(...[...s.options].map(option => {
    probe.textContent = option.text;
    return probe.getBoundingClientRect().width;
  }));
  probe.remove();
  const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return {
    text: s.options[s.selectedIndex].text, scroll: s.scrollWidth, client: s.clientWidth, needed,
    room, widest: [...s.options].map(o => o.text).sort((a, b) => b.length - a.length)[0],
  };
})"""


def test_a_member_chooses_one_board_and_lands_at_the_answer(demo, live_server, page, screen):
    round_13 = Competition.objects.get(season__name="2026-2027", kind="classical").rounds.get(
        number=13
    )
    games = list(round_13.games.select_related("white__member", "black__member"))
    (own,) = [g for g in games if JAN in (g.white.name, g.black.name)]
    assert own.board != 1  # so that "first" means moved up, not board order
    log_in(page, live_server.url, MEMBER, next_path="/wat-als/")
    laid_out(page)

    # The member's own board comes first, marked as theirs.
    first = page.locator("table.what-if-boards tbody tr").first
    assert first.locator("td").first.inner_text().strip() == str(own.board)
    assert f"{JAN} (jij)" in first.inner_text()
    others = page.locator("table.what-if-boards tbody tr").nth(1)
    colour = "row => getComputedStyle(row.querySelector('td')).backgroundColor"
    assert first.evaluate(colour) != others.evaluate(colour)

    # Every select shows its whole text: the short results, "–" for none.
    for select in page.evaluate(SELECTS_MEASURED):
        assert select["text"] == "–", select
        assert select["scroll"] <= select["client"], select
        assert select["needed"] <= select["room"], select

    # One board chosen (the member's own: Jan wins), then "Ranglijst tonen".
    jan_white = own.white.name == JAN
    won = Result.WHITE_WINS if jan_white else Result.BLACK_WINS
    page.get_by_label(f"Uitslag bord {own.board}", exact=True).select_option(won.value)
    page.get_by_role("button", name="Ranglijst tonen").click()

    # The answer is where the eye is: its heading and the note on the boards without a result
    # (they count as draws) inside the window, without the test scrolling.
    heading = page.get_by_role("heading", name="Ranglijst na ronde 13 met deze uitslagen")
    expect(heading).to_be_visible()
    note = page.locator("#what-if-answer .what-if-empty")
    others_numbers = sorted(g.board for g in games if g.board != own.board)
    expect(note).to_contain_text(
        f"Borden {', '.join(str(n) for n in others_numbers)} hebben geen uitslag"
    )
    # Wait until the jump to the answer has come to rest with both inside the window (on a
    # busy machine the scroll can still be moving when the heading first comes into view).
    page.wait_for_function(
        "() => ['#antwoord', '#what-if-answer .what-if-empty'].every(s => {"
        " const e = document.querySelector(s); const r = e && e.getBoundingClientRect();"
        " return r && r.top >= 0 && r.bottom <= window.innerHeight; })"
    )
    assert in_the_window(page, heading), heading.bounding_box()
    assert in_the_window(page, note), note.bounding_box()

    # The answer is what entering Jan's win and a draw on every other board would store.
    results = {g.board: Result.DRAW.value for g in games} | {own.board: won.value}
    standings, _pairing, _bye = entered_for_real(round_13, results)
    rows = page.locator("table.what-if-ranking tbody tr")
    expect(rows).to_have_count(len(standings))
    assert shown_rows(rows) == standings
    own_line = page.locator("table.what-if-ranking tbody tr.what-if-own")
    expect(own_line).to_have_count(1)
    assert JAN in own_line.inner_text()
    screenshot(page, "what-if-answer-in-view", screen)

    # Back at the boards: still the whole texts, the chosen one included.
    first.scroll_into_view_if_needed()
    measured = page.evaluate(SELECTS_MEASURED)
    assert measured[0]["text"] == won.value
    for select in measured:
        assert select["scroll"] <= select["client"], select
        assert select["needed"] <= select["room"], select
    screenshot(page, "what-if-own-board-first", screen)
