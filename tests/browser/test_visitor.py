"""A visitor reads the demo season in a real browser, at phone and desktop width."""

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.cache import caches
from playwright.sync_api import expect

from base import fair_use
from competition import services
from competition.amounts import format_amount
from competition.keizer.season import Result
from competition.models import Competition, Standing
from tests.browser.helpers import BOUND, WIDTHS, fits_the_screen, open_menu, screenshot
from tests.browser.test_security import VIOLATIONS_TO_PYTHON
from tests.competition.test_what_if import entered_for_real
from tests.waiting import wait_until

pytestmark = pytest.mark.browser
AMSTERDAM = ZoneInfo("Europe/Amsterdam")
# Thursday 26 November 2026, 23:00: round 13 is played, its results are in, and the arbiter
# publishes round 14 (Thursday 3 December) at once, a day before its Friday 20:00.
EVENING_13_LATE = datetime(2026, 11, 26, 23, 0, tzinfo=AMSTERDAM)


def current_rounds():
    competition = Competition.objects.get(season__name="2026-2027", kind="classical")
    return competition.rounds


def box(locator):
    return locator.bounding_box()


def test_a_visitor_reads_the_standings_and_the_pairing(demo, live_server, page, width):
    page.goto(f"{live_server.url}/ranglijst/")
    expect(page.locator("h1")).to_have_text("Ranglijst 2026-2027", use_inner_text=True)
    assert "Ranglijst 12, na ronde 12." in page.locator("main").inner_text()
    rows = page.locator("table.standings tbody tr")
    assert rows.count() == 40
    first_row = rows.first
    assert first_row.locator("td.pos").inner_text() == "1"
    assert first_row.locator("th.name").inner_text()  # the player's name heads the row
    assert first_row.locator("td.total").inner_text()
    cells = first_row.locator("td")
    assert cells.nth(2).inner_text() in "ABCD"  # the player's group after the total
    assert cells.nth(3).inner_text() == "50"  # the value of position 1
    headers = page.locator("table.standings thead th")
    # #, name, total, group, value; rating, games, +, =, −, %; 12 rounds; att., ±
    assert headers.count() == 5 + 6 + 12 + 2
    # The last column's ▲ is green and ▼ red, the rest of the row in the text's colour.
    colours = {
        name: page.locator(f"table.standings tbody td{cell}").first.evaluate(
            "cell => getComputedStyle(cell).color"
        )
        for name, cell in (("up", ".movement-up"), ("down", ".movement-down"), ("total", ".total"))
    }
    assert (colours["up"], colours["down"]) == ("rgb(20, 108, 67)", "rgb(176, 42, 55)")
    assert colours["total"] not in (colours["up"], colours["down"])
    # The navigation marks where the visitor is.
    current = page.locator('nav a[aria-current="page"]')
    assert current.count() == 1 and current.inner_text() == "Ranglijst"
    assert "active" in current.get_attribute("class")
    screenshot(page, "standings", width)

    open_menu(page, width)
    page.get_by_role("link", name="Indeling", exact=True).click()
    expect(page.locator("h1")).to_have_text("Indeling en uitslagen 2026-2027", use_inner_text=True)
    assert page.locator('nav a[aria-current="page"]').inner_text() == "Indeling"
    round_13 = current_rounds().get(number=13)
    heading = page.locator("h2").first.inner_text()
    assert heading.startswith("Ronde 13, donderdag 26 november 2026")
    boards = page.locator("table.pairing").first.locator("tbody tr")
    assert boards.count() == round_13.games.count() > 0
    first_game = round_13.games.get(board=1)
    assert first_game.white.name in boards.first.inner_text()
    screenshot(page, "pairing", width)

    page.locator("table.pairing").first.get_by_role("link").first.click()
    expect(page.locator("h1")).to_have_text(first_game.white.name)
    assert "Plaats" in page.locator("main").inner_text()
    screenshot(page, "player", width, full_page=True)

    # The menu's "Rapid" leads to the rapid standings, and from there to its pairing, the menu
    # marking Rapid on both; a visitor who wants to cancel is led to the login.
    open_menu(page, width)
    page.get_by_role("link", name="Rapid", exact=True).click()
    expect(page.locator("h1")).to_have_text("Rapidranglijst 2026-2027", use_inner_text=True)
    page.get_by_role("link", name="Rapid: indeling en uitslagen").click()
    expect(page.locator("h1")).to_have_text(
        "Rapid: indeling en uitslagen 2026-2027", use_inner_text=True
    )
    assert page.locator('nav a[aria-current="page"]').inner_text() == "Rapid"
    page.get_by_role("link", name="Rapidranglijst").click()
    expect(page.locator("h1")).to_have_text("Rapidranglijst 2026-2027", use_inner_text=True)
    open_menu(page, width)
    page.get_by_role("link", name="Afmelden", exact=True).click()
    # Led to the login (the rapid standings may still show a while on a busy machine).
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/afmelden/$"))
    expect(page.locator("h1")).to_have_text("Inloggen", use_inner_text=True)


