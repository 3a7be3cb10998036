"""`publish_due_rounds`: the pairing appears at its time, once, and never from stale data."""

from datetime import date, datetime
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.management import call_command

from competition import services
from competition.models import Absence, Game, Round

AMSTERDAM = ZoneInfo("Europe/Amsterdam")
FRIDAY_20 = datetime(2026, 9, 18, 20, tzinfo=AMSTERDAM)


@pytest.fixture
def round_4(example_competition):
    return Round.objects.create(
        competition=example_competition, number=4, date=date(2026, 9, 24), publish_at=FRIDAY_20
    )


def run_worker(moment) -> str:
    out = StringIO()
    with time_machine.travel(moment, tick=False):
        call_command("publish_due_rounds", stdout=out)
    return out.getvalue()


def test_nothing_is_published_before_eight(round_4):
    run_worker(datetime(2026, 9, 18, 19, 59, 59, tzinfo=AMSTERDAM))
    round_4.refresh_from_db()
    assert not round_4.is_published and not round_4.games.exists()


def test_at_eight_the_round_is_paired_and_published_once(round_4):
    output = run_worker(FRIDAY_20)
    round_4.refresh_from_db()
    assert round_4.published_at == FRIDAY_20 and round_4.games.count() == 5
    assert "published: Ronde 4" in output
    games = list(round_4.games.values_list("board", "white_id", "black_id"))
    assert run_worker(datetime(2026, 9, 18, 21, 30, tzinfo=AMSTERDAM)) == ""
    round_4.refresh_from_db()
    assert round_4.published_at == FRIDAY_20
    assert list(round_4.games.values_list("board", "white_id", "black_id")) == games


def test_a_worker_that_was_down_catches_up(round_4):
    run_worker(datetime(2026, 9, 18, 21, 30, tzinfo=AMSTERDAM))
    round_4.refresh_from_db()
    assert round_4.published_at == datetime(2026, 9, 18, 21, 30, tzinfo=AMSTERDAM)


def test_the_arbiters_draft_is_published_as_reviewed(round_4):
    services.make_pairing(round_4)
    first = round_4.games.get(board=1)
    first.white_id, first.black_id = first.black_id, first.white_id
    first.save()
    run_worker(FRIDAY_20)
    first.refresh_from_db()
    assert round_4.games.count() == 5 and Round.objects.get(pk=round_4.pk).is_published
    assert Game.objects.get(pk=first.pk).white_id == first.white_id


def test_nothing_is_published_while_a_result_of_the_previous_round_is_missing(round_4):
    Game.objects.filter(round__number=3, board=2).update(result="")
    run_worker(FRIDAY_20)
    round_4.refresh_from_db()
    assert not round_4.is_published and not round_4.games.exists()


def test_an_inconsistent_draft_is_not_published(round_4):
    services.make_pairing(round_4)
    seated = round_4.games.first().white_id
    Absence.objects.create(round=round_4, participant_id=seated, reason="excused")
    run_worker(FRIDAY_20)
    round_4.refresh_from_db()
    assert not round_4.is_published
