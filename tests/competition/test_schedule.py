"""Deadlines and publication times around the club evening, across the DST weekends."""

from datetime import UTC, date, datetime

import pytest

from competition import schedule


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
    assert schedule.cancellation_deadline(evening).date() == friday
    assert schedule.publication_time(evening).date() == friday


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
    assert schedule.cancellation_deadline(evening) == deadline_utc
    assert schedule.publication_time(evening) == publication_utc


def test_results_become_final_at_half_past_eleven_local_time():
    # 29 October 2026 is winter time: 23:30 CET is 22:30 UTC.
    assert schedule.results_final_at(date(2026, 10, 29)) == datetime(
        2026, 10, 29, 22, 30, tzinfo=UTC
    )
    assert schedule.results_final_at(date(2026, 10, 22)) == datetime(
        2026, 10, 22, 21, 30, tzinfo=UTC
    )
