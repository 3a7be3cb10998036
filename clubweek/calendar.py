"""The club evenings as iCalendar feeds (RFC 5545, written with the `icalendar` package).

`club_calendar` is the club's own (`/kalender.ics`): every club evening of the current
season's internal competition, and for each the cancellation deadline and the publication of
the pairing as moments of their own. `member_calendar` (`/kalender/<token>.ics`) has the same
events with the member's status on each evening and, once the pairing is published, board,
colour and opponent, as "Mijn afmeldingen" words them (`absences.services.season_evenings`).

Every time comes from the club's week (`Round.play_starts_at`, `Round.results_final_at`,
`Round.cancellation_deadline`) or the round's own publication time (`Round.publish_at`; once
published, the moment it was: `Round.published_at`), and is written as Europe/Amsterdam
wall-clock time with the zone's VTIMEZONE, so an evening after the October DST change still
starts at the same local time in every calendar. Each event's UID is made from the round, so a
calendar app updates an event rather than adding another.

What a feed promises follows what is true now: once a pairing is published (however early,
`Round.published_early`) the evening says so and what cancelling now means, and a deadline
that no longer offers anything is left out; in a closed season (`Season.closing`) the feed
says so, an evening the closing called off is marked cancelled (STATUS:CANCELLED) and its
deadline and publication are left out.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.utils import formats, timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from icalendar import Calendar, Event, vDuration

from absences.services import Evening, current_competition, season_evenings
from base.links import link
from club.models import current as current_club
from competition.keizer.scoring import Outcome
from competition.models import Closing, Competition, Round
from competition.outcomes import OUTCOME_WORDS
from competition.spreadsheets import download_prefix
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
        return _("%(club)s club evenings") % {"club": current_club().short_name}
    return _("%(club)s club evenings %(season)s") % {
        "club": current_club().short_name,
        "season": competition.season,
    }


def _feed(
    competition: Competition | None,
    name: str,
    evenings: dict[int, Evening],
    uid_suffix: str,
    now: datetime,
) -> bytes:
    host = urlsplit(settings.SITE_URL).hostname or "localhost"
    closing = competition.season.closing() if competition else None
    calendar = Calendar.new(
        name=name,
        # A closed season says so where calendar apps show a calendar's description.
        description=str(closing) if closing else None,
        prodid=f"-//{current_club().name}//Keizer//NL",
        uid=f"{download_prefix()}-club-evenings{uid_suffix}@{host}",
        refresh_interval=REFRESH,
        method="PUBLISH",
    )
    calendar.add("X-PUBLISHED-TTL", vDuration(REFRESH))
    calendar.add("X-WR-TIMEZONE", timezone.get_default_timezone_name())
    rounds = list(competition.rounds.order_by("number")) if competition else []
    stamp = now.astimezone(UTC)
    for round_ in rounds:
        if closing and closing.calls_off(round_):
            events = [_called_off(round_, closing, stamp)]
        else:
            events = _events(round_, evenings.get(round_.pk), stamp, now)
        for event in events:
            event.uid = f"{event.uid}{uid_suffix}@{host}"
            calendar.add_component(event)
    if rounds:
        calendar.add_missing_timezones(*_span(_moments(rounds)))
    return calendar.to_ical()


def _events(round_: Round, evening: Evening | None, stamp: datetime, now: datetime) -> list[Event]:
    """The club evening itself, its cancellation deadline (until a publication before it) and
    the pairing's publication."""
    number = round_.number
    deadline = round_.cancellation_deadline
    publication = round_.published_at or round_.publish_at
    title = _("%(club)s club evening round %(number)s") % {
        "club": current_club().short_name,
        "number": number,
    }
    if round_.is_published:
        lines = [_("The pairing was published on %(moment)s.") % {"moment": _when(publication)}]
        lines += _after_publication(round_, evening, now)
    else:
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
        uid=f"{download_prefix()}-round-{round_.pk}-evening",
        summary=title,
        description="\n".join(lines),
        start=timezone.localtime(round_.play_starts_at),
        # The evening ends when its results stop being provisional (DSC rule v).
        end=timezone.localtime(round_.results_final_at),
        stamp=stamp,
        url=link("competition:pairing"),
        location=current_club().playing_address or None,
    )
    cancel = Event.new(
        uid=f"{download_prefix()}-round-{round_.pk}-deadline",
        summary=_("%(club)s round %(number)s: cancel until %(time)s")
        % {
            "club": current_club().short_name,
            "number": number,
            "time": formats.time_format(timezone.localtime(deadline)),
        },
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
        uid=f"{download_prefix()}-round-{round_.pk}-publication",
        summary=(
            _("%(club)s round %(number)s: the pairing is published")
            if round_.is_published
            else _("%(club)s round %(number)s: the pairing appears")
        )
        % {"club": current_club().short_name, "number": number},
        description="\n".join(
            [*_after_publication(round_, evening, now), link("competition:pairing")]
            if round_.is_published
            else [link("competition:pairing")]
        ),
        start=timezone.localtime(publication),
        stamp=stamp,
        transparency="TRANSPARENT",
        url=link("competition:pairing"),
    )
    # Published before its deadline: the deadline offers nothing any more.
    return [club_evening, publish] if round_.published_early else [club_evening, cancel, publish]


def _after_publication(round_: Round, evening: Evening | None, now: datetime) -> list[str]:
    """What cancelling means once the pairing is published, until the games begin: the
    member's line of "Mijn afmeldingen", or for everyone the forfeit of the rules (DSC rule n
    and Keizer rule 6), and how to reach the arbiter."""
    if round_.games_started(now):
        return []
    if evening is not None:
        said = f"{capfirst(evening.when_cancelling)}."
    else:
        said = _(
            "Whoever cancels now is late: %(lost)s, and the opponent %(won)s (%(club)s rule n)."
        ) % {
            "club": current_club().short_name,
            "lost": OUTCOME_WORDS[Outcome.FORFEIT_LOSS],
            "won": OUTCOME_WORDS[Outcome.FORFEIT_WIN],
        }
    return [
        said,
        _("Questions, or coming after all? Write to the arbiter: %(address)s")
        % {"address": current_club().arbiter_address},
    ]


def _called_off(round_: Round, closing: Closing, stamp: datetime) -> Event:
    """An evening the season's closing called off: kept under its UID, marked cancelled, so a
    calendar app shows it struck through or drops it rather than keeping the old one."""
    return Event.new(
        uid=f"{download_prefix()}-round-{round_.pk}-evening",
        summary=_("%(club)s club evening round %(number)s: not played, the season is closed")
        % {"club": current_club().short_name, "number": round_.number},
        description=str(closing),
        start=timezone.localtime(round_.play_starts_at),
        end=timezone.localtime(round_.results_final_at),
        stamp=stamp,
        status="CANCELLED",
        transparency="TRANSPARENT",
        url=link("competition:pairing"),
    )


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
            round_.published_at or round_.publish_at,
            round_.play_starts_at,
            round_.results_final_at,
        )
    ]


def _span(moments: list[datetime]) -> tuple[date, date]:
    """The dates the VTIMEZONE must cover: from the day before the first moment to the day
    after the last (its DST changes in between are written out)."""
    days = [timezone.localdate(moment) for moment in moments]
    return min(days) - timedelta(days=1), max(days) + timedelta(days=1)
