"""The evening kit printed by a real Chromium: the pairing list for the wall, the result slips
and the standings poster, each printed to PDF with its own print stylesheet (the CSS page size)
and read back with pypdf: the number of pages, and every board and name on them."""

import re
from dataclasses import dataclass
from datetime import date
from io import BytesIO

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from competition import services
from competition.keizer.season import Game as EngineGame
from competition.keizer.season import Player, Result, Settings
from competition.keizer.season import Round as EngineRound
from competition.keizer.season import Season as EngineSeason
from competition.models import Competition, Game, Round
from members.groups import split_into_groups
from members.models import Member
from tests.browser.helpers import ARBITER, SCREENSHOTS, WIDTHS, laid_out, log_in, screenshot
from tests.competition.test_views import with_published_next_round
from tests.factories import big_engine_season, make_played_competition

pytestmark = pytest.mark.browser
# window.print opens the browser's dialog; in the test it only counts that it was asked for.
COUNT_PRINTS = "window.print = () => { window.printed = (window.printed || 0) + 1; };"

# Long Dutch names, so the sheets are tried with names that wrap (13 × 5 × 11 are all unique).
FIRST = (
    "Anne-Marije", "Wietske", "Pieter-Jan", "Geertruida", "Sjoerd", "Hendrikus", "Tjeerd",
    "Baukje", "Folkert", "Ytsen", "Johannes", "Lammert", "Froukje",
)  # fmt: skip
MIDDLE = ("", "van der ", "de ", "van den ", "ter ")
LAST = (
    "Haagsma-Koopmans", "Hoekstra", "Dijkstra-Veenstra", "Zijlstra", "Wiersma", "Terpstra",
    "Brouwersma", "Sikkema", "Kloosterhuis", "Boersma-Feenstra", "Kingma",
)  # fmt: skip


def long_name(i: int) -> str:
    return f"{FIRST[i % len(FIRST)]} {MIDDLE[i % len(MIDDLE)]}{LAST[i % len(LAST)]}"


@dataclass(frozen=True)
class Printout:
    texts: list[str]  # each PDF page's text, its spacing made plain
    sizes: list[tuple[int, int]]  # each page's width and height in millimetres (A4: 210 × 297)


def printed(page, name: str) -> Printout:
    """The page as Chromium prints it (its print stylesheet, the CSS page size), kept beside
    the screenshots. A line broken after a hyphen reads as the name unbroken."""
    pdf = page.pdf(prefer_css_page_size=True)
    SCREENSHOTS.mkdir(exist_ok=True)
    (SCREENSHOTS / f"{name}.pdf").write_bytes(pdf)
    sheets = PdfReader(BytesIO(pdf)).pages
    return Printout(
        [plain(sheet.extract_text()) for sheet in sheets],
        [(mm(sheet.mediabox.width), mm(sheet.mediabox.height)) for sheet in sheets],
    )


def plain(text: str) -> str:
    """Words one space apart, with a space at either end (so " 20 Name " finds the last row)."""
    return f" {re.sub(r'- ', '-', ' '.join(text.split()))} "


def mm(points) -> int:
    return round(float(points) / 72 * 25.4)


def boards_of(round_) -> list[tuple[int, str, str]]:
    return [
        (game.board, game.white.name, game.black.name)
        for game in round_.games.select_related("white__member", "black__member").order_by("board")
    ]


