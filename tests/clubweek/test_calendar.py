"""The calendar feeds (issue 13, point 5): `/kalender.ics` with every club evening, its
cancellation deadline and its publication; `/kalender/<token>.ics` with the member's own
status, board, colour and opponent. Every feed is parsed back with `icalendar`; times are
written out by hand from the club's rules (Friday 18:00 and 20:00 before the evening, play
from 19:45, results final at 23:30) and the Dutch DST dates."""

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from icalendar import Calendar

from competition import seasons, services
from competition.models import Game, Round, Season
from members.models import Member
from tests.moments import at

CLUB = reverse("clubweek:club-calendar")
KINDS = ("evening", "deadline", "publication")
NOW = at(12)  # Friday 18 September 2026, before round 4's deadline


def feed_of(member) -> str:
    return reverse("clubweek:member-calendar", args=[member.calendar_token])


def utc(*moment) -> datetime:
    return datetime(*moment, tzinfo=UTC)


@pytest.fixture
def autumn_and_spring(round_4):
    """Round 5 just after the October DST change (its deadline just before it) and round 6
    just after the March one, as the admin adds rounds (the club's publication time)."""
    competition = round_4.competition
    for number, evening in ((5, date(2026, 10, 29)), (6, date(2027, 4, 1))):
        Round.on_evening(competition, number, evening).save()
    return competition


def parse(response) -> Calendar:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return Calendar.from_ical(response.content)


def events_by_uid(calendar: Calendar) -> dict:
    events = {str(event.uid): event for event in calendar.events}
    assert len(events) == len(calendar.events), "a UID is used twice"
    return events


def evening_of(calendar: Calendar, number: int):
    [event] = [
        e for e in calendar.events if e["SUMMARY"].startswith(f"DSC clubavond ronde {number}")
    ]
    return event


def test_the_club_calendar_has_every_evening_with_its_deadline_and_publication(
    autumn_and_spring,
):
    with time_machine.travel(NOW, tick=False):
        response = Client().get(CLUB)
    calendar = parse(response)
    assert str(calendar["X-WR-CALNAME"]) == "DSC-clubavonden 2026-2027"
    # Calendar apps fetch it again within the hour (a pairing appears on a Friday evening).
    assert calendar["REFRESH-INTERVAL"].dt == timedelta(hours=1)
    assert calendar["X-PUBLISHED-TTL"] == "PT1H"
    rounds = {r.number: r for r in autumn_and_spring.rounds.all()}
    assert sorted(rounds) == [1, 2, 3, 4, 5, 6]
    events = events_by_uid(calendar)
    assert len(events) == 3 * 6  # the evening, its deadline, its publication
    # Round 5: Thursday 29 October, after the clocks went back on Sunday the 25th (CET,
    # UTC+1); its deadline and publication on Friday 23 October are still summer time (UTC+2).
    five = {kind: events[f"dsc-round-{rounds[5].pk}-{kind}@127.0.0.1"] for kind in KINDS}
    assert str(five["evening"]["SUMMARY"]) == "DSC clubavond ronde 5"
    assert five["evening"].start == utc(2026, 10, 29, 18, 45)
    assert five["evening"].end == utc(2026, 10, 29, 22, 30)
    assert str(five["deadline"]["SUMMARY"]) == "DSC ronde 5: afmelden tot 18:00"
    assert five["deadline"].start == utc(2026, 10, 23, 16, 0)
    assert str(five["publication"]["SUMMARY"]) == "DSC ronde 5: de indeling verschijnt"
    assert five["publication"].start == utc(2026, 10, 23, 18, 0)
    assert "Op tijd afmelden tot vrijdag 23 oktober 18:00." in five["evening"]["DESCRIPTION"]
    assert "De indeling verschijnt vrijdag 23 oktober 20:00." in five["evening"]["DESCRIPTION"]
    assert "http://127.0.0.1:8000/afmelden/" in five["deadline"]["DESCRIPTION"]
    # Round 4 in September (CEST) and round 6 after the March change (CEST again), whose
    # deadline on Friday 26 March 2027 is still winter time.
    four = evening_of(calendar, 4)
    assert (four.start, four.end) == (utc(2026, 9, 24, 17, 45), utc(2026, 9, 24, 21, 30))
    six = {kind: events[f"dsc-round-{rounds[6].pk}-{kind}@127.0.0.1"] for kind in KINDS}
    assert six["evening"].start == utc(2027, 4, 1, 17, 45)
    assert six["deadline"].start == utc(2027, 3, 26, 17, 0)
    assert six["publication"].start == utc(2027, 3, 26, 19, 0)
    # Nothing personal in the club's calendar.
    assert "Jouw status" not in response.content.decode()


