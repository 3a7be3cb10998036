"""Named moments of the worked example's club week (Europe/Amsterdam wall-clock times).

The worked example is stored from Thursday 3 September 2026; its round 4 is on Thursday
24 September, with the deadline on Friday 18 September at 18:00 and the pairing at 20:00.
"""

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

from competition.schedule import ClubWeek

AMSTERDAM = ZoneInfo("Europe/Amsterdam")
EVENING_4 = date(2026, 9, 24)
FRIDAY = date(2026, 9, 18)


def at(hour: int, minute: int = 0, second: int = 0, day: date = FRIDAY) -> datetime:
    """An aware moment on `day` (the Friday before round 4 unless told)."""
    return datetime(day.year, day.month, day.day, hour, minute, second, tzinfo=AMSTERDAM)


# DSC's club week as the rules state it (written out, not read from the settings).
DSC_WEEK = ClubWeek(
    deadline_weekday=4,
    deadline_time=time(18),
    publication_time=time(20),
    results_final_time=time(23, 30),
    play_time=time(19, 45),
    zone=AMSTERDAM,
)
