""" "Uitslag doorgeven" from the pairing e-mail without a password (issue 23, point 4): the
player's own game page for the link's member only, while the evening takes the players'
results; it stores their report as the logged-in page does and grants no login."""

import re
from urllib.parse import urlsplit

import pytest
import time_machine
from django.urls import reverse

from competition.models import ResultReport
from members import links
from tests.moments import EVENING_4, at

DURING = at(21, day=EVENING_4)


@pytest.fixture
def game(published_round_4, jansen):
    player = published_round_4.competition.participants.get(member=jansen)
    return (
        published_round_4.games.involving(player)
        .select_related("white__member", "black__member")
        .get()
    )


def result_link(member, round_) -> str:
    parts = urlsplit(links.address("competition:result-by-link", member, round_.pk, links.RESULT))
    return f"{parts.path}?{parts.query}"


def test_a_player_enters_the_result_from_the_link_without_logging_in(client, game, jansen):
    path = result_link(jansen, game.round)
    with time_machine.travel(DURING, tick=False):
        page = client.get(path).content.decode()
        assert "Ronde 4" in page and "bord" in page
        assert re.findall(r'name="result" value="([^"]+)"', page) == ["1-0", "1/2-1/2", "0-1"]
        client.post(path, {"result": "1/2-1/2"})
    report = ResultReport.objects.get(game=game)
    assert report.participant.member == jansen and report.result == "1/2-1/2"
    assert report.reported_by == jansen.user
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("members:profile")).status_code == 302


def test_the_link_of_a_member_without_an_account_works_too(client, game, jansen):
    account = jansen.user
    jansen.user = None
    jansen.save()
    account.delete()
    with time_machine.travel(DURING, tick=False):
        client.post(result_link(jansen, game.round), {"result": "1-0"})
    report = ResultReport.objects.get(game=game)
    assert report.participant.member == jansen and report.reported_by is None


def test_before_the_games_begin_the_page_says_when(client, game, jansen):
    with time_machine.travel(at(21), tick=False):  # Friday, the pairing just published
        page = client.get(result_link(jansen, game.round)).content.decode()
        client.post(result_link(jansen, game.round), {"result": "1-0"})
    assert 'name="result"' not in page
    assert not ResultReport.objects.exists()


def test_after_the_evening_the_link_no_longer_works(client, game, jansen):
    with time_machine.travel(at(23, 31, day=EVENING_4), tick=False):
        response = client.get(result_link(jansen, game.round))
        client.post(result_link(jansen, game.round), {"result": "1-0"})
    assert response.status_code == 410
    assert "Deze link werkt niet meer: de uitslagen van ronde 4 staan vast" in (
        response.content.decode()
    )
    assert not ResultReport.objects.exists()


@pytest.mark.parametrize("damage", ["cut", "cancel link", "another round"])
def test_a_damaged_or_foreign_link_is_refused(client, game, jansen, damage):
    if damage == "cut":
        path = result_link(jansen, game.round)[:-2]
    elif damage == "cancel link":
        code = links.code(jansen, game.round.pk, links.CANCEL)
        path = reverse("competition:result-by-link") + "?code=" + code
    else:  # a round Jansen has no game in
        path = (
            reverse("competition:result-by-link")
            + "?code="
            + links.code(jansen, game.round.pk + 100, links.RESULT)
        )
    with time_machine.travel(DURING, tick=False):
        response = client.get(path)
        client.post(path, {"result": "1-0"})
    assert response.status_code == 400
    assert "Deze link klopt niet." in response.content.decode()
    assert not ResultReport.objects.exists()


def test_the_pairing_email_carries_both_links(published_round_4, jansen, mailoutbox):
    from clubweek import pairing_mail

    pairing_mail.pairing(published_round_4)
    mine = next(m for m in mailoutbox if m.to == ["jansen@example.org"])
    assert "Ik kan niet komen: http" in mine.body
    assert "Uitslag doorgeven (op de avond, vanaf 19:45): http" in mine.body
