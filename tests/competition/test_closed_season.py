"""A closed season says so (issue 35, finding 11): home says the season is closed, on which date
and why, instead of the next evening with its cancel button; `/indeling/` says it above the
rounds and promises no pairing any more; reopening brings it all back. The worked example's
season is closed on Friday 18 September 2026 at 10:00, the morning after round 3 and before
round 4's deadline (round 4: Thursday 24 September)."""

import re
from datetime import date

import time_machine
from django.test import Client
from django.urls import reverse

from competition import seasons
from competition.models import Game, Season
from tests.moments import at

HOME = reverse("competition:home")
PAIRING = reverse("competition:pairing")
CLOSED_AT = at(10)
REASON = "De competitie stopt na ronde 3."
# Written out from the issue: the date, the arbiter's reason, and that nothing more is played.
SAID = (
    "Seizoen 2026-2027 is afgesloten op vrijdag 18 september 2026. "
    "Reden: De competitie stopt na ronde 3. "
    "De stand is definitief: er worden geen rondes meer gespeeld."
)


def main_text(response) -> str:
    """What the page's main part says, without markup (the menu always offers "Afmelden")."""
    assert response.status_code == 200
    main = re.search(r"<main.*?</main>", response.content.decode(), re.S)[0]
    return " ".join(re.sub(r"<[^>]+>", " ", main).split())


def close(season: Season, reason: str = REASON) -> None:
    with time_machine.travel(CLOSED_AT, tick=False):
        seasons.close_season(season, CLOSED_AT, reason)


def test_home_says_the_season_is_closed_with_date_and_reason_instead_of_the_next_evening(
    jansen_client, round_4
):
    visitor = Client()  # served from the page cache: the closing is a write, so it follows
    with time_machine.travel(at(12), tick=False):
        before = main_text(jansen_client.get(HOME))
        assert "Volgende clubavond: ronde 4" in main_text(visitor.get(HOME))
    assert "Volgende clubavond: ronde 4" in before and "Afmelden of aanmelden" in before
    assert "afgesloten" not in before

    close(round_4.competition.season)
    with time_machine.travel(at(12), tick=False):
        page = main_text(jansen_client.get(HOME))
        cached = main_text(visitor.get(HOME))
    for seen in (page, cached):
        assert SAID in seen
        assert "Volgende clubavond" not in seen and "Afmelden of aanmelden" not in seen
        assert "De indeling verschijnt" not in seen
        assert "Ranglijst na ronde 3" in seen  # the final standings stay

    seasons.reopen_season(Season.objects.get(), "Per ongeluk afgesloten")
    with time_machine.travel(at(12), tick=False):
        again = main_text(jansen_client.get(HOME))
    assert "Volgende clubavond: ronde 4" in again and "Afmelden of aanmelden" in again
    assert "afgesloten" not in again


def test_the_pairing_page_says_it_above_the_rounds_and_promises_no_publication(client, round_4):
    close(round_4.competition.season)
    with time_machine.travel(at(12), tick=False):
        page = main_text(client.get(PAIRING))
    assert SAID in page
    assert page.index(SAID) < page.index("Ronde 3, 17 september 2026")
    # Round 4 is never published now: no "De indeling verschijnt op vrijdag 18 september".
    assert "De indeling verschijnt" not in page and "Ronde 4" not in page

    seasons.reopen_season(Season.objects.get(), "Per ongeluk afgesloten")
    with time_machine.travel(at(12), tick=False):
        again = main_text(client.get(PAIRING))
    assert "afgesloten" not in again
    assert "De indeling verschijnt op vrijdag 18 september 20:00." in again


def test_a_published_round_the_closing_called_off_is_marked_and_takes_no_result(
    jansen_client, jansen, published_round_4
):
    """Published on Friday, closed on Saturday: its pairing stays readable, marked as not
    played, and the evening offers Jansen no "Uitslag doorgeven"."""
    saturday = at(11, day=date(2026, 9, 19))
    with time_machine.travel(saturday, tick=False):
        seasons.close_season(published_round_4.competition.season, saturday, "Zaal gesloten")
    player = published_round_4.competition.participants.get(member=jansen)
    game = Game.objects.involving(player).get(round=published_round_4)
    with time_machine.travel(at(20, day=date(2026, 9, 24)), tick=False):  # the evening
        page = main_text(jansen_client.get(PAIRING))
    assert (
        "Seizoen 2026-2027 is afgesloten op zaterdag 19 september 2026. Reden: Zaal gesloten."
        in (page)
    )
    assert "Ronde 4, donderdag 24 september 2026 vervalt: het seizoen is afgesloten" in page
    assert game.white.name in page and game.black.name in page
    assert "Uitslag doorgeven" not in page


def test_the_members_next_evening_on_their_player_page_says_the_season_is_closed(
    jansen_client, jansen, round_4
):
    player = round_4.competition.participants.get(member=jansen)
    url = reverse("competition:player", args=[player.pk])
    close(round_4.competition.season)
    with time_machine.travel(at(12), tick=False):
        page = main_text(jansen_client.get(url))
    assert f"Mijn volgende clubavond {SAID}" in page
    assert "Afmelden of aanmelden" not in page


def test_a_season_closed_after_its_last_round_says_so_without_a_reason_asked(
    client, example_competition
):
    """Every round played: the arbiter closes without a reason; the history's own reason is
    what the pages give."""
    close(example_competition.season, reason="")
    with time_machine.travel(at(12), tick=False):
        page = main_text(client.get(PAIRING))
    assert (
        "Seizoen 2026-2027 is afgesloten op vrijdag 18 september 2026. "
        "Reden: Afgesloten na de laatste ronde. "
        "De stand is definitief: er worden geen rondes meer gespeeld."
    ) in page
