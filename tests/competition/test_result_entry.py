"""The pages around the players' results: a player's own game page, its link on the home and
pairing pages (never in a visitor's cached copy), the arbiter's start page, results page and
the game's history."""

import re

import pytest
import time_machine
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competition import services
from competition.models import Game, ResultReport
from tests.moments import EVENING_4, at

WHITE_WINS, DRAW, BLACK_WINS = "1-0", "1/2-1/2", "0-1"
DURING = at(21, day=EVENING_4)


@pytest.fixture
def game(published_round_4, jansen):
    """Jansen's game in round 4; his opponent has an account ("opponent") too."""
    game = (
        published_round_4.games.involving(
            published_round_4.competition.participants.get(member=jansen)
        )
        .select_related("white__member", "black__member")
        .get()
    )
    opponent = game.black if game.white.member == jansen else game.white
    opponent.member.user = User.objects.create_user("opponent", password="opponent-pw")
    opponent.member.save()
    return game


def own_page(game) -> str:
    return reverse("competition:own-game", args=[game.pk])


def user_of(game, colour):
    return getattr(game, colour).member.user


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def buttons(page: str) -> list[str]:
    return re.findall(r'<button type="submit" name="result" value="([^"]+)"', page)


@time_machine.travel(DURING, tick=False)
def test_a_player_enters_the_result_and_sees_the_opponents_turn(game):
    white = client_of(user_of(game, "white"))
    page = white.get(own_page(game)).content.decode()
    assert "Mijn partij" in page and f"bord {game.board}" in page
    assert buttons(page) == [WHITE_WINS, DRAW, BLACK_WINS]  # forfeits are the arbiter's
    assert f"{game.white.name} wint" in page and "Remise" in page
    assert 'name="csrfmiddlewaretoken"' in page
    response = white.post(own_page(game), {"result": WHITE_WINS}, follow=True)
    page = response.content.decode()
    assert f"Je uitslag is bewaard. Die staat als {game.black.name} hetzelfde doorgeeft." in page
    assert "Jij gaf 1-0 door om 21:00." in page
    assert f"{game.black.name} heeft nog geen uitslag doorgegeven." in page
    black = client_of(user_of(game, "black"))
    page = black.get(own_page(game)).content.decode()
    assert f"{game.white.name} gaf 1-0 door om 21:00." in page
    page = black.post(own_page(game), {"result": WHITE_WINS}, follow=True).content.decode()
    assert f"{game.white.name} gaf dezelfde uitslag door: 1-0 staat (voorlopig tot 23:30)." in page
    assert "De uitslag: 1-0" in page and buttons(page) == []


@time_machine.travel(DURING, tick=False)
def test_when_the_players_differ_both_are_told_and_may_choose_again(game):
    white = client_of(user_of(game, "white"))
    black = client_of(user_of(game, "black"))
    white.post(own_page(game), {"result": WHITE_WINS})
    page = black.post(own_page(game), {"result": DRAW}, follow=True).content.decode()
    assert (
        f"Je uitslag is bewaard, maar {game.white.name} gaf een andere door: de "
        "wedstrijdleider beslist." in page
    )
    for client in (white, black):
        page = client.get(own_page(game)).content.decode()
        assert "Jullie uitslagen verschillen: de wedstrijdleider beslist." in page
        assert buttons(page) == [WHITE_WINS, DRAW, BLACK_WINS]
    assert Game.objects.get(pk=game.pk).result == ""


@time_machine.travel(DURING, tick=False)
def test_bad_input_is_refused_in_dutch_and_changes_nothing(game):
    white = client_of(user_of(game, "white"))
    for data in ({"result": "1-0F"}, {"result": "x"}, {}):
        response = white.post(own_page(game), data)
        assert response.status_code == 400
        assert "Kies de uitslag van je partij." in response.content.decode()
    assert not ResultReport.objects.exists()


