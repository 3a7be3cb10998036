"""Issue 37: after "Indeling maken" the arbiter reads the draft as a list (place, value and
last colours of each player), changes one board with Wijzigen and saves, at phone and desktop
width."""

import re

import pytest
from playwright.sync_api import expect

from competition import services
from competition.models import Round
from tests.browser.helpers import fits_the_screen, screenshot
from tests.browser.test_arbiter import log_in_to_the_admin, messages

pytestmark = pytest.mark.browser


def test_the_arbiter_reads_the_draft_and_changes_one_board(demo, live_server, page, width):
    round_13 = Round.objects.get(competition__kind="classical", number=13)
    round_14 = Round.objects.get(competition__kind="classical", number=14)
    services.enter_results(round_13, {game.pk: "1-0" for game in round_13.games.all()})
    log_in_to_the_admin(page, live_server.url)
    page.goto(f"{live_server.url}/beheer/ronde/{round_14.pk}/")
    page.get_by_role("button", name="Indeling maken").click()
    expect(messages(page)).to_contain_text("De indeling is gemaakt")

    # The list to read: every board with both players' place, value and last colours.
    boards = list(round_14.games.order_by("board").values_list("board", "white_id", "black_id"))
    rows = page.locator("table.review tbody tr.review-row")
    expect(rows).to_have_count(len(boards))
    first = rows.first.inner_text()
    assert re.search(r"plaats \d+ · waarde \d+ · (wit|zwart)", first), first
    expect(page.locator("select[name$=-white]")).to_have_count(0)
    # The round's own fields are folded away; no delete link beside the buttons.
    expect(page.locator("details.round-fields")).not_to_have_attribute("open", "")
    expect(page.locator("#id_date")).to_be_hidden()
    expect(page.locator(".submit-row .deletelink")).to_have_count(0)
    fits_the_screen(page)
    screenshot(page, "arbiter-round-review", width, full_page=True)

    # Wijzigen on board 2: its two selects; swap the colours and save.
    _board, white, black = boards[1]
    page.get_by_role("link", name="Wijzigen bord 2", exact=True).click()
    row = page.locator("#bord-2")
    expect(row.locator("select")).to_have_count(2)
    expect(page.locator("select[name$=-white]")).to_have_count(1)
    row.locator("select[name$=-white]").select_option(str(black))
    row.locator("select[name$=-black]").select_option(str(white))
    fits_the_screen(page)
    screenshot(page, "arbiter-round-review-board", width)
    row.get_by_role("button", name="Opslaan").click()
    expect(messages(page)).to_contain_text("is opgeslagen")
    expect(page.locator("select[name$=-white]")).to_have_count(0)
    saved = list(round_14.games.order_by("board").values_list("board", "white_id", "black_id"))
    assert saved == [boards[0], (2, black, white), *boards[2:]]