def test_on_a_phone_position_name_and_total_stay_in_view(demo, live_server, page, width):
    viewport = WIDTHS[width]["width"]
    page.goto(f"{live_server.url}/ranglijst/")
    # The page itself never scrolls sideways; the table scrolls inside its own box.
    fits_the_screen(page)
    scroller = page.locator(".standings-scroll")
    row = page.locator("table.standings tbody tr").nth(2)
    pos, name, total = row.locator("td.pos"), row.locator("th.name"), row.locator("td.total")
    for cell in (pos, name, total):
        assert box(cell)["x"] >= 0 and box(cell)["x"] + box(cell)["width"] <= viewport
    assert box(pos)["x"] + box(pos)["width"] <= box(name)["x"] + 1
    assert box(name)["x"] + box(name)["width"] <= box(total)["x"] + 1
    screenshot(page, "standings-start", width)
    wide = scroller.evaluate("s => s.scrollWidth > s.clientWidth")
    if width == "phone":
        assert wide  # the games, rating and attendance do not fit beside the names on a phone
    if wide:
        scroller.evaluate("s => { s.scrollLeft = s.scrollWidth; }")
        page.wait_for_function(
            "() => { const s = document.querySelector('.standings-scroll');"
            " return s.scrollLeft + s.clientWidth >= s.scrollWidth - 1; }"
        )
        # After scrolling the rounds to the end, the first columns are where they were.
        for cell in (pos, name, total):
            assert box(cell)["x"] >= 0 and box(cell)["x"] + box(cell)["width"] <= viewport
        assert box(name)["x"] + box(name)["width"] <= box(total)["x"] + 1
        last = row.locator("td").last  # the ± column, scrolled into view
        assert box(last)["x"] + box(last)["width"] <= viewport + 1
        assert box(last)["x"] >= box(total)["x"] + box(total)["width"] - 1
        fits_the_screen(page)
        screenshot(page, "standings-scrolled", width)


def test_a_pairing_published_early_is_visible(demo, live_server, page, width):
    with time_machine.travel(EVENING_13_LATE, tick=True):
        rounds = current_rounds()
        round_13, round_14 = rounds.get(number=13), rounds.get(number=14)
        services.enter_results(round_13, {game.pk: "1-0" for game in round_13.games.all()})
        services.make_pairing(round_14)
        assert services.publish(round_14, EVENING_13_LATE)
        first = round_14.games.get(board=1)
        for path in ("/indeling/", "/"):
            page.goto(f"{live_server.url}{path}")
            sections = page.locator("section.coming-round")
            assert sections.count() == 3, path  # tonight, the early one, and the next
            tonight = sections.nth(0).inner_text().lower()
            assert "ronde 13, donderdag 26 november 2026" in tonight, path
            early = sections.nth(1)
            assert early.locator("h2").inner_text() == "Ronde 14, donderdag 3 december 2026"
            board_1 = early.locator("table.pairing tbody tr").first.inner_text()
            assert first.white.name in board_1 and first.black.name in board_1
            assert "De indeling verschijnt op vrijdag 4 december 20:00." in (
                sections.nth(2).inner_text()
            )
            screenshot(page, f"early-pairing{path.strip('/').replace('/', '-') or '-home'}", width)


