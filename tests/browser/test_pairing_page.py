"""Issue 37, finding 6 and the pairing's smaller points in a real browser at 390 and 1280 px:
/indeling/ names the members away for a team match with their reason, marks the logged-in
member's own board in every round, and a round not played yet carries no "voorlopig"."""

from datetime import timedelta

import pytest
from playwright.sync_api import expect

from competition.models import Competition, Game
from members.models import ExternalGame
from tests.browser.helpers import MEMBER, SCREENSHOTS, laid_out, log_in

pytestmark = pytest.mark.browser

VIEWPORTS = {390: 844, 1280: 900}


def shot(page, name, px):
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}-{px}.png"))


@pytest.mark.parametrize("px", [390, 1280])
def test_the_pairing_names_team_match_absentees_and_marks_the_own_board(
    demo, live_server, page, px
):
    competition = Competition.objects.get(season__name="2026-2027", kind="classical")
    jan = competition.participants.get(member__name="Jan de Zeeuw")
    fourth = competition.rounds.get(number=4)
    seated = {p for g in fourth.games.all() for p in (g.white.member_id, g.black.member_id)}
    away = sorted(
        {
            external.member.name
            for external in ExternalGame.objects.filter(
                match__date__in=[fourth.date, fourth.date + timedelta(days=1)]
            ).select_related("member")
            if external.member_id not in seated
            and competition.participants.filter(member_id=external.member_id).exists()
        }
    )
    # Most of them did not cancel: only the line-up says they are away (main left them out);
    # for those who did, the team match takes precedence (DSC rule f).
    cancelled = set(fourth.absences.values_list("participant__member__name", flat=True))
    assert len(set(away) - cancelled) >= 4
    # Round 13 (Thursday; now is Sunday) with a forfeit already: a cancellation after the
    # early publication. It has not been played: no "voorlopig".
    coming = competition.rounds.get(number=13)
    forfeit = coming.games.exclude(white=jan).exclude(black=jan).first()
    forfeit.result = Game.Result.WHITE_WINS_BY_FORFEIT
    forfeit.save()

    page.set_viewport_size({"width": px, "height": VIEWPORTS[px]})
    log_in(page, live_server.url, MEMBER, "/indeling/")
    laid_out(page)
    section = page.locator("section", has=page.get_by_role("heading", name="Ronde 4,"))
    absent = section.locator(".absent-players")
    for name in away:
        expect(absent).to_contain_text(f"{name} (teamwedstrijd)")
    absent.scroll_into_view_if_needed()
    shot(page, "pairing-page-team-absentees", px)

    thirteen = page.locator("section.coming-round", has_text="Ronde 13")
    expect(thirteen.locator("h2 .badge", has_text="voorlopig")).to_have_count(0)
    own = thirteen.locator("table.pairing tr.own")
    expect(own).to_have_count(1)
    expect(own).to_contain_text("Jan de Zeeuw")
    colour = "e => getComputedStyle(e).backgroundColor"
    other = thirteen.locator("table.pairing tbody tr:not(.own) td").first
    assert own.locator("td").first.evaluate(colour) != other.evaluate(colour)
    # and in every round he played
    for number in (1, 2):
        played = page.locator("section", has=page.get_by_role("heading", name=f"Ronde {number},"))
        if jan.pk in {
            p
            for g in competition.rounds.get(number=number).games.all()
            for p in (g.white_id, g.black_id)
        }:
            expect(played.locator("tr.own")).to_contain_text("Jan de Zeeuw")
    own.scroll_into_view_if_needed()
    shot(page, "pairing-page-own-board", px)