@time_machine.travel(DURING, tick=False)
def test_another_members_game_is_refused_and_a_visitor_must_log_in(game, published_round_4):
    other = published_round_4.games.exclude(pk=game.pk).select_related("white__member").first()
    stranger = other.white.member
    stranger.user = User.objects.create_user("stranger")
    stranger.save()
    client = client_of(stranger.user)
    response = client.get(own_page(game))
    assert response.status_code == 403
    assert "Dit is niet jouw partij" in response.content.decode()
    response = client.post(own_page(game), {"result": WHITE_WINS})
    assert response.status_code == 403 and not ResultReport.objects.exists()
    visitor = Client().get(own_page(game))
    assert visitor.status_code == 302 and visitor["Location"].startswith("/accounts/login/")


def test_a_draft_pairings_game_is_not_found(paired_round_4, jansen):
    game = paired_round_4.games.involving(
        paired_round_4.competition.participants.get(member=jansen)
    ).get()
    assert client_of(jansen.user).get(own_page(game)).status_code == 404


def test_before_the_games_start_the_page_says_from_when(game):
    with time_machine.travel(at(19, day=EVENING_4), tick=False):
        page = client_of(user_of(game, "white")).get(own_page(game)).content.decode()
    assert "Je kunt de uitslag doorgeven vanaf donderdag 24 september 19:45" in page
    assert buttons(page) == []


def test_the_link_is_on_a_players_own_pages_and_never_in_a_visitors_copy(game):
    visitor = Client()
    player = client_of(user_of(game, "white"))
    link = f'href="{own_page(game)}"'
    with time_machine.travel(DURING, tick=False):
        for url in (reverse("competition:pairing"), reverse("competition:home")):
            before = visitor.get(url).content.decode()  # stored in the page cache
            assert link not in before and "Jouw partij" not in before
            mine = player.get(url).content.decode()
            assert link in mine and "Uitslag doorgeven" in mine
            with CaptureQueriesContext(connection) as queries:
                after = visitor.get(url).content.decode()
            assert not queries.captured_queries  # the visitor's stored copy
            assert after == before
    # Before the evening the pairing page has no such link for the player either.
    with time_machine.travel(at(12, day=EVENING_4), tick=False):
        assert link not in player.get(reverse("competition:pairing")).content.decode()


def test_the_start_page_lists_what_the_arbiter_decides_and_deciding_stores_it(
    game, arbiter_client, arbiter
):
    services.report_result(game, user_of(game, "white"), WHITE_WINS, DURING)
    with time_machine.travel(at(22, day=EVENING_4), tick=False):
        page = arbiter_client.get("/beheer/").content.decode()
        assert "Uitslagen om te beslissen" not in page  # one report waits until 23:30
        services.report_result(game, user_of(game, "black"), BLACK_WINS, at(22, day=EVENING_4))
        page = arbiter_client.get("/beheer/").content.decode()
    assert "Uitslagen om te beslissen" in page
    assert f"Ronde 4, bord {game.board}: {game.white.name} – {game.black.name}" in page
    assert f"{game.white.name} (wit): 1-0, doorgegeven donderdag 24 september 21:00" in page
    assert f"{game.black.name} (zwart): 0-1, doorgegeven donderdag 24 september 22:00" in page
    decide = reverse("arbiter:decide", args=[game.pk])
    assert f'action="{decide}"' in page
    assert "1-0 vaststellen" in page and "0-1 vaststellen" in page
    with time_machine.travel(at(22, 5, day=EVENING_4), tick=False):
        response = arbiter_client.post(decide, {"result": BLACK_WINS}, follow=True)
    page = response.content.decode()
    assert f"Ronde 4, bord {game.board}: 0-1." in page
    assert "Uitslagen om te beslissen" not in page
    assert Game.objects.get(pk=game.pk).result == BLACK_WINS
    assert game.history.order_by("history_id").last().history_user == arbiter


