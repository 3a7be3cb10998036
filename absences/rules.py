"""What a cancellation means, by when it was reported (rules section 7; DSC rules l, m, n).

Pure: the caller gives the moments; nothing here reads the clock or the database.
"""

from __future__ import annotations

import enum
from datetime import datetime


class Timing(enum.Enum):
    TIMELY = "timely"  # before the deadline: afgemeld, 1/3 (2/3 for a team match)
    LATE = "late"  # after the deadline, before publication: 0, left out of the pairing
    AFTER_PUBLICATION = "after_publication"  # 0, and the opponent wins by default


def timing(reported_at: datetime, deadline: datetime, published_at: datetime | None) -> Timing:
    """A report at the deadline itself (18:00:00) is late; instants compare in UTC."""
    if published_at is not None and reported_at >= published_at:
        return Timing.AFTER_PUBLICATION
    if reported_at < deadline:
        return Timing.TIMELY
    return Timing.LATE


def forfeit_result(cancelled_is_white: bool, opponent_also_absent: bool) -> str:
    """The result of a published game one player cancelled: the opponent wins by default;
    when both did not come, 0-0F."""
    if opponent_also_absent:
        return "0-0F"
    return "0-1F" if cancelled_is_white else "1-0F"


def is_no_show(player_is_white: bool | None, result: str | None, absence: str | None) -> bool:
    """Absent without cancelling in a round: recorded as such, or lost by default as the one
    who did not come (white with 0-1F, black with 1-0F, both with 0-0F)."""
    if absence == "unexcused":
        return True
    if player_is_white is None or not result:
        return False
    return result == "0-0F" or result == ("0-1F" if player_is_white else "1-0F")