def test_an_earlier_season_opens_from_the_picker(demo, live_server, page, width):
    page.goto(f"{live_server.url}/ranglijst/")
    page.get_by_label("Seizoen").select_option("2025-2026")
    page.get_by_role("button", name="Tonen").click()
    expect(page.locator("h1")).to_have_text("Ranglijst 2025-2026")
    assert "Ranglijst 9, na ronde 9." in page.locator("main").inner_text()
    assert page.locator("table.standings tbody tr").count() == 31
    screenshot(page, "earlier-season", width)
    rankings = page.get_by_role("navigation", name="Eerdere ranglijsten")
    rankings.get_by_role("link", name="4", exact=True).click()
    expect(page).to_have_url(re.compile(r"/ranglijst/4/\?seizoen=2025-2026$"))
    assert "Ranglijst 4, na ronde 4." in page.locator("main").inner_text()
    expect(page.locator("h1")).to_have_text("Ranglijst 2025-2026", use_inner_text=True)

    page.goto(f"{live_server.url}/indeling/")
    page.get_by_label("Seizoen").select_option("2025-2026")
    page.get_by_role("button", name="Tonen").click()
    expect(page.locator("h1")).to_have_text("Indeling en uitslagen 2025-2026", use_inner_text=True)
    assert page.locator("table.pairing").count() == 9

    page.goto(f"{live_server.url}/prijzen/")
    page.get_by_label("Seizoen").select_option("2025-2026")
    page.get_by_role("button", name="Tonen").click()
    expect(page.locator("h1")).to_have_text("Prijzen 2025-2026", use_inner_text=True)
    assert page.locator("#club-champion").inner_text() != "—"
    assert "Voorlopig" not in page.locator("main").inner_text()
    screenshot(page, "earlier-prizes", width, full_page=True)


def test_the_prizes_name_each_leader_mid_season(demo, live_server, page, width):
    page.goto(f"{live_server.url}/prijzen/")
    champion = page.locator("#club-champion").inner_text()
    assert champion.startswith("Leider nu: ") and "nog 16 rondes" in champion
    assert "minstens 19 van de 28 rondes" in champion
    fits_the_screen(page)
    screenshot(page, "prizes", width, full_page=True)


def test_a_missing_page_is_the_sites_own(transactional_db, live_server, page, width):
    response = page.goto(f"{live_server.url}/bestaat-niet/")
    assert response.status == 404
    expect(page.locator("h1")).to_have_text("Pagina niet gevonden", use_inner_text=True)
    assert page.locator("nav .navbar-brand").inner_text() == "DSC Drachten"
    open_menu(page, width)
    assert page.get_by_role("link", name="Afmelden", exact=True).is_visible()
    screenshot(page, "not-found", width)
    page.get_by_role("link", name="Naar de startpagina").click()
    expect(page.locator("h1")).to_have_text(re.compile(r"^Interne competitie"))


