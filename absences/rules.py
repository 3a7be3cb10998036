"""When a cancellation was made, relative to the deadline and the publication (rules
section 7; DSC rules l, m, n). What each kind of absence scores is the engine's points table.

Pure: the caller gives the moments; nothing here reads the clock or the database.
"""

from __future__ import annotations

import enum
from datetime import datetime

from competition.schedule import before


class Timing(enum.Enum):
    TIMELY = "timely"  # before the deadline: excused (or team), a share of the own value
    AFTER_DEADLINE = "after_deadline"  # before publication: late, left out of the pairing
    AFTER_PUBLICATION = "after_publication"  # a forfeit: the opponent wins by default


def timing(reported_at: datetime, deadline: datetime, published_at: datetime | None) -> Timing:
    """A report at the deadline itself (18:00:00) is late (`schedule.before`)."""
    if published_at is not None and not before(reported_at, published_at):
        return Timing.AFTER_PUBLICATION
    if before(reported_at, deadline):
        return Timing.TIMELY
    return Timing.AFTER_DEADLINE
