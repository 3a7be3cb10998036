"""When things happen around a club evening: the club's week (rules section 7, DSC rule v).

`ClubWeek` holds the club's times and computes, from a club evening's date, the cancellation
deadline, the publication of the pairing and the moment results stop being provisional. Times
are Europe/Amsterdam wall-clock times, built from the local date plus a time of day (never by
adding hours to a UTC instant), so they stay right across the DST weekends.

`club_week()` is the one place that reads those times from the settings; the settings module
holds their defaults (Friday 18:00, 20:00 that Friday, play from 19:45 and results final at
23:30 on the evening).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings

CLUB_TIME_ZONE = ZoneInfo("Europe/Amsterdam")


def last_weekday_before(day: date, weekday: int) -> date:
    """The last `weekday` (Monday = 0) strictly before `day`."""
    return day - timedelta(days=(day.weekday() - weekday - 1) % 7 + 1)


def local_moment(day: date, at: time) -> datetime:
    """The aware instant of a local wall-clock time on a local date."""
    return datetime.combine(day, at, tzinfo=CLUB_TIME_ZONE)


@dataclass(frozen=True)
class ClubWeek:
    deadline_weekday: int  # Monday = 0; the last such day strictly before the club evening
    deadline_time: time  # cancelling counts as timely until this time that day
    publication_time: time  # the pairing appears at this time on the deadline's day
    results_final_time: time  # results are provisional until this time on the evening
    play_time: time  # the games start: members can no longer cancel online

    def deadline_day(self, evening: date) -> date:
        return last_weekday_before(evening, self.deadline_weekday)

    def cancellation_deadline(self, evening: date) -> datetime:
        return local_moment(self.deadline_day(evening), self.deadline_time)

    def publication_at(self, evening: date) -> datetime:
        return local_moment(self.deadline_day(evening), self.publication_time)

    def publication_on_the_evening(self, evening: date) -> datetime:
        """For rounds paired on the evening itself (the rapid competition)."""
        return local_moment(evening, self.publication_time)

    def results_final_at(self, evening: date) -> datetime:
        return local_moment(evening, self.results_final_time)

    def play_starts_at(self, evening: date) -> datetime:
        return local_moment(evening, self.play_time)


def club_week() -> ClubWeek:
    """The club's week as the settings give it (`CLUB_*` in `dsc_site/settings.py`)."""
    return ClubWeek(
        deadline_weekday=settings.CLUB_DEADLINE_WEEKDAY,
        deadline_time=settings.CLUB_DEADLINE_TIME,
        publication_time=settings.CLUB_PUBLICATION_TIME,
        results_final_time=settings.CLUB_RESULTS_FINAL_TIME,
        play_time=settings.CLUB_PLAY_TIME,
    )
