"""The admin cannot break the competition: found in review, kept fixed by these tests."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competition import services
from competition.models import Absence, Competition, Game, Round, Season, Standing
from tests.factories import (
    big_engine_season,
    make_played_competition,
    round_page_data,
    worked_example_season,
)

AMSTERDAM = ZoneInfo("Europe/Amsterdam")


def change_url(round_):
    return reverse("admin:competition_round_change", args=[round_.pk])


@pytest.fixture
def round_4(example_competition):
    round_ = Round.objects.create(
        competition=example_competition,
        number=4,
        date=date(2026, 9, 24),
        publish_at=datetime(2026, 9, 18, 20, tzinfo=AMSTERDAM),
    )
    services.make_pairing(round_)
    return round_


def test_the_arbiter_can_add_and_change_a_competition(arbiter_client, example_competition):
    season = Season.objects.create(name="2030-2031", start_date=date(2030, 9, 5))
    data = {
        "season": season.pk,
        "kind": "classical",
        "top_value": 60,
        "step": 1,
        "rounds_per_period": 7,
        "full_revaluation_from_round": 10,
        "bye_fraction": "1",
        "excused_fraction": "1/3",
        "team_fraction": "2/3",
        "auto_absence_fraction": "1/3",
        "participants-TOTAL_FORMS": 0,
        "participants-INITIAL_FORMS": 0,
        "participants-MIN_NUM_FORMS": 0,
        "participants-MAX_NUM_FORMS": 1000,
    }
    response = arbiter_client.post(reverse("admin:competition_competition_add"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Competition.objects.get(season=season).top_value == 60
    refused = arbiter_client.post(
        reverse("admin:competition_competition_add"),
        data | {"kind": "rapid", "excused_fraction": "-1/3"},
    )
    assert "Mag niet negatief zijn." in refused.content.decode()


def test_saving_a_published_round_page_unchanged_works(arbiter_client, example_competition):
    round_3 = Round.objects.get(number=3)
    response = arbiter_client.post(change_url(round_3), round_page_data(round_3))
    assert response.status_code == 302


def test_changing_an_absence_on_a_played_round_recomputes_the_rankings(arbiter_client, db):
    from dataclasses import replace

    from competition.keizer.season import Absence as Reason

    season = worked_example_season(1)
    first = season.rounds[0]
    rounds = (
        replace(
            first,
            games=first.games[:4],
            absent={"de-wit": Reason.EXCUSED, "de-bruin": Reason.EXCUSED},
        ),
    )
    competition, pk = make_played_competition(replace(season, rounds=rounds))
    round_1 = competition.rounds.get(number=1)
    absence = Absence.objects.get(participant_id=pk["de-wit"])
    total = Standing.objects.get(ranking__after_round=1, participant_id=pk["de-wit"]).total
    assert total == 42 + 14  # own value plus a third
    data = round_page_data(round_1, absences=[]) | {
        "absences-TOTAL_FORMS": 2,
        "absences-INITIAL_FORMS": 2,
        "absences-0-id": absence.pk,
        "absences-0-round": round_1.pk,
        "absences-0-participant": pk["de-wit"],
        "absences-0-reason": "unexcused",
        "absences-1-id": Absence.objects.get(participant_id=pk["de-bruin"]).pk,
        "absences-1-round": round_1.pk,
        "absences-1-participant": pk["de-bruin"],
        "absences-1-reason": "excused",
    }
    response = arbiter_client.post(change_url(round_1), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Standing.objects.get(ranking__after_round=1, participant_id=pk["de-wit"]).total == 42


def test_a_player_in_a_published_pairing_cannot_be_recorded_absent(
    arbiter_client, example_competition
):
    round_3 = Round.objects.get(number=3)
    seated = round_3.games.first().white
    response = arbiter_client.post(
        change_url(round_3), round_page_data(round_3, absences=[(seated.pk, "late")])
    )
    assert f"{seated.name} staat in de gepubliceerde indeling" in response.content.decode()
    assert not Absence.objects.filter(participant=seated).exists()


def test_an_absence_from_another_competition_is_refused(
    arbiter_client, example_competition, round_4
):
    _, other_pk = make_played_competition(worked_example_season(1), date(2027, 9, 2))
    games = list(round_4.games.order_by("board"))
    response = arbiter_client.post(
        change_url(round_4),
        round_page_data(round_4, games, absences=[(other_pk["jansen"], "excused")]),
    )
    assert response.status_code == 200
    assert not round_4.absences.exists()


def test_one_save_moves_a_player_from_a_game_to_the_absent_list(arbiter_client, round_4):
    games = list(round_4.games.order_by("board"))
    last = games[-1]
    # The last board's players: one cancels, the other gets the bye.
    data = round_page_data(
        round_4,
        games,
        absences=[(last.white_id, "late")],
        bye=last.black_id,
        **{"games-4-DELETE": "on"},
    )
    response = arbiter_client.post(change_url(round_4), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    round_4.refresh_from_db()
    assert round_4.games.count() == 4 and round_4.bye_id == last.black_id
    assert round_4.absences.get().participant_id == last.white_id


def test_a_player_who_has_not_joined_cannot_be_seated(arbiter_client, round_4):
    games = list(round_4.games.order_by("board"))
    later = round_4.competition.participants.get(pk=games[0].white_id)
    later.joined_round = 5
    later.save()
    response = arbiter_client.post(change_url(round_4), round_page_data(round_4, games))
    assert f"{later.name} doet pas mee vanaf ronde 5." in response.content.decode()


def test_published_rounds_and_games_cannot_be_deleted(arbiter_client, example_competition):
    round_3 = Round.objects.get(number=3)
    game = round_3.games.first()
    assert (
        arbiter_client.post(
            reverse("admin:competition_round_delete", args=[round_3.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    assert (
        arbiter_client.post(
            reverse("admin:competition_game_delete", args=[game.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    assert arbiter_client.get(reverse("admin:competition_absence_add")).status_code == 403
    assert Game.objects.filter(pk=game.pk).exists()


def test_a_season_with_games_can_be_deleted_and_the_demo_reset(db):
    call_command("load_demo")
    call_command("load_demo", "--reset")
    assert Season.objects.count() == 1


def test_a_draft_of_a_past_evening_stays_hidden_from_visitors(client, round_4):
    import time_machine

    with time_machine.travel(datetime(2026, 10, 10, 12, tzinfo=AMSTERDAM), tick=False):
        page = client.get(reverse("competition:pairing")).content.decode()
    assert "Ronde 4," not in page
    assert "Ronde 3," in page


def queries(client, url):
    with CaptureQueriesContext(connection) as context:
        assert client.get(url).status_code == 200
    return len(context.captured_queries)


def test_the_round_list_and_page_do_not_grow_with_the_season(arbiter_client, example_competition):
    small = queries(arbiter_client, reverse("admin:competition_round_changelist"))
    small_page = queries(arbiter_client, change_url(Round.objects.get(number=3)))
    big, _ = make_played_competition(big_engine_season(), date(2027, 9, 2))
    big_round = big.rounds.get(number=28)
    assert queries(arbiter_client, reverse("admin:competition_round_changelist")) == small
    assert queries(arbiter_client, change_url(big_round)) <= small_page + 2
