"""Issue 13, points 3 and 4 in a real browser, at phone and desktop width: the standings'
games and rating columns, the switch that shows the rounds' points on a phone, the member's
own row once logged in, and the prize forecast on the player page and in the cancellation
preview."""

import pytest
from playwright.sync_api import expect

from competition.models import Absence, Competition, Game, Participant
from tests.browser.helpers import MEMBER, log_in, screenshot

pytestmark = pytest.mark.browser


def jans_games(jan: Participant) -> tuple[int, int, int]:
    """Jan's wins, draws and losses over the board in rounds 1-12, counted from the games."""
    wins = draws = losses = 0
    for game in Game.objects.filter(round__competition=jan.competition, round__number__lte=12):
        if jan.pk not in (game.white_id, game.black_id):
            continue
        white = game.white_id == jan.pk
        if game.result == Game.Result.DRAW:
            draws += 1
        elif game.result in (Game.Result.WHITE_WINS, Game.Result.BLACK_WINS):
            won = (game.result == Game.Result.WHITE_WINS) == white
            wins, losses = wins + won, losses + (not won)
    return wins, draws, losses


def test_a_member_finds_their_row_their_record_and_what_they_may_still_miss(
    demo, live_server, page, width
):
    competition = Competition.objects.get(season__name="2026-2027", kind="classical")
    jan = competition.participants.get(member__name="Jan de Zeeuw")

    # A visitor: on a phone the rounds' points hide behind a switch; wider they are shown.
    page.goto(f"{live_server.url}/ranglijst/")
    switch = page.get_by_label("Punten per ronde tonen")
    round_cell = page.locator("table.standings tbody tr").first.locator("td.rnd").first
    if width == "phone":
        expect(switch).to_be_visible()
        expect(round_cell).to_be_hidden()
        screenshot(page, "standings-rounds-hidden", width)
        switch.check()
        expect(round_cell).to_be_visible()
        screenshot(page, "standings-rounds-shown", width)
        switch.uncheck()
        expect(round_cell).to_be_hidden()
    else:
        expect(switch).to_be_hidden()
        expect(round_cell).to_be_visible()
    assert page.locator("tr.own").count() == 0  # nobody's row is anybody's for a visitor

    # Jan's games over the board, as the page shows them beside his rating.
    row = page.locator("table.standings tbody tr", has_text="Jan de Zeeuw")
    cells = row.locator("td")
    wins, draws, losses = jans_games(jan)
    shown = [cells.nth(i).inner_text() for i in range(5, 10)]  # games, +, =, −, %
    score = wins + draws / 2
    percent = int(100 * score / (wins + draws + losses) + 0.5)
    assert shown == [str(wins + draws + losses), str(wins), str(draws), str(losses), f"{percent}%"]
    assert cells.nth(4).inner_text().isdigit()  # his KNSB rating

    # Logged in, Jan's own row stands out (and only his).
    log_in(page, live_server.url, MEMBER, "/ranglijst/")
    own = page.locator("tr.own")
    expect(own).to_have_count(1)
    expect(own.locator("th.name")).to_contain_text("Jan de Zeeuw")
    colour = "e => getComputedStyle(e).backgroundColor"
    other = page.locator("table.standings tbody tr:not(.own)").first.locator("td.total")
    assert own.locator("td.total").evaluate(colour) != other.evaluate(colour)
    screenshot(page, "standings-own-row", width)

    # The forecast: 28 evenings ask for 19 (two thirds). Jan has cancelled nothing after
    # round 12, so at most his attendance so far plus the 16 evenings to come.
    assert not Absence.objects.filter(participant=jan, round__number__gt=12).exists()
    attended = jan.standings.get(ranking__after_round=12).attended
    may_miss = attended + 16 - 19
    page.goto(f"{live_server.url}/spelers/{jan.pk}/")
    forecast = page.locator("section.eligibility")
    expect(forecast.locator(".eligibility-verdict")).to_have_text(
        f"Jan de Zeeuw mag nog {may_miss} keer missen."
    )
    expect(forecast).to_contain_text(str(attended + 16))
    screenshot(page, "player-forecast", width, full_page=True)

    # Cancelling two evenings: two fewer to miss, said in the preview before confirming.
    page.goto(f"{live_server.url}/afmelden/")
    for number in (14, 15):
        page.locator(".form-check", has_text=f"Ronde {number},").get_by_role("checkbox").check()
    page.get_by_role("button", name="Laat zien wat er gebeurt").click()
    preview = page.locator("section.preview")
    expect(preview).to_contain_text(f"Met deze afmelding mag je nog {may_miss - 2} keer missen.")
    screenshot(page, "preview-forecast", width)