def test_after_half_past_eleven_a_lone_result_is_on_the_start_page(game, arbiter_client):
    services.report_result(game, user_of(game, "black"), DRAW, DURING)
    with time_machine.travel(at(23, 30, day=EVENING_4), tick=False):
        page = arbiter_client.get("/beheer/").content.decode()
    assert "Uitslagen om te beslissen" in page
    assert f"{game.white.name} (wit): niets doorgegeven" in page
    assert "½-½ vaststellen" in page


def test_only_the_arbiter_decides(game):
    services.report_result(game, user_of(game, "white"), WHITE_WINS, DURING)
    decide = reverse("arbiter:decide", args=[game.pk])
    staff = User.objects.create_user("staff", is_staff=True)
    response = client_of(staff).post(decide, {"result": WHITE_WINS})
    assert response.status_code == 403 and Game.objects.get(pk=game.pk).result == ""


def test_the_games_history_shows_each_players_entry_with_who_and_when(game, arbiter_client):
    white, black = user_of(game, "white"), user_of(game, "black")
    services.report_result(game, white, DRAW, DURING)
    services.report_result(game, white, WHITE_WINS, at(21, 2, day=EVENING_4))
    services.report_result(game, black, WHITE_WINS, at(21, 7, day=EVENING_4))
    page = arbiter_client.get(
        reverse("admin:competition_game_history", args=[game.pk])
    ).content.decode()
    assert "Uitslagen doorgegeven door de spelers" in page
    section = page.split('id="player-entries-title"')[1]
    rows = re.findall(r"<tr>\s*(.*?)\s*</tr>", section, re.S)
    cells = [re.findall(r'data-label="[^"]+">(.*?)</td>', row, re.S) for row in rows[1:]]
    assert cells == [
        ["24 september 2026 21:00", game.white.name, "½-½", "doorgegeven", white.username],
        [
            "24 september 2026 21:02",
            game.white.name,
            "1-0",
            "opnieuw doorgegeven (vervangt de vorige)",
            white.username,
        ],
        ["24 september 2026 21:07", game.black.name, "1-0", "doorgegeven", black.username],
    ]
    # Beside it, the result's own change, in the second player's name.
    assert "Beide spelers gaven deze uitslag door" in page


def test_the_results_page_shows_the_players_entries_and_keeps_a_result_agreed_meanwhile(
    game, published_round_4, arbiter_client
):
    results = reverse("arbiter:results", args=[published_round_4.pk])
    services.report_result(game, user_of(game, "white"), WHITE_WINS, DURING)
    with time_machine.travel(DURING, tick=False):
        page = arbiter_client.get(results).content.decode()
    assert f"{game.white.name}: 1-0 (21:00)" in page
    assert f'<input type="hidden" name="initial-game_{game.pk}"' in page  # what it showed
    # Meanwhile the opponent agrees; the arbiter then saves the page as it was shown, with
    # one other board typed in.
    services.report_result(game, user_of(game, "black"), WHITE_WINS, DURING)
    other = published_round_4.games.exclude(pk=game.pk).first()
    data = {}
    for board in published_round_4.games.all():
        data[f"game_{board.pk}"] = data[f"initial-game_{board.pk}"] = ""
    data[f"game_{other.pk}"] = "r"
    with time_machine.travel(at(22, day=EVENING_4), tick=False):
        response = arbiter_client.post(results, data)
    assert response.status_code == 302
    assert Game.objects.get(pk=game.pk).result == WHITE_WINS  # not wiped by the stale blank
    assert Game.objects.get(pk=other.pk).result == DRAW
    # A board the arbiter does change is changed, whatever the players said.
    data[f"initial-game_{game.pk}"] = WHITE_WINS
    data[f"game_{game.pk}"] = "0"
    with time_machine.travel(at(22, 1, day=EVENING_4), tick=False):
        arbiter_client.post(results, data)
    assert Game.objects.get(pk=game.pk).result == BLACK_WINS