def test_a_visitor_asks_what_if_and_sees_the_ranking_change_at_once(demo, live_server, page, width):
    """From the home page to `/wat-als/`: the empty boards count as draws at once, then one
    board changed, which the page's script computes in place; both rankings and the likely
    pairing are what entering those results for real would store."""
    seen = []
    page.expose_function("reportViolation", lambda text: seen.append(text))
    page.add_init_script(VIOLATIONS_TO_PYTHON)
    page.on("pageerror", lambda error: seen.append(f"script error: {error}"))
    round_13 = current_rounds().get(number=13)
    boards = list(round_13.games.order_by("board").values_list("board", flat=True))

    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name=re.compile(r"^Wat als…\? Kies de uitslagen")).click()
    expect(page.locator("h1")).to_have_text("Wat als…?")
    main = page.locator("main")
    assert "Kies de uitslagen van ronde 13 (donderdag 26 november)" in main.inner_text()
    assert "Nog geen enkel bord heeft een uitslag: elk bord telt als remise." in main.inner_text()
    ranking = page.locator("table.what-if-ranking tbody tr")
    expect(ranking).to_have_count(40)
    drawn = {board: Result.DRAW.value for board in boards}
    standings, pairing, bye = entered_for_real(round_13, drawn)
    assert shown_rows(ranking) == standings
    assert shown_rows(page.locator("table.what-if-pairing tbody tr")) == [
        (str(board), white, black) for board, white, black in pairing
    ]
    if bye:
        assert f"Vrij (oneven): {bye}" in page.locator("#what-if-answer").inner_text()
    fits_the_screen(page)
    screenshot(page, "what-if-draws", width, full_page=True)

    # Board 1 changed: the script answers in place (the page is not loaded again) and the
    # address says the new choice, so it can be shared.
    page.evaluate("window.notReloaded = true")
    changed = drawn | {boards[0]: Result.BLACK_WINS.value}
    expected, _pairing, _bye = entered_for_real(round_13, changed)
    assert expected != standings
    page.get_by_label("Uitslag bord 1", exact=True).select_option(Result.BLACK_WINS.value)
    first = expected[0]
    expect(ranking.first).to_have_text(re.compile(re.escape(first[1])))
    page.wait_for_function(
        "expected => [...document.querySelectorAll('table.what-if-ranking tbody tr')]"
        ".map(row => row.querySelector('th').innerText).join('|') === expected",
        arg="|".join(row[1] for row in expected),
    )
    assert shown_rows(ranking) == expected
    assert page.evaluate("window.notReloaded") is True
    assert "bord-1=0-1" in page.url
    white = round_13.games.get(board=boards[0]).white
    place = next(position for position, name, *_rest in expected if name == white.name)
    assert page.locator(f"#what-if-place-{white.pk}").inner_text().startswith(f"plaats {place}")
    assert not seen, seen
    page.get_by_label("Uitslag bord 1", exact=True).scroll_into_view_if_needed()
    screenshot(page, "what-if-changed", width)


def shown_rows(rows) -> list[tuple]:
    """The text of each row's first cells as the ranking and pairing tables show them:
    (position, name, total, value) or (board, white, black)."""
    shown = []
    for row in rows.all():
        texts = [cell.strip() for cell in row.locator("td, th").all_inner_texts()]
        if len(texts) == 5:  # the ranking: #, name, total, value, ±
            shown.append((int(texts[0]), texts[1], texts[2], int(texts[3])))
        else:
            shown.append(tuple(texts))
    return shown


# What the reader sees of a chart: the labels of the axes and the centre of every point, on
# screen (so after the CSS and the scaling to the page's width).
READ_CHART = """svg => {
  const centre = e => {
    const r = e.getBoundingClientRect();
    return [r.x + r.width / 2, r.y + r.height / 2];
  };
  const labels = name => [...svg.querySelectorAll('text.' + name)].map(
    t => [Number(t.textContent), ...centre(t)]);
  return {
    positions: labels('chart-tick-left'),
    rankings: labels('chart-tick-below'),
    lines: [...svg.querySelectorAll('g.chart-trace')].map(
      g => [...g.querySelectorAll(':scope > g > circle')].map(centre)),
  };
}"""


def read_points(svg) -> list[list[tuple[int, int]]]:
    """(ranking, position) of every point of every line, as a person reads them off the axes:
    each point against the first and last label of each axis."""
    drawn = svg.evaluate(READ_CHART)

    def reader(labels, coordinate):
        (low, *low_at), (high, *high_at) = labels[0], labels[-1]
        return lambda at: round(
            low
            + (at - low_at[coordinate]) * (high - low) / (high_at[coordinate] - low_at[coordinate])
        )

    ranking, position = reader(drawn["rankings"], 0), reader(drawn["positions"], 1)
    return [[(ranking(x), position(y)) for x, y in line] for line in drawn["lines"]]