def test_times_are_amsterdam_wall_clock_with_a_vtimezone_that_knows_both_changes(
    autumn_and_spring,
):
    """A calendar app that only reads the feed's own VTIMEZONE still puts round 5 at 19:45."""
    with time_machine.travel(NOW, tick=False):
        text = Client().get(CLUB).content.decode()
    assert "DTSTART;TZID=Europe/Amsterdam:20261029T194500" in text
    assert "DTEND;TZID=Europe/Amsterdam:20261029T233000" in text
    assert "DTSTART;TZID=Europe/Amsterdam:20261023T180000" in text
    [zone] = Calendar.from_ical(text).timezones
    assert zone.tz_name == "Europe/Amsterdam"
    feeds_own = zone.to_tz()
    for wall, expected in [
        ((2026, 10, 29, 19, 45), utc(2026, 10, 29, 18, 45)),
        ((2026, 10, 23, 18, 0), utc(2026, 10, 23, 16, 0)),
        ((2027, 4, 1, 19, 45), utc(2027, 4, 1, 17, 45)),
        ((2027, 3, 26, 18, 0), utc(2027, 3, 26, 17, 0)),
    ]:
        assert datetime(*wall, tzinfo=feeds_own).astimezone(UTC) == expected
    changes = {
        (str(part.name), part.DTSTART.isoformat()) for part in zone.walk() if part is not zone
    }
    assert ("STANDARD", "2026-10-25T03:00:00") in changes
    assert ("DAYLIGHT", "2027-03-28T03:00:00") in changes


def test_uids_stay_the_same_from_one_fetch_to_the_next(autumn_and_spring):
    """So a calendar app updates the evening (a published pairing) instead of adding one."""
    with time_machine.travel(NOW, tick=False):
        before = set(events_by_uid(parse(Client().get(CLUB))))
    with time_machine.travel(at(21), tick=False):
        services.make_pairing(autumn_and_spring.rounds.get(number=4))
        services.publish(autumn_and_spring.rounds.get(number=4), at(21))
        assert set(events_by_uid(parse(Client().get(CLUB)))) == before


def test_the_club_calendar_is_served_to_visitors_from_the_page_cache(round_4):
    visitor = Client()
    with time_machine.travel(NOW, tick=False):
        first = visitor.get(CLUB).content
        with CaptureQueriesContext(connection) as queries:
            again = visitor.get(CLUB)
    assert again.content == first and not queries.captured_queries


def own_game(round_, member) -> tuple[int, str, str]:
    """(board, colour, opponent) of the member's game, read from the stored game."""
    games = Game.objects.filter(round=round_).select_related("white__member", "black__member")
    game = games.filter(white__member=member).first() or games.get(black__member=member)
    if game.white.member == member:
        return game.board, "wit", game.black.name
    return game.board, "zwart", game.white.name


def test_a_members_feed_shows_their_status_and_once_published_their_game(client, round_4, jansen):
    competition = round_4.competition
    pietersen = competition.participants.get(member__name="Pietersen")
    services.record_absence(round_4, pietersen, "excused")
    with time_machine.travel(NOW, tick=False):
        mine = parse(client.get(feed_of(jansen)))
        theirs = parse(client.get(feed_of(pietersen.member)))
    assert str(mine["X-WR-CALNAME"]) == "DSC-clubavonden 2026-2027: Jansen"
    assert str(evening_of(mine, 4)["SUMMARY"]) == "DSC clubavond ronde 4: aangemeld"
    assert "Jouw status: aangemeld." in evening_of(mine, 4)["DESCRIPTION"]
    assert str(evening_of(theirs, 4)["SUMMARY"]) == "DSC clubavond ronde 4: op tijd afgemeld"
    # The evenings already played show the game Jansen played there.
    for number in (1, 2, 3):
        board, colour, opponent = own_game(competition.rounds.get(number=number), jansen)
        line = f"Bord {board}, {colour} tegen {opponent}"
        assert str(evening_of(mine, number)["SUMMARY"]) == f"DSC clubavond ronde {number}: {line}"
    # The same times as the club's calendar.
    assert evening_of(mine, 4).start == utc(2026, 9, 24, 17, 45)

    with time_machine.travel(at(21), tick=False):
        services.make_pairing(round_4)
        services.publish(round_4, at(21))
        mine = parse(client.get(feed_of(jansen)))
    board, colour, opponent = own_game(round_4, jansen)
    line = f"Bord {board}, {colour} tegen {opponent}"
    assert str(evening_of(mine, 4)["SUMMARY"]) == f"DSC clubavond ronde 4: {line}"
    description = evening_of(mine, 4)["DESCRIPTION"]
    assert "Jouw status: ingedeeld." in description and f"{line}." in description