def fits_the_screen(page) -> bool:
    laid_out(page)
    return page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_a_visitor_prints_the_pairing_list_and_the_result_slips_of_round_13(
    demo, live_server, page, width
):
    round_13 = Round.objects.get(competition__kind="classical", number=13)
    boards = boards_of(round_13)
    assert len(boards) == 20
    page.add_init_script(COUNT_PRINTS)
    page.goto(f"{live_server.url}/indeling/")
    coming = page.locator("section.coming-round").first
    coming.get_by_role("link", name="indeling voor aan de muur").click()
    expect(page.locator("h1")).to_have_text("Indeling ronde 13 afdrukken")
    expect(page.locator("section.sheet")).to_have_count(1)
    assert page.locator("table.wall-pairing tbody tr").count() == 20
    assert fits_the_screen(page)
    page.get_by_role("button", name="Afdrukken").click()
    page.wait_for_function("window.printed === 1")
    screenshot(page, "print-pairing", width, full_page=True)
    # On paper: one A4 page, the menu and the buttons left out, every board with both names.
    printout = printed(page, f"print-pairing-{width}")
    assert printout.sizes == [(210, 297)]
    sheets = printout.texts
    assert "Indeling ronde 13 donderdag 26 november 2026 Bord Wit Zwart Uitslag" in sheets[0]
    for board, white, black in boards:
        assert f" {board} {white} {black} " in sheets[0]
    assert "Ranglijst" not in sheets[0] and "Afdrukken" not in sheets[0]  # no menu, no button

    page.get_by_role("link", name="Terug").click()
    coming = page.locator("section.coming-round").first
    coming.get_by_role("link", name="uitslagbriefjes").click()
    expect(page.locator("h1")).to_have_text("Uitslagbriefjes ronde 13")
    expect(page.locator("article.slip")).to_have_count(20)
    assert fits_the_screen(page)
    screenshot(page, "print-slips", width)
    # Eight slips to a page, in board order: 8, 8 and 4.
    sheets = printed(page, f"print-slips-{width}").texts
    assert [sheet.count("Handtekening wit Handtekening zwart") for sheet in sheets] == [8, 8, 4]
    for board, white, black in boards:
        sheet = sheets[(board - 1) // 8]
        assert (
            f"Ronde 13 Bord {board} donderdag 26 november 2026 Wit {white} Zwart {black} "
            "Uitslag: 1-0 ½-½ 0-1" in sheet
        )


def test_a_visitor_prints_the_standings_poster_of_40_players_on_one_landscape_page(
    demo, live_server, page, width
):
    page.goto(f"{live_server.url}/ranglijst/")
    page.get_by_role("link", name="Afdrukken als poster (A4 liggend)").click()
    expect(page.locator("h1")).to_have_text("Ranglijst 12 afdrukken")
    assert page.locator("table.poster-table tbody tr").count() == 40
    assert fits_the_screen(page)
    screenshot(page, "print-poster", width, full_page=True)
    printout = printed(page, f"print-poster-{width}")
    assert printout.sizes == [(297, 210)]
    sheets = printout.texts
    assert "Ranglijst interne competitie 2026-2027 na ronde 12, donderdag 19 november" in sheets[0]
    competition = Competition.objects.get(season__name="2026-2027", kind="classical")
    ranking = competition.rankings.get(after_round=12)
    standings = ranking.standings.select_related("participant__member")
    assert len(standings) == 40
    for standing in standings:
        assert f" {standing.position} {standing.participant.name} " in sheets[0]


def test_the_arbiter_prints_the_draft_of_round_14_from_the_round_page(
    demo, live_server, page, width
):
    # Round 13 is played (every board a draw), so round 14 can be paired.
    round_13 = Round.objects.get(competition__kind="classical", number=13)
    services.enter_results(round_13, {game.pk: Result.DRAW.value for game in round_13.games.all()})
    round_14 = Round.objects.get(competition__kind="classical", number=14)
    log_in(page, live_server.url, ARBITER, f"/beheer/ronde/{round_14.pk}/")
    page.get_by_role("button", name="Indeling maken").click()
    expect(page.locator("ul.messagelist")).to_contain_text("De indeling is gemaakt")
    page.get_by_role("link", name="Indeling afdrukken").click()
    expect(page.locator("h1")).to_have_text("Indeling ronde 14 afdrukken")
    expect(page.locator(".draft-mark")).to_have_text("Concept: nog niet gepubliceerd")
    screenshot(page, "print-draft", width)
    sheets = printed(page, f"print-draft-{width}").texts
    assert len(sheets) == 1 and "CONCEPT: NOG NIET GEPUBLICEERD" in sheets[0]  # in capitals
    for board, white, black in boards_of(round_14):
        assert f" {board} {white} {black} " in sheets[0]
    page.get_by_role("link", name="Terug").click()
    expect(page).to_have_url(re.compile(rf"/beheer/ronde/{round_14.pk}/$"))


def competition_with_boards(boards: int) -> Round:
    """A season whose round 2 is published with `boards` boards of players with long names."""
    players = tuple(Player(f"p{i}", long_name(i)) for i in range(2 * boards))
    first = EngineRound(
        tuple(EngineGame(f"p{i}", f"p{i + 1}", Result.DRAW) for i in range(0, 2 * boards, 2))
    )
    competition, _ = make_played_competition(EngineSeason(Settings(), players, (first,)))
    upcoming = with_published_next_round(competition)
    assert upcoming.games.count() == boards
    return upcoming


@pytest.mark.parametrize(("boards", "pages", "slip_pages"), [(25, 1, 4), (26, 2, 4), (40, 2, 5)])
def test_the_wall_list_is_one_page_up_to_25_boards_and_spread_over_two_from_26(
    transactional_db, live_server, page, boards, pages, slip_pages
):
    round_2 = competition_with_boards(boards)
    season = round_2.competition.season.name
    page.goto(f"{live_server.url}/indeling/2/afdrukken/?seizoen={season}")
    sheets = printed(page, f"print-pairing-{boards}-boards").texts
    assert len(sheets) == pages
    per_sheet = -(-boards // pages)  # as even as can be: 26 boards are 13 and 13
    for board, white, black in boards_of(round_2):
        assert f" {board} {white} {black} " in sheets[(board - 1) // per_sheet]
    if pages > 1:
        assert all(f"blad {n} van {pages}" in sheets[n - 1] for n in range(1, pages + 1))
        assert all("Bord Wit Zwart Uitslag" in sheet for sheet in sheets)  # headings again

    page.goto(f"{live_server.url}/indeling/2/uitslagbriefjes/?seizoen={season}")
    sheets = printed(page, f"print-slips-{boards}-boards").texts
    assert len(sheets) == slip_pages
    counts = [sheet.count("Handtekening wit") for sheet in sheets]
    assert counts == [8] * (slip_pages - 1) + [boards - 8 * (slip_pages - 1)]
    for board, white, black in boards_of(round_2):
        assert f"Bord {board} donderdag" in sheets[(board - 1) // 8]
        assert f"Wit {white} Zwart {black}" in sheets[(board - 1) // 8]


def test_the_poster_of_150_players_is_two_landscape_pages_with_every_name(
    transactional_db, live_server, page
):
    competition, _ = make_played_competition(big_engine_season(), date(2026, 9, 3))
    players = list(competition.participants.select_related("member").order_by("initial_position"))
    groups = split_into_groups(players, "ABCD")
    for i, participant in enumerate(players):
        Member.objects.filter(pk=participant.member_id).update(name=long_name(i))
        participant.group = groups[participant]
        participant.save(update_fields=["group"])
    page.set_viewport_size(WIDTHS["desktop"])
    page.goto(f"{live_server.url}/ranglijst/afdrukken/?seizoen={competition.season.name}")
    expect(page.locator("h1")).to_have_text("Ranglijst 28 afdrukken")
    screenshot(page, "print-poster-150", "desktop")
    printout = printed(page, "print-poster-150")
    assert printout.sizes == [(297, 210), (297, 210)]
    sheets = printout.texts
    assert "blad 1 van 2" in sheets[0] and "blad 2 van 2" in sheets[1]
    ranking = competition.rankings.get(after_round=28)
    standings = list(ranking.standings.select_related("participant__member"))
    assert len(standings) == 150
    for standing in standings:
        sheet = sheets[0 if standing.position <= 75 else 1]
        assert (
            f" {standing.position} {standing.participant.name} {standing.participant.group} "
            in sheet
        )


def test_every_page_prints_without_the_menu_and_the_buttons(demo, live_server, page):
    """On paper the menu (its brand "DSC Drachten"; on a sheet's width the links are folded
    away already) and the season picker's "Tonen" are left out; on screen both are there."""
    player = Round.objects.get(competition__kind="classical", number=13).games.first().white
    for path in ("/ranglijst/", "/indeling/", "/prijzen/", f"/spelers/{player.pk}/", "/"):
        page.goto(f"{live_server.url}{path}")
        on_screen = page.locator("body").inner_text()
        assert "DSC Drachten" in on_screen
        for sheet in printed(page, "print-any-page").texts:
            assert "DSC Drachten" not in sheet, path
        if path != "/" and not path.startswith("/spelers/"):
            assert "Tonen" in on_screen
            assert all("Tonen" not in sheet for sheet in printed(page, "print-any-page").texts)


def test_a_forfeit_on_the_wall_list_is_never_broken_inside_a_word(demo, live_server, page):
    """Round 13 with every kind of result, forfeits on most boards: each result's words are
    whole on the sheet ("(reglementair)" was broken into "regleme" and "ntair")."""
    round_13 = Round.objects.get(competition__kind="classical", number=13)
    kinds = [Result.WHITE_WINS_BY_FORFEIT, Result.BLACK_WINS_BY_FORFEIT, Result.DOUBLE_FORFEIT]
    kinds += [Result.WHITE_WINS, Result.DRAW]
    games = list(round_13.games.order_by("board"))
    services.enter_results(
        round_13, {game.pk: kinds[i % len(kinds)].value for i, game in enumerate(games)}
    )
    page.goto(f"{live_server.url}/indeling/13/afdrukken/")
    sheets = printed(page, "print-pairing-forfeits").texts
    assert len(sheets) == 1
    for board, white, black in boards_of(round_13):
        result = Game.objects.get(round=round_13, board=board).get_result_display()
        assert f" {board} {white} {black} {result} " in sheets[0], result


def test_the_poster_of_40_players_with_names_of_40_characters_is_one_landscape_page(
    transactional_db, live_server, page
):
    players = tuple(
        Player(f"p{i}", f"{long_name(i)} {'Wiebenga-Hoekstra'}"[:40].ljust(40, "x"))
        for i in range(40)
    )
    assert {len(player.name) for player in players} == {40}
    first = EngineRound(
        tuple(EngineGame(f"p{i}", f"p{i + 1}", Result.DRAW) for i in range(0, 40, 2))
    )
    competition, _ = make_played_competition(EngineSeason(Settings(), players, (first,)))
    page.set_viewport_size(WIDTHS["desktop"])
    page.goto(f"{live_server.url}/ranglijst/afdrukken/?seizoen={competition.season.name}")
    printout = printed(page, "print-poster-40-long-names")
    assert printout.sizes == [(297, 210)]
    ranking = competition.rankings.get(after_round=1)
    for standing in ranking.standings.select_related("participant__member"):
        assert f" {standing.position} {standing.participant.name} " in printout.texts[0]
