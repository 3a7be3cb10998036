"""The deadline's edges, across the DST weekends."""

from datetime import UTC, date, datetime, timedelta

import pytest

from absences.rules import Timing, timing
from tests.moments import DSC_WEEK, at

DSC = DSC_WEEK


@pytest.mark.parametrize(
    ("reported", "expected"),
    [
        (at(17, 59, 59), Timing.TIMELY),
        (at(18), Timing.AFTER_DEADLINE),
        (at(19, 59, 59), Timing.AFTER_DEADLINE),
        (at(20), Timing.AFTER_PUBLICATION),
    ],
)
def test_the_edges_of_the_deadline_and_the_publication(reported, expected):
    deadline = DSC.cancellation_deadline(date(2026, 9, 24))
    assert deadline == at(18)
    assert timing(reported, deadline, published_at=at(20)) is expected


def test_before_publication_late_stays_late():
    assert timing(at(21), at(18), published_at=None) is Timing.AFTER_DEADLINE


@pytest.mark.parametrize(
    ("evening", "deadline_utc"),
    [
        (date(2026, 4, 2), datetime(2026, 3, 27, 17, tzinfo=UTC)),  # Friday before DST starts
        (date(2026, 4, 9), datetime(2026, 4, 3, 16, tzinfo=UTC)),  # summer time
        (date(2026, 10, 29), datetime(2026, 10, 23, 16, tzinfo=UTC)),  # Friday before DST ends
        (date(2026, 11, 5), datetime(2026, 10, 30, 17, tzinfo=UTC)),  # winter time again
    ],
)
def test_the_deadline_is_18_local_time_on_both_sides_of_dst(evening, deadline_utc):
    deadline = DSC.cancellation_deadline(evening)
    assert deadline == deadline_utc
    assert timing(deadline_utc - timedelta(seconds=1), deadline, None) is Timing.TIMELY
    assert timing(deadline_utc, deadline, None) is Timing.AFTER_DEADLINE