def history(participant) -> list[Standing]:
    return list(participant.standings.select_related("ranking").order_by("ranking__after_round"))


def test_the_season_in_a_picture_matches_the_stored_snapshots(demo, live_server, page, width):
    viewport = WIDTHS[width]["width"]
    competition = Competition.objects.get(season__name="2026-2027", kind="classical")
    jan = competition.participants.get(member__name="Jan de Zeeuw")
    stored = history(jan)
    page.goto(f"{live_server.url}{jan.get_absolute_url()}")
    picture = page.locator(".season-picture")
    expect(picture.get_by_role("heading")).to_have_text("Het seizoen in beeld")
    chart = picture.locator("svg.season-chart")
    expect(chart).to_be_visible()
    assert box(chart)["width"] <= viewport
    fits_the_screen(page)
    assert read_points(chart) == [[(s.ranking.after_round, s.position) for s in stored]]
    # Tapped (or clicked), a point tells its ranking, value and total, and keeps telling it
    # when the pointer leaves (a phone has no hover); pointed at, another point does.
    points = chart.locator("g.chart-trace > g")
    hint = chart.locator("text.chart-hint")
    expect(hint).to_be_visible()
    points.nth(1).locator("circle").click()
    page.mouse.move(0, 0)
    second = stored[1]
    expect(points.nth(1).locator("text")).to_be_visible()
    expect(points.nth(1).locator("text")).to_have_text(
        f"Ranglijst 1: plaats {second.position}, waarde {second.value}, "
        f"totaal {format_amount(second.total)}"
    )
    expect(hint).to_be_hidden()
    screenshot(page, "player-chart", width)
    if width == "desktop":
        points.last.locator("circle").hover()
        expect(points.last.locator("text")).to_be_visible()
        expect(points.last.locator("text")).to_contain_text(f"Ranglijst {len(stored) - 1}:")
    # The same numbers as a table for those who do not see the chart.
    picture.get_by_text("Als tabel").click()
    rows = picture.locator("table tbody tr")
    expect(rows).to_have_count(len(stored))
    assert rows.nth(1).locator("th, td").all_inner_texts()[:4] == [
        "1",
        str(second.position),
        str(second.value),
        format_amount(second.total),
    ]

    page.goto(f"{live_server.url}/ranglijst/")
    page.get_by_role("link", name="Het verloop in grafieken").click()
    races = page.locator("#verloop")
    latest = competition.rankings.order_by("after_round").last()
    standings = latest.standings.select_related("participant__member").order_by("position")
    for key, expected in (
        ("top", list(standings[:10])),
        ("b", list(standings.filter(participant__group="B")[:10])),
    ):
        if key != "top":
            races.get_by_role("radiogroup", name="Toon het verloop van").get_by_text(
                "Groep B"
            ).click()
            expect(races.get_by_role("radio", name="Groep B")).to_be_checked()
            expect(races.locator(".race-top")).to_be_hidden()
        race = races.locator(f".race-{key}")
        chart = race.locator("svg.season-chart")
        expect(chart).to_be_visible()
        assert box(chart)["x"] + box(chart)["width"] <= viewport
        legend = race.locator(".race-legend li")
        assert [" ".join(text.split()) for text in legend.all_inner_texts()] == [
            f"{s.position} {s.participant.name}" for s in expected
        ]
        assert read_points(chart) == [
            [(s.ranking.after_round, s.position) for s in history(s.participant)] for s in expected
        ]
    # A point of the last line (drawn on top) names its player, ranking, place and total.
    last = expected[-1]
    point = race.locator("g.chart-trace").last.locator(":scope > g").nth(3)
    point.locator("circle").click()
    page.mouse.move(0, 0)
    third = history(last.participant)[3]
    expect(race.locator("g.chart-trace").last.locator("text.chart-name")).to_be_visible()
    expect(point.locator("text")).to_have_text(
        f"Ranglijst 3: plaats {third.position}, totaal {format_amount(third.total)}"
    )
    fits_the_screen(page)
    race.scroll_into_view_if_needed()
    screenshot(page, "race-group-b", width)


