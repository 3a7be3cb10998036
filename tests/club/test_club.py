"""The club is data (issue 40, first part): one row, filled by a data migration with what the
environment said (DSC's values by default), read once per request or worker pass, and a change
applies at once without a restart."""

import re
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.contrib.auth.models import Group, User
from django.urls import reverse
from django.utils import timezone

from arbiter.club_page import form_data
from club.models import Club, current, initial_values
from clubweek.worker import run_pass
from competition.models import Round
from competition.schedule import club_week
from members.models import Member
from operations import letters
from operations.letters import Kind, Letter
from tests.factories import make_competition


def test_the_migration_filled_the_row_with_dscs_values(db):
    club = Club.objects.get()
    assert club.name == club.sender_name == "DSC Drachten"
    assert club.short_name == "DSC"
    assert (club.sender_address, club.arbiter_address) == (
        "wedstrijdleider@dscdrachten.nl",
        "wedstrijdleider@dscdrachten.nl",
    )
    # DSC rule v: cancel until Friday 18:00, the pairing at 20:00, play 19:45, final 23:30.
    assert (club.deadline_weekday, club.deadline_time, club.publication_time) == (
        4,
        time(18),
        time(20),
    )
    assert (club.play_time, club.results_final_time) == (time(19, 45), time(23, 30))
    assert {name: getattr(club, name) for name in initial_values()} == initial_values()


def test_a_saved_change_applies_at_once(db):
    assert club_week().deadline_weekday == 4
    club = current()
    club.sender_name, club.sender_address = "SV Het Paard", "wl@hetpaard.example"
    club.short_name = "Het Paard"
    club.arbiter_address = "arbiter@hetpaard.example"
    club.deadline_weekday, club.deadline_time = 6, time(20)
    club.save()
    assert (club_week().deadline_weekday, club_week().deadline_time) == (6, time(20))
    mail = letters.message(Letter(Kind.PAIRING, "lid@example.org", "je indeling", ["Bord 1."]))
    assert mail.from_email == "SV Het Paard <wl@hetpaard.example>"
    assert mail.reply_to == ["Wedstrijdleider Het Paard <arbiter@hetpaard.example>"]
    assert mail.subject == "Het Paard: je indeling"
    assert "SV Het Paard · " in mail.body


def test_the_club_is_read_once_per_request_or_worker_pass(db, django_assert_num_queries):
    current()
    with django_assert_num_queries(0):  # read already in this request or pass
        club_week()
        current()
    Club.objects.update(deadline_weekday=2)  # as another process saves it
    assert club_week().deadline_weekday == 4  # this pass still reads what it read
    run_pass(timezone.now())  # the worker's next pass reads it afresh
    assert club_week().deadline_weekday == 2


def test_a_database_that_cannot_be_read_gives_the_environments_club(db, monkeypatch):
    """The error report of a database that is down still has a sender."""
    from django.db import DatabaseError

    def broken(*args, **kwargs):
        raise DatabaseError("the database is down")

    monkeypatch.setattr(Club.objects, "defer", broken)
    club = current()
    assert (club.pk, club.sender_name) == (None, initial_values()["sender_name"])


def club_form(**changes) -> dict:
    return form_data(current(), **changes)


def coming_rounds():
    """Two rounds of next week and the week after: the first published, the second not."""
    competition = make_competition()
    today = timezone.localdate()
    thursday = today + timedelta(days=(3 - today.weekday()) % 7 + 7)
    published = Round.on_evening(competition, 1, thursday)
    published.published_at = published.publish_at
    published.save()
    waiting = Round.on_evening(competition, 2, thursday + timedelta(weeks=1))
    waiting.save()
    return published, waiting