def test_one_members_token_never_shows_anothers_data(client, round_4, jansen):
    competition = round_4.competition
    pietersen = competition.participants.get(member__name="Pietersen")
    services.record_absence(round_4, pietersen, "excused")
    with time_machine.travel(at(21), tick=False):
        services.make_pairing(round_4)
        services.publish(round_4, at(21))
        feeds = {
            participant.member: client.get(feed_of(participant.member)).content.decode()
            for participant in competition.participants.select_related("member")
        }
    for member, text in feeds.items():
        calendar = Calendar.from_ical(text)
        assert str(calendar["X-WR-CALNAME"]).endswith(f": {member.name}")
        # Every UID is this member's, every status line is this member's own evening.
        assert all(str(e.uid).endswith(f"-member-{member.pk}@127.0.0.1") for e in calendar.events)
        opponents = {
            own_game(round_, member)[2]
            for round_ in competition.rounds.all()
            if round_.games.filter(white__member=member).exists()
            or round_.games.filter(black__member=member).exists()
        }
        named = {other.name for other in feeds if other.name in text}
        assert named <= opponents | {member.name}, (member, named - opponents)
        statuses = [str(evening_of(calendar, n)["SUMMARY"]).split(": ", 1)[1] for n in range(1, 5)]
        assert ("op tijd afgemeld" in statuses) == (member == pietersen.member)
    # The token is the only key: whoever is logged in, a token shows its own member's feed.
    client.force_login(jansen.user)
    with time_machine.travel(at(21), tick=False):
        assert client.get(feed_of(pietersen.member)).content.decode() == feeds[pietersen.member]


def test_a_personal_feed_is_never_kept_in_the_page_cache(round_4, jansen):
    visitor = Client()
    with time_machine.travel(NOW, tick=False):
        first = visitor.get(feed_of(jansen))
        with CaptureQueriesContext(connection) as queries:
            again = visitor.get(feed_of(jansen))
    assert queries.captured_queries, "the personal feed was served from the page cache"
    assert again.content == first.content
    assert first["Cache-Control"] == "private, no-store"


def test_an_unknown_token_is_not_found(client, round_4, jansen):
    token = jansen.calendar_token
    changed = ("A" if token[0] != "A" else "B") + token[1:]
    for wrong in (changed, token[:-1], token.upper() if token.upper() != token else "x"):
        url = reverse("clubweek:member-calendar", args=[wrong])
        assert client.get(url).status_code == 404
    assert client.get(feed_of(jansen)).status_code == 200


def test_without_a_season_both_feeds_are_valid_and_empty(db, client):
    member = Member.objects.create(name="Nieuw Lid")
    for url in (CLUB, feed_of(member)):
        calendar = parse(client.get(url))
        assert calendar.events == [] and str(calendar["X-WR-CALNAME"]).startswith("DSC-clubavonden")


# -- what is true now (issue 35, findings 11 and 12) ---------------------------------------------


