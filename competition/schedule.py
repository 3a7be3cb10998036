"""When things happen around a club evening: the club's week (rules section 7, DSC rule v).

`ClubWeek` holds the club's times and computes, from a club evening's date, the cancellation
deadline, the publication of the pairing, the start of play and the moment results stop being
provisional. Times are the club's wall-clock times (its zone: `TIME_ZONE`, Europe/Amsterdam),
built from the local date plus a time of day (never by adding hours to a UTC instant), so they
stay right across the DST weekends. `before` is the one comparison with such a moment: at the
moment itself (18:00:00) it has come, so a cancellation then is late.

`club_week()` is the one place that reads those times, from the club's row (issue 40: the
club's week is data the arbiter edits; DSC's is Friday 18:00, 20:00 that Friday, play from
19:45 and results final at 23:30 on the evening). A season's club evenings are a week apart
(`EVENING_SPACING`) until the arbiter moves one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo
from zoneinfo import ZoneInfo

from django.conf import settings

from club.models import current

EVENING_SPACING = timedelta(weeks=1)  # a club evening every week


def weekly_evenings(first: date, count: int) -> list[date]:
    """`count` club evenings a week apart from the first."""
    return [first + EVENING_SPACING * week for week in range(count)]


def before(moment: datetime, limit: datetime) -> bool:
    """Whether `moment` is before a moment of the club's week: strictly earlier, so at the
    limit itself (a cancellation at 18:00:00, a result at 23:30:00) it has come. Aware
    instants compare in UTC, whatever their zone."""
    return moment < limit


def next_weekday(day: date, weekday: int) -> date:
    """The first `weekday` (Monday = 0) on or after `day`."""
    return day + timedelta(days=(weekday - day.weekday()) % 7)


def last_weekday_before(day: date, weekday: int) -> date:
    """The last `weekday` (Monday = 0) strictly before `day`."""
    return day - timedelta(days=(day.weekday() - weekday - 1) % 7 + 1)


@dataclass(frozen=True)
class ClubWeek:
    deadline_weekday: int  # Monday = 0; the last such day strictly before the club evening
    deadline_time: time  # cancelling counts as timely until this time that day
    publication_time: time  # the pairing appears at this time on the publication's day
    results_final_time: time  # results are provisional until this time on the evening
    play_time: time  # the games start: members can no longer cancel online
    zone: tzinfo  # the club's wall clock
    # The members who asked for it are reminded on the deadline's day, from this time until
    # the deadline, that they can still cancel in time.
    reminder_time: time = time(9)
    # The last such day before the evening the pairing appears on; None: the deadline's day.
    publication_weekday: int | None = None

    def moment(self, day: date, at: time) -> datetime:
        """The aware instant of a wall-clock time on a date of the club's."""
        return datetime.combine(day, at, tzinfo=self.zone)

    def deadline_day(self, evening: date) -> date:
        return last_weekday_before(evening, self.deadline_weekday)

    def cancellation_deadline(self, evening: date) -> datetime:
        return self.moment(self.deadline_day(evening), self.deadline_time)

    def reminder_at(self, evening: date) -> datetime:
        return self.moment(self.deadline_day(evening), self.reminder_time)

    def publication_day(self, evening: date) -> date:
        if self.publication_weekday is None:
            return self.deadline_day(evening)
        return last_weekday_before(evening, self.publication_weekday)

    def publication_at(self, evening: date) -> datetime:
        return self.moment(self.publication_day(evening), self.publication_time)

    def publishes_before_the_deadline(self, evening: date) -> bool:
        """A week out of order: the pairing would appear while members may still cancel."""
        return before(self.publication_at(evening), self.cancellation_deadline(evening))

    def publishes_after_play_starts(self, evening: date) -> bool:
        return not before(self.publication_at(evening), self.play_starts_at(evening))

    def publication_on_the_evening(self, evening: date) -> datetime:
        """For rounds paired on the evening itself (the rapid competition)."""
        return self.moment(evening, self.publication_time)

    def results_final_at(self, evening: date) -> datetime:
        return self.moment(evening, self.results_final_time)

    def play_starts_at(self, evening: date) -> datetime:
        return self.moment(evening, self.play_time)


def club_week() -> ClubWeek:
    """The club's week as the club's row gives it (`club.current()`, read once per request or
    worker pass), on the club's clock (`TIME_ZONE`)."""
    return week_of(current())


def week_of(club) -> ClubWeek:
    """The week of a club's row, saved or not (the arbiter's preview of a change)."""
    return ClubWeek(
        deadline_weekday=club.deadline_weekday,
        deadline_time=club.deadline_time,
        publication_time=club.publication_time,
        results_final_time=club.results_final_time,
        play_time=club.play_time,
        zone=ZoneInfo(settings.TIME_ZONE),
        reminder_time=club.reminder_time,
        publication_weekday=club.publication_weekday,
    )