def test_the_arbiter_sees_which_rounds_move_then_saves_the_week(arbiter_client):
    published, waiting = coming_rounds()
    kept = published.publish_at
    url = reverse("arbiter:club")
    wednesday = club_form(deadline_weekday=2, deadline_time="17:00", publication_time="19:15")
    page = arbiter_client.post(url, {**wednesday, "show": "1"}).content.decode()
    assert "Wat het verandert voor de komende rondes" in page
    rows = re.findall(r'<tr class="club-(moves|keeps)">.*?</tr>', page, re.S)
    assert rows == ["keeps", "moves"]  # round 1 is published, round 2 is not
    waiting.refresh_from_db()
    assert waiting.publish_at.weekday() == 4  # nothing saved by showing
    shown = re.search(r'name="getoond" value="(\w+)"', page)[1]

    # Saving other values than those shown shows their changes first.
    other = arbiter_client.post(
        url, {**wednesday, "deadline_weekday": 1, "getoond": shown, "save": "1"}
    )
    assert "Bekijk wat het verandert" in other.content.decode()
    assert club_week().deadline_weekday == 4

    saved = arbiter_client.post(url, {**wednesday, "getoond": shown, "save": "1"})
    assert saved.status_code == 302
    week = club_week()
    assert (week.deadline_weekday, week.deadline_time, week.publication_time) == (
        2,
        time(17),
        time(19, 15),
    )
    waiting.refresh_from_db()
    published.refresh_from_db()
    wednesday_before = waiting.date - timedelta(days=1)
    assert waiting.publish_at == datetime.combine(
        wednesday_before, time(19, 15), tzinfo=ZoneInfo("Europe/Amsterdam")
    )
    assert published.publish_at == kept  # published: keeps its publication
    # The admin's page of the club leads to this one.
    assert arbiter_client.get(reverse("admin:club_club_changelist")).url == url


def test_the_pages_and_print_sheets_say_the_clubs_name(client, example_competition):
    club = current()
    club.name = "SV Het Paard"
    club.save()
    home = client.get("/").content.decode()
    assert '<a class="navbar-brand" href="/">SV Het Paard</a>' in home
    assert " · SV Het Paard</title>" in home and "DSC Drachten" not in home
    sheet = client.get(reverse("competition:standings-round-print", args=[3])).content.decode()
    assert '<p class="sheet-club">SV Het Paard</p>' in sheet


def test_a_second_clubs_mails_and_pages_say_its_name_not_dscs(arbiter_client, mailoutbox):
    club = current()
    club.name, club.short_name, club.sender_name = "SV Het Paard", "Het Paard", "SV Het Paard"
    club.save()
    member = Member.objects.create(name="Anne de Graaf", email="anne@example.org")
    arbiter_client.post(reverse("arbiter:invite", args=[member.pk]))
    [message] = mailoutbox
    assert message.subject == "Het Paard: je account op de competitiesite"
    assert "op de site van de Het Paard-competitie" in message.body
    assert "DSC" not in message.body + message.subject
    make_competition()
    page = arbiter_client.get(reverse("competition:standings")).content.decode()
    assert "De ranglijst van de Het Paard-competitie met de punten" in page


def test_a_second_clubs_calendar_and_admin_say_its_name(arbiter_client, example_competition):
    club = current()
    club.name, club.short_name = "SV Het Paard", "Het Paard"
    club.save()
    feed = arbiter_client.get("/kalender.ics").content.decode()
    assert "Het Paard-clubavonden" in feed and "Het Paard clubavond ronde 3" in feed
    assert "PRODID:-//SV Het Paard//Keizer//NL" in feed
    assert "DSC" not in feed.replace("dsc-round-", "").replace("dsc-club-evenings", "")
    start = arbiter_client.get(reverse("admin:index")).content.decode()
    assert "Het Paard competitiebeheer" in start


def test_the_board_keeps_the_clubs_page_too_and_other_staff_do_not(db, client):
    """Issue 40: "the arbiter (and the board) edits them in the site". The groups Bestuur and
    Wedstrijdleiding have the club's permissions from the migrations; a staff account in
    neither gets a 403 and changes nothing."""
    board = User.objects.create_user("marije", is_staff=True)
    board.groups.add(Group.objects.get(name="Bestuur"))
    client.force_login(board)
    data = club_form(name="DSC Drachten e.o.")
    shown = client.post(reverse("arbiter:club"), {**data, "show": "1"}).context["shown"]
    saved = client.post(reverse("arbiter:club"), {**data, "getoond": shown, "save": "1"})
    assert saved.status_code == 302 and current().name == "DSC Drachten e.o."
    other = User.objects.create_user("helper", is_staff=True)
    client.force_login(other)
    assert client.get(reverse("arbiter:club")).status_code == 403
    refused = client.post(reverse("arbiter:club"), {**club_form(name="X"), "save": "1"})
    assert refused.status_code == 403 and current().name == "DSC Drachten e.o."
