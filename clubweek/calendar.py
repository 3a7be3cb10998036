"""The club evenings as iCalendar feeds (RFC 5545, written with the `icalendar` package).

`club_calendar` is the club's own (`/kalender.ics`): every club evening of the current
season's internal competition, and for each the cancellation deadline and the publication of
the pairing as moments of their own. `member_calendar` (`/kalender/<token>.ics`) has the same
events with the member's status on each evening and, once the pairing is published, board,
colour and opponent, as "Mijn afmeldingen" words them (`absences.services.season_evenings`).

Every time comes from the club's week (`Round.play_starts_at`, `Round.results_final_at`,
`Round.cancellation_deadline`) or the round's own publication time (`Round.publish_at`), and
is written as Europe/Amsterdam wall-clock time with the zone's VTIMEZONE, so an evening after
the October DST change still starts at the same local time in every calendar. Each event's
UID is made from the round, so a calendar app updates an event rather than adding another.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from icalendar import Calendar, Event, vDuration

from absences.services import Evening, current_competition, season_evenings
from base.links import link
from competition.models import Competition, Round
from members.models import Member

# How often a calendar app should fetch the feed again (RFC 7986, and Apple's and Outlook's
# X-PUBLISHED-TTL): within the hour a member sees the pairing published on Friday evening.
REFRESH = timedelta(hours=1)
MEDIA_TYPE = "text/calendar; charset=utf-8"


def club_calendar(now: datetime) -> bytes:
    """Every club evening of the current season, with its deadline and publication."""
    competition = current_competition(now)
    return _feed(competition, _title(competition), {}, "", now)


def member_calendar(member: Member, now: datetime) -> bytes:
    """The club's calendar with the member's own status, board, colour and opponent."""
    competition = current_competition(now)
    evenings = {evening.round.pk: evening for evening in season_evenings(member, now)}
    name = f"{_title(competition)}: {member.name}"
    return _feed(competition, name, evenings, f"-member-{member.pk}", now)


def _title(competition: Competition | None) -> str:
    if competition is None:
        return _("DSC club evenings")
    return _("DSC club evenings %(season)s") % {"season": competition.season}


def _feed(
    competition: Competition | None,
    name: str,
    evenings: dict[int, Evening],
    uid_suffix: str,
    now: datetime,
) -> bytes:
    host = urlsplit(settings.SITE_URL).hostname or "dsc"
    calendar = Calendar.new(
        name=name,
        prodid="-//DSC Drachten//Keizer//NL",
        uid=f"dsc-club-evenings{uid_suffix}@{host}",
        refresh_interval=REFRESH,
        method="PUBLISH",
    )
    calendar.add("X-PUBLISHED-TTL", vDuration(REFRESH))
    calendar.add("X-WR-TIMEZONE", timezone.get_default_timezone_name())
    rounds = list(competition.rounds.order_by("number")) if competition else []
    stamp = now.astimezone(UTC)
    for round_ in rounds:
        for event in _events(round_, evenings.get(round_.pk), stamp):
            event.uid = f"{event.uid}{uid_suffix}@{host}"
            calendar.add_component(event)
    if rounds:
        calendar.add_missing_timezones(*_span(_moments(rounds)))
    return calendar.to_ical()


def _events(round_: Round, evening: Evening | None, stamp: datetime) -> list[Event]:
    """The club evening itself, its cancellation deadline and the pairing's publication."""
    number = round_.number
    deadline = round_.cancellation_deadline
    publication = round_.publish_at
    title = _("DSC club evening round %(number)s") % {"number": number}
    lines = [
        _("Cancel in time until %(deadline)s.") % {"deadline": _when(deadline)},
        _("The pairing appears on %(publication)s.") % {"publication": _when(publication)},
    ]
    if evening is not None:
        game = _game(evening)
        title = f"{title}: {game or evening.status}"
        lines.insert(0, _("Your status: %(status)s.") % {"status": evening.status})
        if game:
            lines.insert(1, f"{game}.")
    lines += [link("competition:pairing"), link("absences:mine")]
    club_evening = Event.new(
        uid=f"dsc-round-{round_.pk}-evening",
        summary=title,
        description="\n".join(lines),
        start=timezone.localtime(round_.play_starts_at),
        # The evening ends when its results stop being provisional (DSC rule v).
        end=timezone.localtime(round_.results_final_at),
        stamp=stamp,
        url=link("competition:pairing"),
    )
    cancel = Event.new(
        uid=f"dsc-round-{round_.pk}-deadline",
        summary=_("DSC round %(number)s: cancel until %(time)s")
        % {"number": number, "time": formats.time_format(timezone.localtime(deadline))},
        description="\n".join(
            [
                _("After this, cancelling for the club evening of %(date)s is late.")
                % {"date": formats.date_format(round_.date, "l j F")},
                link("absences:mine"),
            ]
        ),
        start=timezone.localtime(deadline),
        stamp=stamp,
        transparency="TRANSPARENT",
        url=link("absences:mine"),
    )
    publish = Event.new(
        uid=f"dsc-round-{round_.pk}-publication",
        summary=_("DSC round %(number)s: the pairing appears") % {"number": number},
        description=link("competition:pairing"),
        start=timezone.localtime(publication),
        stamp=stamp,
        transparency="TRANSPARENT",
        url=link("competition:pairing"),
    )
    return [club_evening, cancel, publish]


def _game(evening: Evening) -> str:
    """ "Bord 2, zwart tegen Tjeerd Dijkstra" once the pairing is published, as on the
    cancellation page; empty before."""
    if evening.board is None:
        return ""
    return _("Board %(board)s, %(colour)s against %(opponent)s") % {
        "board": evening.board,
        "colour": evening.colour,
        "opponent": evening.opponent,
    }


def _when(moment: datetime) -> str:
    return formats.date_format(timezone.localtime(moment), "l j F H:i")


def _moments(rounds: Iterable[Round]) -> list[datetime]:
    return [
        moment
        for round_ in rounds
        for moment in (
            round_.cancellation_deadline,
            round_.publish_at,
            round_.play_starts_at,
            round_.results_final_at,
        )
    ]


def _span(moments: list[datetime]) -> tuple[date, date]:
    """The dates the VTIMEZONE must cover: from the day before the first moment to the day
    after the last (its DST changes in between are written out)."""
    days = [timezone.localdate(moment) for moment in moments]
    return min(days) - timedelta(days=1), max(days) + timedelta(days=1)
