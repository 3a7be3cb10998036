"""The arbiter's admin: results per board, the pairing review, publishing, the history."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from competition.models import Game, Ranking, Round
from tests.factories import round_page_data

AMSTERDAM = ZoneInfo("Europe/Amsterdam")


@pytest.fixture
def round_4(example_competition):
    return Round.objects.create(
        competition=example_competition,
        number=4,
        date=date(2026, 9, 24),
        publish_at=datetime(2026, 9, 18, 20, tzinfo=AMSTERDAM),
    )


def results_url(round_):
    return reverse("admin:competition_round_results", args=[round_.pk])


def post_pair_and_publish(client, round_):
    client.post(reverse("admin:competition_round_pair", args=[round_.pk]))
    return client.post(reverse("admin:competition_round_publish", args=[round_.pk]), follow=True)


def test_the_arbiter_pairs_publishes_and_enters_results_by_shortcut(arbiter_client, round_4):
    response = post_pair_and_publish(arbiter_client, round_4)
    assert "De indeling is gepubliceerd." in response.content.decode()
    games = list(round_4.games.order_by("board"))
    assert len(games) == 5
    page = arbiter_client.get(results_url(round_4)).content.decode()
    assert "autofocus" in page and games[0].white.name in page
    typed = ["1", "r", "0", "1f", "00f"]
    response = arbiter_client.post(
        results_url(round_4),
        {f"game_{g.pk}": t for g, t in zip(games, typed, strict=True)},
        follow=True,
    )
    assert "5 uitslag(en) opgeslagen" in response.content.decode()
    assert [g.result for g in round_4.games.order_by("board")] == [
        "1-0",
        "1/2-1/2",
        "0-1",
        "1-0F",
        "0-0F",
    ]
    assert Ranking.objects.filter(competition=round_4.competition, after_round=4).exists()


def test_an_unknown_result_is_refused_and_nothing_is_saved(arbiter_client, round_4):
    post_pair_and_publish(arbiter_client, round_4)
    games = list(round_4.games.order_by("board"))
    data = {f"game_{g.pk}": "1" for g in games} | {f"game_{games[2].pk}": "2-0"}
    response = arbiter_client.post(results_url(round_4), data)
    assert response.status_code == 200
    assert "Onbekende uitslag &#x27;2-0&#x27;" in response.content.decode()
    assert not round_4.games.exclude(result="").exists()
    assert not Ranking.objects.filter(after_round=4).exists()


def test_results_of_an_unpublished_pairing_are_refused(arbiter_client, round_4):
    arbiter_client.post(reverse("admin:competition_round_pair", args=[round_4.pk]))
    game = round_4.games.first()
    response = arbiter_client.post(results_url(round_4), {f"game_{game.pk}": "1"})
    assert "Publiceer de indeling voordat je uitslagen invoert." in response.content.decode()
    assert round_4.games.filter(result="").count() == 5


def test_swapping_colours_in_the_review_is_saved(arbiter_client, round_4):
    arbiter_client.post(reverse("admin:competition_round_pair", args=[round_4.pk]))
    games = list(round_4.games.order_by("board"))
    first = games[0]
    white, black = first.white_id, first.black_id
    data = round_page_data(round_4, games, **{"games-0-white": black, "games-0-black": white})
    response = arbiter_client.post(
        reverse("admin:competition_round_change", args=[round_4.pk]), data
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    first.refresh_from_db()
    assert (first.white_id, first.black_id) == (black, white)


def test_a_review_that_seats_a_player_twice_is_refused(arbiter_client, round_4):
    arbiter_client.post(reverse("admin:competition_round_pair", args=[round_4.pk]))
    games = list(round_4.games.order_by("board"))
    twice = games[0].white
    data = round_page_data(round_4, games, **{"games-1-white": twice.pk})
    response = arbiter_client.post(
        reverse("admin:competition_round_change", args=[round_4.pk]), data
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert f"{twice.name} is meer dan één keer ingedeeld." in page
    assert f"{games[1].white.name} ontbreekt in de indeling." in page
    assert round_4.games.get(board=2).white_id == games[1].white_id


def test_every_result_change_is_in_the_history_with_who(arbiter_client, arbiter, round_4):
    post_pair_and_publish(arbiter_client, round_4)
    game = round_4.games.get(board=1)
    arbiter_client.post(results_url(round_4), {f"game_{game.pk}": "1"})
    arbiter_client.post(results_url(round_4), {f"game_{game.pk}": "0"})
    history = list(game.history.order_by("history_date"))
    assert [h.result for h in history][-2:] == ["1-0", "0-1"]
    assert {h.history_user for h in history[-2:]} == {arbiter}
    page = arbiter_client.get(reverse("admin:competition_game_history", args=[game.pk]))
    assert page.status_code == 200


def test_visitors_cannot_reach_the_results_page(client, round_4):
    response = client.get(results_url(round_4))
    assert response.status_code == 302 and "/beheer/login/" in response["Location"]


def test_publishing_without_a_pairing_is_refused(arbiter_client, round_4):
    response = arbiter_client.post(
        reverse("admin:competition_round_publish", args=[round_4.pk]), follow=True
    )
    assert "Er is geen indeling om te publiceren." in response.content.decode()
    round_4.refresh_from_db()
    assert not round_4.is_published


def test_the_round_page_shows_forced_repeats(arbiter_client, example_competition):
    example_competition.rounds_per_period = 28
    example_competition.save()
    # Everyone but Jansen and Pietersen cancels: they met in round 1, so it must be a repeat.
    round_4 = Round.objects.create(
        competition=example_competition,
        number=4,
        date=date(2026, 9, 24),
        publish_at=datetime(2026, 9, 18, 20, tzinfo=AMSTERDAM),
    )
    for participant in example_competition.participants.exclude(
        member__name__in=["Jansen", "Pietersen"]
    ):
        round_4.absences.create(participant=participant, reason="excused")
    arbiter_client.post(reverse("admin:competition_round_pair", args=[round_4.pk]))
    page = arbiter_client.get(reverse("admin:competition_round_change", args=[round_4.pk]))
    assert (
        "Jansen en Pietersen speelden deze periode al tegen elkaar (ronde 1)."
        in page.content.decode()
    )
    assert Game.objects.filter(round=round_4).count() == 1


def test_a_new_round_is_published_on_the_friday_before_at_eight_by_default(
    arbiter_client, example_competition
):
    data = {
        "competition": example_competition.pk,
        "number": 4,
        "date": "2026-10-29",
        "publish_at_0": "",
        "publish_at_1": "",
        "bye": "",
        "games-TOTAL_FORMS": 0,
        "games-INITIAL_FORMS": 0,
        "games-MIN_NUM_FORMS": 0,
        "games-MAX_NUM_FORMS": 1000,
        "absences-TOTAL_FORMS": 0,
        "absences-INITIAL_FORMS": 0,
        "absences-MIN_NUM_FORMS": 0,
        "absences-MAX_NUM_FORMS": 1000,
    }
    response = arbiter_client.post(reverse("admin:competition_round_add"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    round_4 = Round.objects.get(number=4)
    # Friday 23 October 2026, 20:00 summer time (the clocks go back two days later).
    assert round_4.publish_at == datetime(2026, 10, 23, 20, tzinfo=AMSTERDAM)
