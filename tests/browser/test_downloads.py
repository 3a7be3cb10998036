"""Files in a real browser, at phone and desktop width: a visitor downloads the standings and a
round as CSV for a spreadsheet; the arbiter downloads the TRF for the federation."""

import csv
import io

import pytest
import trf
from playwright.sync_api import expect

from competition.models import Competition
from tests import trf16
from tests.browser.helpers import open_menu, screenshot
from tests.browser.test_arbiter import log_in_to_the_admin

pytestmark = pytest.mark.browser


SIXTHS = {"½": ",5", "⅓": ",33", "⅔": ",67", "⅙": ",17", "⅚": ",83"}


def as_number(amount: str) -> str:
    """71½ as a Dutch spreadsheet's number (Keizer amounts are sixths): 71,5."""
    return amount[:-1] + SIXTHS[amount[-1]] if amount[-1] in SIXTHS else amount


def rows_of(download) -> list[list[str]]:
    """The downloaded file as a Dutch spreadsheet reads it."""
    data = download.path().read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""), delimiter=";"))


def test_a_visitor_downloads_the_standings_and_a_round_for_a_spreadsheet(
    demo, live_server, page, width
):
    page.goto(f"{live_server.url}/ranglijst/")
    link = page.get_by_role("link", name="Ranglijst 12 als CSV (spreadsheet)")
    link.scroll_into_view_if_needed()
    expect(link).to_be_visible()
    screenshot(page, "standings-csv-link", width)
    first_on_page = page.locator("table.standings tbody tr").first
    name, total = (
        first_on_page.locator("th.name").inner_text(),
        first_on_page.locator("td.total").inner_text(),
    )
    with page.expect_download() as info:
        link.click()
    download = info.value
    assert download.suggested_filename == "dsc-2026-2027-ranglijst-12.csv"
    rows = rows_of(download)
    assert rows[0][:5] == ["Plaats", "Naam", "Groep", "Totaal", "Waarde"]
    assert rows[0][-1] == "Ronde 12" and len(rows) == 41
    # The page's first row, its total as a number (71½ on the page is 71,5 in the file).
    assert rows[1][:2] == ["1", name]
    assert rows[1][3] == as_number(total)

    open_menu(page, width)
    page.get_by_role("link", name="Indeling", exact=True).click()
    round_12 = page.get_by_role("link", name="Ronde 12 als CSV (spreadsheet)")
    round_12.scroll_into_view_if_needed()
    expect(round_12).to_be_visible()
    screenshot(page, "pairing-csv-link", width)
    with page.expect_download() as info:
        round_12.click()
    download = info.value
    assert download.suggested_filename == "dsc-2026-2027-ronde-12.csv"
    rows = rows_of(download)
    games = (
        Competition.objects.get(season__name="2026-2027", kind="classical")
        .rounds.get(number=12)
        .games.select_related("white__member", "black__member")
        .order_by("board")
    )
    assert rows[0] == ["Bord", "Wit", "Zwart", "Uitslag"]
    assert [row[:3] for row in rows[1 : len(games) + 1]] == [
        [str(g.board), g.white.name, g.black.name] for g in games
    ]
    assert all(row[3] for row in rows[1:])  # round 12 is played: every board has a result


def test_the_arbiter_downloads_the_trf_for_the_federation(demo, live_server, page, width):
    log_in_to_the_admin(page, live_server.url)
    # Anne Hoekstra's record has no sex or birth date yet: the arbiter fills them in.
    page.locator('a[href$="/beheer/members/member/"]').first.click()
    page.get_by_role("link", name="Anne Hoekstra").click()
    private = page.locator("fieldset", has_text="Voor de bond (nooit op de site getoond)")
    private.scroll_into_view_if_needed()
    page.get_by_label("Geboortedatum").fill("14-02-1971")
    page.get_by_label("Geslacht").select_option(label="man")
    screenshot(page, "member-private-details", width)
    page.get_by_role("button", name="Opslaan", exact=True).click()
    expect(page.locator("ul.messagelist")).to_contain_text("Anne Hoekstra")

    page.goto(f"{live_server.url}/beheer/")
    page.get_by_role("link", name="Competities").first.click()
    page.get_by_role("link", name="interne competitie 2026-2027").click()
    expect(page.get_by_label("Hoofdwedstrijdleider")).to_have_value("Gerrit Smit")
    expect(page.get_by_label("Speeltempo")).to_have_value("90 min/30 zetten + 15 min")
    tool = page.get_by_role("link", name="TRF voor de bond")
    tool.scroll_into_view_if_needed()
    screenshot(page, "competition-trf", width)
    with page.expect_download() as info:
        tool.click()
    download = info.value
    assert download.suggested_filename == "dsc-2026-2027-classical.trf"
    text = download.path().read_text(encoding="utf-8")
    head = trf16.headers(text)
    assert (head["102"], head["122"]) == ("Gerrit Smit", "90 min/30 zetten + 15 min")
    jan = next(p for p in trf16.players(text) if p.name == "Jan de Zeeuw")
    assert (jan.player_id, jan.sex, jan.federation) == ("8100000", "m", "NED")
    assert len(jan.rounds) == 12 and len(trf.loads(text).players) == 40
    anne = next(p for p in trf16.players(text) if p.name == "Anne Hoekstra")
    assert (anne.sex, anne.birth_date, anne.player_id) == ("m", "1971/02/14", "8100004")
