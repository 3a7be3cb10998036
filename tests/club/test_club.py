"""The club is data (issue 40, first part): one row, filled by a data migration with what the
environment said (DSC's values by default), read once per request or worker pass, and a change
applies at once without a restart."""

from datetime import time

from django.urls import reverse
from django.utils import timezone

from club.models import Club, current, initial_values
from clubweek.worker import run_pass
from competition.schedule import club_week
from operations import letters
from operations.letters import Kind, Letter


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

    monkeypatch.setattr(Club.objects, "first", broken)
    club = current()
    assert (club.pk, club.sender_name) == (None, initial_values()["sender_name"])


def test_the_arbiter_changes_the_clubs_week_in_the_admin(arbiter_client):
    club = current()
    url = reverse("admin:club_club_change", args=[club.pk])
    page = arbiter_client.get(url).content.decode()
    assert "De week van de club" in page and "Afmeldtermijn: dag" in page
    data = {
        "name": club.name,
        "short_name": club.short_name,
        "sender_name": club.sender_name,
        "sender_address": club.sender_address,
        "arbiter_address": club.arbiter_address,
        "deadline_weekday": 2,
        "deadline_time": "17:00",
        "publication_time": "19:15",
        "play_time": "19:45",
        "results_final_time": "23:30",
    }
    assert arbiter_client.post(url, data).status_code == 302
    week = club_week()
    assert (week.deadline_weekday, week.deadline_time, week.publication_time) == (
        2,
        time(17),
        time(19, 15),
    )
    assert arbiter_client.get(reverse("admin:club_club_add")).status_code == 403


def test_the_pages_and_print_sheets_say_the_clubs_name(client, example_competition):
    club = current()
    club.name = "SV Het Paard"
    club.save()
    home = client.get("/").content.decode()
    assert '<a class="navbar-brand" href="/">SV Het Paard</a>' in home
    assert " · SV Het Paard</title>" in home and "DSC Drachten" not in home
    sheet = client.get(reverse("competition:standings-round-print", args=[3])).content.decode()
    assert '<p class="sheet-club">SV Het Paard</p>' in sheet
