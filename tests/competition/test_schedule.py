"""The club's week: deadlines, publication and final results around a club evening, across
the DST weekends; and its one home: every way a round comes into being follows the settings."""

import json
from datetime import UTC, date, datetime, time
from io import StringIO

import pytest
import time_machine
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse

from club.models import current
from competition import seasons
from competition.models import Competition, Round, Season
from competition.schedule import club_week
from tests.factories import WORKED_EXAMPLE, import_season_file, make_competition, management_form
from tests.moments import AMSTERDAM, DSC_WEEK

DSC = DSC_WEEK


@pytest.mark.parametrize(
    ("evening", "friday"),
    [
        (date(2026, 11, 26), date(2026, 11, 20)),  # Thursday: the Friday of the week before
        (date(2026, 11, 24), date(2026, 11, 20)),  # Tuesday
        (date(2026, 11, 27), date(2026, 11, 20)),  # a Friday evening: the Friday before it
        (date(2026, 11, 28), date(2026, 11, 27)),  # Saturday: the day before
    ],
)
def test_the_deadline_is_on_the_last_friday_before_the_evening(evening, friday):
    assert DSC.cancellation_deadline(evening).date() == friday
    assert DSC.publication_at(evening).date() == friday


@pytest.mark.parametrize(
    ("evening", "deadline_utc", "publication_utc"),
    [
        # Friday 27 March 2026 is still winter time (CET, UTC+1); DST starts Sunday 29 March.
        (
            date(2026, 4, 2),
            datetime(2026, 3, 27, 17, tzinfo=UTC),
            datetime(2026, 3, 27, 19, tzinfo=UTC),
        ),
        # Friday 3 April 2026 is summer time (CEST, UTC+2).
        (
            date(2026, 4, 9),
            datetime(2026, 4, 3, 16, tzinfo=UTC),
            datetime(2026, 4, 3, 18, tzinfo=UTC),
        ),
        # Friday 23 October 2026 is summer time; DST ends Sunday 25 October.
        (
            date(2026, 10, 29),
            datetime(2026, 10, 23, 16, tzinfo=UTC),
            datetime(2026, 10, 23, 18, tzinfo=UTC),
        ),
        # Friday 30 October 2026 is winter time again.
        (
            date(2026, 11, 5),
            datetime(2026, 10, 30, 17, tzinfo=UTC),
            datetime(2026, 10, 30, 19, tzinfo=UTC),
        ),
    ],
)
def test_deadline_and_publication_are_local_wall_clock_times(
    evening, deadline_utc, publication_utc
):
    assert DSC.cancellation_deadline(evening) == deadline_utc
    assert DSC.publication_at(evening) == publication_utc


def test_results_become_final_at_half_past_eleven_local_time():
    # 29 October 2026 is winter time: 23:30 CET is 22:30 UTC.
    assert DSC.results_final_at(date(2026, 10, 29)) == datetime(2026, 10, 29, 22, 30, tzinfo=UTC)
    assert DSC.results_final_at(date(2026, 10, 22)) == datetime(2026, 10, 22, 21, 30, tzinfo=UTC)


def test_the_club_week_is_dscs_by_default(db):
    assert club_week() == DSC


# A club that cancels until Wednesday 17:00, publishes at 19:15 and closes results at 23:00.
WEDNESDAY_CLUB = {
    "deadline_weekday": 2,
    "deadline_time": time(17),
    "publication_time": time(19, 15),
    "results_final_time": time(23),
}


@pytest.fixture
def wednesday_club(db):
    """The club's week as a Wednesday club's, saved in the club's row as the arbiter would."""
    club = current()
    for name, value in WEDNESDAY_CLUB.items():
        setattr(club, name, value)
    club.save()


def wednesday_before(evening: date) -> date:
    days = (evening.weekday() - 2) % 7 or 7
    return date.fromordinal(evening.toordinal() - days)


def assert_wednesday_times(round_: Round) -> None:
    wednesday = wednesday_before(round_.date)
    # The rapid competition is paired on its evening: published then, at the club's time.
    published = round_.date if round_.competition.pairs_on_the_evening else wednesday
    assert round_.publish_at == datetime.combine(published, time(19, 15), tzinfo=AMSTERDAM)
    assert round_.cancellation_deadline == datetime.combine(wednesday, time(17), tzinfo=AMSTERDAM)
    assert round_.results_final_at == datetime.combine(round_.date, time(23), tzinfo=AMSTERDAM)


@pytest.mark.usefixtures("wednesday_club")
def test_a_round_added_in_the_admin_follows_the_settings(arbiter_client, db):
    competition = make_competition()
    response = arbiter_client.post(
        reverse("arbiter:new-round"),
        {
            "competition": competition.pk,
            "number": 1,
            "date": "2026-09-03",
            "publish_at_0": "",
            "publish_at_1": "",
            "bye": "",
            **management_form("games"),
            **management_form("absences"),
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert_wednesday_times(Round.objects.get())


@pytest.mark.usefixtures("wednesday_club")
def test_a_new_season_follows_the_settings(db):
    competition = seasons.create_season("2027-2028", seasons.proposed_dates(date(2027, 9, 2)))
    assert competition.rounds.count() == 28
    for round_ in competition.rounds.all():
        assert_wednesday_times(round_)


@pytest.mark.usefixtures("wednesday_club")
def test_an_imported_season_follows_the_settings(db, tmp_path):
    path = tmp_path / "season.json"
    path.write_text(WORKED_EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    import_season_file(path, stdout=StringIO())
    rounds = Competition.objects.get().rounds.all()
    assert len(rounds) == len(json.loads(path.read_text())["rounds"]) == 3
    for round_ in rounds:
        assert_wednesday_times(round_)


@pytest.mark.usefixtures("wednesday_club")
@override_settings(DEBUG=True)  # DEBUG as `make run`: the demo needs it
@time_machine.travel(datetime(2026, 11, 22, 12, tzinfo=AMSTERDAM), tick=False)
def test_the_demo_follows_the_settings(db):
    call_command("load_demo", stdout=StringIO())
    rounds = Round.objects.filter(competition__season=Season.objects.get(name="2026-2027"))
    assert rounds.count() == 28 + 9  # the internal competition and the rapid evenings
    for round_ in rounds:
        assert_wednesday_times(round_)


def test_the_games_start_at_a_quarter_to_eight_local_time():
    assert DSC.play_starts_at(date(2026, 10, 29)) == datetime(
        2026, 10, 29, 19, 45, tzinfo=AMSTERDAM
    )