IN_VIEW_BESIDE_THE_TOTAL = """(withMovement) => {
  const table = document.querySelector("table.standings"), box = table.parentElement;
  const rounds = table.querySelectorAll("thead th.rnd"), heads = table.querySelectorAll("thead th");
  const kept = table.querySelector("thead th.total").getBoundingClientRect();
  const seen = box.getBoundingClientRect();
  const cells = withMovement ? [rounds[rounds.length - 1], heads[heads.length - 1]]
                             : [rounds[rounds.length - 1]];
  return cells.every((cell) => {
    const r = cell.getBoundingClientRect();
    return r.width > 0 && r.left >= kept.right - 1 && r.right <= seen.right + 1;
  });
}"""


def test_the_standings_open_at_the_latest_round(demo, live_server, page, width):
    """The round a member most wants to see is in view without scrolling, beside the name and
    the total: at 1280 px (the table is wider than the screen) with its attendance and movement;
    on a phone the rounds appear after the switch where the reader looks."""
    page.goto(f"{live_server.url}/ranglijst/")
    latest = page.locator("table.standings thead th.rnd").last
    if width == "phone":
        expect(latest).to_be_hidden()
        page.get_by_text("Punten per ronde tonen").click()
        expect(latest).to_be_visible()
    # Polled: the script scrolls the box once the page has loaded.
    page.wait_for_function(IN_VIEW_BESIDE_THE_TOTAL, arg=width == "desktop")
    assert latest.inner_text() == "12"  # the demo's Sunday: round 12 was the last one played
    screenshot(page, "standings-latest-round", width)


def test_on_the_clubs_wifi_a_change_waits_its_turn_and_is_answered(
    demo, live_server, page, width, monkeypatch
):
    """Issue 35, finding 10: with two questions from the same address being answered (other
    members on the club's wifi), a changed board was refused and the page "did nothing". Now
    the page asks again a moment later and shows the answer, in place."""
    round_13 = current_rounds().get(number=13)
    boards = list(round_13.games.order_by("board").values_list("board", flat=True))
    drawn = {board: Result.DRAW.value for board in boards}
    page.goto(f"{live_server.url}/wat-als/?ronde=13&leeg={Result.DRAW.value}")
    ranking = page.locator("table.what-if-ranking tbody tr")
    expect(ranking).to_have_count(40)
    page.evaluate("window.notReloaded = true")

    refused = []
    real_too_many = fair_use.too_many
    monkeypatch.setattr(
        fair_use, "too_many", lambda *args: refused.append(args[1]) or real_too_many(*args)
    )
    limits = caches[fair_use.LIMITS_CACHE]
    (limit,) = [rule for rule in fair_use.LIMITS if rule.name == "what-if"]
    others = [f"fair-busy:what-if:127.0.0.1:{number}" for number in range(limit.at_once)]
    for key in others:  # other members' questions are being answered
        assert limits.add(key, 1, timeout=60)
    changed = drawn | {boards[0]: Result.BLACK_WINS.value}
    expected, _pairing, _bye = entered_for_real(round_13, changed)
    page.get_by_label("Uitslag bord 1", exact=True).select_option(Result.BLACK_WINS.value)
    wait_until(lambda: refused == [1], "the busy refusal")
    for key in others:  # their answers are done
        limits.delete(key)
    page.wait_for_function(
        "expected => [...document.querySelectorAll('table.what-if-ranking tbody tr')]"
        ".map(row => row.querySelector('th').innerText).join('|') === expected",
        arg="|".join(row[1] for row in expected),
        timeout=BOUND,
    )
    assert shown_rows(ranking) == expected
    assert page.evaluate("window.notReloaded") is True
    fits_the_screen(page)
    screenshot(page, "what-if-after-busy", width)
