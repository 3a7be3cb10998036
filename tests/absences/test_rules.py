"""The deadline's edges, across the DST weekends."""

from datetime import UTC, date, datetime, timedelta

import pytest

from absences.rules import Decision, Facts, Timing, decide, timing
from competition.keizer.scoring import Outcome
from competition.keizer.season import Absence
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


# -- what a request does to one evening --------------------------------------------------------

T = Timing


def facts(**given) -> Facts:
    """A member of the competition asking on their own, in time, for an unpublished evening
    without an absence or a game; `given` changes what the case is about."""
    known = {
        "cancelling": True,
        "for_team": False,
        "by_arbiter": False,
        "timing": T.TIMELY,
        "games_started": False,
        "published": False,
    }
    return Facts(**{**known, **given})


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({}, Decision.EXCUSED),
        ({"paired": True}, Decision.EXCUSED),  # a draft's game changes nothing
        ({"for_team": True}, Decision.TEAM_CLAIM),
        ({"for_team": True, "by_arbiter": True}, Decision.TEAM),
        ({"timing": T.AFTER_DEADLINE}, Decision.LATE),
        ({"timing": T.AFTER_DEADLINE, "for_team": True, "by_arbiter": True}, Decision.LATE),
        ({"plays": False}, Decision.NOT_PLAYING),
        ({"plays": False, "games_started": True}, Decision.NOT_PLAYING),
        ({"joins_later": True}, Decision.NOT_JOINED_YET),
        ({"joins_later": True, "games_started": True}, Decision.NOT_JOINED_YET),
        ({"games_started": True}, Decision.GAMES_STARTED),
        ({"absence": Absence.EXCUSED}, Decision.ALREADY_CANCELLED),
        ({"absence": Absence.AUTO, "timing": T.AFTER_DEADLINE}, Decision.ALREADY_CANCELLED),
    ],
)
def test_cancelling_before_publication(given, expected):
    assert decide(facts(**given)) is expected


PUBLISHED = {"published": True, "timing": T.AFTER_PUBLICATION, "paired": True}


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({}, Decision.FORFEIT),
        ({"timing": T.TIMELY}, Decision.FORFEIT),  # published early: the pairing is fixed
        ({"for_team": True, "by_arbiter": True}, Decision.FORFEIT),
        ({"games_started": True}, Decision.GAMES_STARTED),
        ({"games_started": True, "by_arbiter": True}, Decision.FORFEIT),
        ({"paired": False, "has_bye": True}, Decision.HAS_BYE),
        ({"paired": False}, Decision.NOT_IN_PAIRING),
        (
            {"own": Outcome.FORFEIT_LOSS, "opponents": Outcome.FORFEIT_WIN},
            Decision.ALREADY_CANCELLED,
        ),
        (
            {"own": Outcome.DOUBLE_FORFEIT, "opponents": Outcome.DOUBLE_FORFEIT},
            Decision.ALREADY_CANCELLED,
        ),
        ({"own": Outcome.FORFEIT_WIN, "opponents": Outcome.FORFEIT_LOSS}, Decision.BOTH_FORFEIT),
        ({"own": Outcome.WIN, "opponents": Outcome.LOSS}, Decision.RESULT_IN),
        ({"own": Outcome.DRAW, "opponents": Outcome.DRAW}, Decision.RESULT_IN),
        ({"paired": False, "absence": Absence.LATE}, Decision.ALREADY_CANCELLED),
    ],
)
def test_cancelling_after_publication(given, expected):
    assert decide(facts(**{**PUBLISHED, **given})) is expected


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({}, Decision.ALREADY_REGISTERED),
        ({"paired": True}, Decision.ALREADY_REGISTERED),
        ({"absence": Absence.EXCUSED}, Decision.PRESENT),
        ({"absence": Absence.TEAM}, Decision.PRESENT),
        ({"absence": Absence.AUTO}, Decision.PRESENT_AGAIN),
        ({"absence": Absence.LATE, "timing": T.AFTER_DEADLINE}, Decision.DEADLINE_PASSED),
        (
            {"absence": Absence.LATE, "timing": T.AFTER_DEADLINE, "by_arbiter": True},
            Decision.PRESENT,
        ),
        (
            {"absence": Absence.AUTO, "timing": T.AFTER_DEADLINE, "by_arbiter": True},
            Decision.PRESENT_AGAIN,
        ),
        ({"absence": Absence.EXCUSED, "games_started": True}, Decision.GAMES_STARTED),
        ({"absence": Absence.EXCUSED, **PUBLISHED}, Decision.FIXED),
        ({"absence": Absence.EXCUSED, **PUBLISHED, "by_arbiter": True}, Decision.FIXED),
        ({**PUBLISHED, "own": Outcome.FORFEIT_LOSS}, Decision.FIXED),
        ({**PUBLISHED, "own": Outcome.FORFEIT_WIN}, Decision.ALREADY_REGISTERED),
        ({**PUBLISHED}, Decision.ALREADY_REGISTERED),
        ({"plays": False}, Decision.NOT_PLAYING),
        ({"joins_later": True, "absence": Absence.EXCUSED}, Decision.NOT_JOINED_YET),
    ],
)
def test_registering_again(given, expected):
    assert decide(facts(cancelling=False, **given)) is expected


@pytest.mark.parametrize(
    ("given", "asks"),
    [
        ({"games_started": True}, True),
        (PUBLISHED, True),  # a forfeit: only the arbiter can undo it
        ({**PUBLISHED, "own": Outcome.FORFEIT_WIN, "opponents": Outcome.FORFEIT_LOSS}, True),
        ({"cancelling": False, "absence": Absence.LATE, "timing": T.AFTER_DEADLINE}, True),
        ({"cancelling": False, "absence": Absence.EXCUSED, **PUBLISHED}, True),
        ({}, False),
        ({"timing": T.AFTER_DEADLINE}, False),
        ({"absence": Absence.EXCUSED}, False),
        ({"cancelling": False, "absence": Absence.EXCUSED}, False),
        ({**PUBLISHED, "own": Outcome.WIN, "opponents": Outcome.LOSS}, False),
    ],
)
def test_the_member_is_sent_to_the_arbiter_only_where_only_the_arbiter_can_change_it(given, asks):
    assert decide(facts(**given)).asks_arbiter is asks