def test_a_closed_season_says_so_and_calls_off_its_evenings_without_deadlines(
    client, round_4, jansen
):
    """Closed on Friday 18 September at 10:00, the morning after round 3: round 4 (Thursday
    24) is not played. Both feeds say
    the season is closed; round 4's evening is marked cancelled and offers no deadline or
    publication any more; the evenings played stay as they were. Reopening restores it."""
    closed_at = at(10)
    with time_machine.travel(closed_at, tick=False):
        seasons.close_season(round_4.competition.season, closed_at, "Te weinig spelers")
        feeds = [parse(client.get(CLUB)), parse(client.get(feed_of(jansen)))]
    said = (
        "Seizoen 2026-2027 is afgesloten op vrijdag 18 september 2026. Reden: Te weinig "
        "spelers. De stand is definitief: er worden geen rondes meer gespeeld."
    )
    played = Round.objects.filter(number__lt=4)
    for calendar, suffix in zip(feeds, ("", f"-member-{jansen.pk}"), strict=True):
        assert str(calendar["DESCRIPTION"]) == said
        events = events_by_uid(calendar)
        evening = events[f"dsc-round-{round_4.pk}-evening{suffix}@127.0.0.1"]
        assert evening["STATUS"] == "CANCELLED"
        assert (
            str(evening["SUMMARY"]) == "DSC clubavond ronde 4: vervalt, het seizoen is afgesloten"
        )
        assert said in evening["DESCRIPTION"]
        assert evening.start == utc(2026, 9, 24, 17, 45)  # the same evening, called off
        for kind in ("deadline", "publication"):
            assert f"dsc-round-{round_4.pk}-{kind}{suffix}@127.0.0.1" not in events
        for round_ in played:  # the evenings played keep all three, none cancelled
            for kind in KINDS:
                event = events[f"dsc-round-{round_.pk}-{kind}{suffix}@127.0.0.1"]
                assert "STATUS" not in event
        assert len(events) == 3 * len(played) + 1

    seasons.reopen_season(Season.objects.get(), "Per ongeluk afgesloten")
    with time_machine.travel(NOW, tick=False):
        for url in (CLUB, feed_of(jansen)):
            calendar = parse(client.get(url))
            assert "DESCRIPTION" not in calendar
            events = events_by_uid(calendar)
            assert len(events) == 3 * 4 and not any("STATUS" in e for e in events.values())


def test_after_an_early_publication_the_feeds_promise_no_deadline_and_name_the_arbiter(
    client, paired_round_4, jansen, settings
):
    """Published on Friday 18 September at 10:00, eight hours before the deadline: from
    then on no feed says "op tijd afmelden tot vrijdag 18:00" or "de indeling verschijnt" for
    round 4, nor keeps its deadline; they say the pairing is published, that cancelling now
    is a forfeit (DSC rule n), and how to reach the arbiter."""
    published = at(10)
    services.publish(paired_round_4, published)
    board, colour, opponent = own_game(paired_round_4, jansen)
    with time_machine.travel(at(12), tick=False):
        club = events_by_uid(parse(client.get(CLUB)))
        mine = events_by_uid(parse(client.get(feed_of(jansen))))
    for events, suffix in ((club, ""), (mine, f"-member-{jansen.pk}")):
        uid = f"dsc-round-{paired_round_4.pk}-{{}}{suffix}@127.0.0.1"
        assert uid.format("deadline") not in events
        evening = events[uid.format("evening")]
        publication = events[uid.format("publication")]
        for text in (evening["DESCRIPTION"], publication["DESCRIPTION"]):
            assert "Op tijd afmelden tot" not in text and "verschijnt" not in text
            assert f"Mail de wedstrijdleider: {settings.ARBITER_EMAIL}" in text
        assert (
            "De indeling is gepubliceerd op vrijdag 18 september 10:00." in (evening["DESCRIPTION"])
        )
        # The publication is where it happened, not at Friday 20:00.
        assert publication.start == utc(2026, 9, 18, 8, 0)
        assert str(publication["SUMMARY"]) == "DSC ronde 4: de indeling is gepubliceerd"
        # Earlier rounds, published after their deadline, keep theirs.
        assert any(u.endswith(f"-deadline{suffix}@127.0.0.1") for u in events)
    assert (
        "Wie nu afmeldt, is te laat: reglementair verloren, en de tegenstander reglementair "
        "gewonnen (DSC-regel n)."
    ) in club[f"dsc-round-{paired_round_4.pk}-evening@127.0.0.1"]["DESCRIPTION"]
    evening = mine[f"dsc-round-{paired_round_4.pk}-evening-member-{jansen.pk}@127.0.0.1"]
    assert (
        str(evening["SUMMARY"]) == f"DSC clubavond ronde 4: Bord {board}, {colour} tegen {opponent}"
    )
    assert (
        "Indeling gepubliceerd: nu afmelden is reglementair verlies, je tegenstander wint."
        in (evening["DESCRIPTION"])
    )
