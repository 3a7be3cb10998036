"""When a cancellation was made, relative to the deadline and the publication (rules
section 7; DSC rules l, m, n), and what a request to cancel or register again does to one
evening. What each kind of absence scores is the engine's points table.

Pure: the caller gives the moments and the facts; nothing here reads the clock or the
database, and nothing here is worded (`absences.services` words the decision).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime

from competition.keizer.scoring import NO_SHOWS, Outcome
from competition.keizer.season import Absence
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


@dataclass(frozen=True)
class Facts:
    """What is known of one member and one evening when a request is made for it."""

    cancelling: bool  # the request: cancel, or else register again
    for_team: bool  # the reason given is a team match
    by_arbiter: bool  # the arbiter acts for the member (after a phone call, say)
    timing: Timing  # of the report (`timing`)
    games_started: bool  # at the report
    published: bool  # the pairing is out (on Friday 20:00, or early)
    plays: bool = True  # the member plays in the competition
    joins_later: bool = False  # the member joins in a later round
    absence: Absence | None = None  # the absence recorded for the evening
    has_bye: bool = False
    paired: bool = False  # the member has a game in the pairing (a draft's too)
    own: Outcome | None = None  # the member's outcome of that game; None while no result
    opponents: Outcome | None = None  # the opponent's outcome of that game


class Decision(enum.Enum):
    """What the request does to the evening. The first ten change nothing."""

    NOT_PLAYING = enum.auto()
    NOT_JOINED_YET = enum.auto()
    GAMES_STARTED = enum.auto()  # only the arbiter can change the evening now
    ALREADY_CANCELLED = enum.auto()
    HAS_BYE = enum.auto()  # after publication the bye stays, and its points
    NOT_IN_PAIRING = enum.auto()
    RESULT_IN = enum.auto()
    FIXED = enum.auto()  # published: an absence or a forfeit stays what it is
    ALREADY_REGISTERED = enum.auto()
    DEADLINE_PASSED = enum.auto()  # registering again after the deadline is the arbiter's
    EXCUSED = enum.auto()  # cancelled in time
    TEAM = enum.auto()  # cancelled in time for a team match, on the arbiter's word
    TEAM_CLAIM = enum.auto()  # the member's word: excused until the match is confirmed
    LATE = enum.auto()  # after the deadline: left out of the pairing
    FORFEIT = enum.auto()  # after publication: the opponent wins by default
    BOTH_FORFEIT = enum.auto()  # after publication, the opponent having cancelled too
    PRESENT = enum.auto()  # registered again
    PRESENT_AGAIN = enum.auto()  # registered again, ending the automatic cancellation

    @property
    def asks_arbiter(self) -> bool:
        """Only the arbiter can change this evening now (the member's page says how)."""
        return self in ARBITER_ONLY


ARBITER_ONLY = frozenset(
    {
        Decision.GAMES_STARTED,
        Decision.FIXED,
        Decision.DEADLINE_PASSED,
        Decision.FORFEIT,
        Decision.BOTH_FORFEIT,
    }
)


def decide(facts: Facts) -> Decision:
    """What a request does to one evening (rules k, l, m, n): once the games have started
    only the arbiter changes it; before the deadline a cancellation is excused (or a team
    match), after it late, and once the pairing is published a forfeit."""
    if not facts.plays:
        return Decision.NOT_PLAYING
    if facts.joins_later:
        return Decision.NOT_JOINED_YET
    if facts.games_started and not facts.by_arbiter:
        return Decision.GAMES_STARTED
    forfeited = facts.own in NO_SHOWS
    if facts.cancelling:
        if facts.absence is not None or forfeited:
            return Decision.ALREADY_CANCELLED
        if facts.published:
            return _after_publication(facts)
        if facts.timing is not Timing.TIMELY:
            return Decision.LATE
        if facts.for_team:
            return Decision.TEAM if facts.by_arbiter else Decision.TEAM_CLAIM
        return Decision.EXCUSED
    if facts.published and (facts.absence is not None or forfeited):
        return Decision.FIXED  # however early it was published
    if facts.absence is None:
        return Decision.ALREADY_REGISTERED
    if facts.timing is not Timing.TIMELY and not facts.by_arbiter:
        return Decision.DEADLINE_PASSED
    return Decision.PRESENT_AGAIN if facts.absence is Absence.AUTO else Decision.PRESENT


def _after_publication(facts: Facts) -> Decision:
    """Cancelling once the pairing is fixed (rule n): a forfeit, never a new pairing."""
    if facts.has_bye:
        return Decision.HAS_BYE
    if not facts.paired:
        return Decision.NOT_IN_PAIRING
    if facts.own is not None:  # a result is in: only the opponent's cancellation leaves room
        return Decision.BOTH_FORFEIT if facts.opponents in NO_SHOWS else Decision.RESULT_IN
    return Decision.FORFEIT
