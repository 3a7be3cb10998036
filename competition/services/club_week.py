"""A club week changed mid-season (issue 40, point 3): the rule is that rounds not published
yet move to the new week's moments (their publication time, and with it their deadline), and
published rounds keep their publication; the arbiter sees which rounds move before saving."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db import transaction

from club.models import Club
from competition.models import Round
from competition.schedule import club_week, week_of


@dataclass(frozen=True)
class Moved:
    round: Round
    deadline: tuple[datetime, datetime]  # before, after
    publication: tuple[datetime, datetime]
    moves: bool  # not published yet: it follows the new week


def coming_rounds(today: date) -> list[Round]:
    """The rounds still to be played, of seasons not closed, in date order."""
    return list(
        Round.objects.filter(date__gte=today, competition__season__is_closed=False)
        .select_related("competition__season")
        .order_by("date", "competition__kind", "number")
    )


def preview(club: Club, today: date) -> list[Moved]:
    """What the club's week as `club` (unsaved) would do to the coming rounds, against the
    week as it is stored (`club_week`, read once in this request)."""
    before, after = club_week(), week_of(club)
    return [
        Moved(
            round_,
            (before.cancellation_deadline(round_.date), after.cancellation_deadline(round_.date)),
            (round_.publish_at, Round.publication_time_for(round_.date, round_.competition, after)),
            not round_.is_published,
        )
        for round_ in coming_rounds(today)
    ]


@transaction.atomic
def change_club(club: Club, today: date) -> list[Round]:
    """Save the club's row, and move every coming round not published yet to the new week's
    publication moment; returns the rounds that moved."""
    changes = preview(club, today)  # against the week as it is stored, before it changes
    club.save()
    moved = []
    for change in changes:
        if change.moves and change.publication[0] != change.publication[1]:
            change.round.publish_at = change.publication[1]
            change.round.save(update_fields=["publish_at"])
            moved.append(change.round)
    return moved
