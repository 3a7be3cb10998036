"""When things happen around a club evening: pure functions of the round's date.

Times are Europe/Amsterdam wall-clock times, built from the local date plus a time of day (never
by adding hours to a UTC instant), so they stay right across the DST weekends.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

CLUB_TIME_ZONE = ZoneInfo("Europe/Amsterdam")
FRIDAY = 4


def last_weekday_before(day: date, weekday: int) -> date:
    """The last `weekday` (Monday = 0) strictly before `day`."""
    return day - timedelta(days=(day.weekday() - weekday - 1) % 7 + 1)


def local_moment(day: date, at: time) -> datetime:
    """The aware instant of a local wall-clock time on a local date."""
    return datetime.combine(day, at, tzinfo=CLUB_TIME_ZONE)


def cancellation_deadline(evening: date, weekday: int = FRIDAY, at: time = time(18)) -> datetime:
    """Cancelling counts as timely until 18:00 on the last Friday before the club evening."""
    return local_moment(last_weekday_before(evening, weekday), at)


def publication_time(evening: date, weekday: int = FRIDAY, at: time = time(20)) -> datetime:
    """The pairing appears at 20:00 on the last Friday before the club evening."""
    return local_moment(last_weekday_before(evening, weekday), at)


def results_final_at(evening: date, at: time = time(23, 30)) -> datetime:
    """A result is provisional until 23:30 on its club evening (DSC rule v)."""
    return local_moment(evening, at)
