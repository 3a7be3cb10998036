"""No typed work is lost to a session end (issue 24, finding 12): a session lives while it is
used, and results posted after it ended come back filled after the login, saved only when the
arbiter sends them again."""

import re

import time_machine
from django.conf import settings
from django.urls import reverse

from competition import services
from tests.moments import EVENING_4, at

DURING = at(21, day=EVENING_4)


def test_a_session_lives_while_it_is_used(arbiter_client):
    assert settings.SESSION_SAVE_EVERY_REQUEST
    assert settings.SESSION_COOKIE_AGE == 14 * 24 * 3600
    first = arbiter_client.get("/beheer/")
    expires = first.cookies[settings.SESSION_COOKIE_NAME]["expires"]
    assert expires  # the cookie is renewed on every request, not only at the login


@time_machine.travel(DURING, tick=False)
def test_results_posted_after_the_session_ended_come_back_after_the_login(
    arbiter_client, paired_round_4
):
    services.publish(paired_round_4, at(20))
    url = reverse("arbiter:results", args=[paired_round_4.pk])
    games = list(paired_round_4.games.order_by("board"))
    arbiter_client.get(url)
    arbiter_client.logout()  # the session ends while the arbiter types
    typed = {
        f"game_{game.pk}": code for game, code in zip(games, ["1", "r", "0", "1", "0"], strict=True)
    }
    sent = arbiter_client.post(url, typed)
    assert sent.status_code == 302 and sent["Location"].startswith("/beheer/login/")
    assert not paired_round_4.games.exclude(result="").exists()

    back = arbiter_client.post(
        sent["Location"],
        {"username": "arbiter", "password": "arbiter-password"},
        follow=True,
    )
    page = back.content.decode()
    assert back.redirect_chain[-1][0] == url
    assert "Je was uitgelogd voordat dit formulier was opgeslagen" in page
    for game in games:
        value = re.search(rf'name="game_{game.pk}"[^>]*value="([^"]*)"', page)
        assert value and value[1] == typed[f"game_{game.pk}"]
    assert not paired_round_4.games.exclude(result="").exists()  # saved only when sent again
    assert "Je was uitgelogd" not in arbiter_client.get(url).content.decode()  # once
    arbiter_client.post(url, typed)
    assert not paired_round_4.games.filter(result="").exists()
