"""`manage.py new_club` (issue 40, point 5): a new club on an empty site, from its options or
its answers, with an empty rules page, a first season on its own evenings and an arbiter who
can log in; a value the club's page would refuse is refused the same way, and nothing is
made."""

import re
from datetime import datetime, time
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from club.models import Club, current
from competition.models import Competition, Page, Season

AMSTERDAM = ZoneInfo("Europe/Amsterdam")
OPTIONS = {
    "name": "Schaakclub De Toren",
    "short_name": "De Toren",
    "place": "Sneek",
    "sender_address": "competitie@detoren.example.org",
    "arbiter_address": "wedstrijdleider@detoren.example.org",
    "arbiter_username": "toren",
    "evening": "dinsdag",
    "deadline": "zondag 20:00",
    "publication": "maandag 12:00",
    "play": "19:30",
    "results_final": "23:30",
    "season": "2027-2028",
    "first_evening": "7-9-2027",
}


def new_club(**options) -> str:
    out = StringIO()
    call_command("new_club", no_input=True, stdout=out, **options)
    return out.getvalue()


def test_a_new_club_from_its_options(db):
    said = new_club(**OPTIONS)
    club = current()
    assert (club.name, club.short_name, club.place) == ("Schaakclub De Toren", "De Toren", "Sneek")
    assert (club.sender_name, club.arbiter_address) == (
        "Schaakclub De Toren",
        "wedstrijdleider@detoren.example.org",
    )
    assert (club.evening_weekday, club.deadline_weekday, club.publication_weekday) == (1, 6, 0)
    assert (club.deadline_time, club.publication_time, club.play_time) == (
        time(20),
        time(12),
        time(19, 30),
    )
    assert Page.objects.get(slug="reglement").body == ""
    competition = Competition.objects.get(season__name="2027-2028")
    rounds = list(competition.rounds.order_by("number"))
    assert len(rounds) == 28 and {r.date.isoweekday() for r in rounds} == {2}  # Tuesdays
    assert rounds[0].cancellation_deadline == datetime(2027, 9, 5, 20, tzinfo=AMSTERDAM)
    assert rounds[0].publish_at == datetime(2027, 9, 6, 12, tzinfo=AMSTERDAM)
    assert "afmelden tot zondag 5 september 20:00, de indeling op maandag 6 september 12:00" in said
    password = re.search(r"wachtwoord (\S+)", said)[1]
    user = User.objects.get(username="toren")
    assert user.check_password(password) and user.is_staff
    arbiter = Client()
    arbiter.force_login(user)
    page = arbiter.get(reverse("arbiter:club")).content.decode()
    assert 'value="Schaakclub De Toren"' in page


def test_what_is_not_given_is_asked(db, monkeypatch):
    answers = iter([OPTIONS[name] for name in ("name", "short_name", "place")])
    monkeypatch.setattr("builtins.input", lambda question: next(answers))
    given = {k: v for k, v in OPTIONS.items() if k not in ("name", "short_name", "place")}
    call_command("new_club", stdout=StringIO(), **given)
    assert (current().name, current().short_name, current().place) == (
        "Schaakclub De Toren",
        "De Toren",
        "Sneek",
    )


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"publication": "zaterdag 12:00"}, "voor de afmeldtermijn gepubliceerd"),
        ({"deadline": "zondag"}, "Geef een dag en een tijd"),
        ({"evening": "vrijdagavond"}, "Onbekende dag vrijdagavond"),
        ({"first_evening": "9-9-2027"}, "is geen dinsdag"),
        ({"arbiter_address": "geen adres"}, "geldig e-mailadres"),
    ],
)
def test_a_bad_value_is_refused_and_nothing_is_made(db, changes, message):
    before = {f.name: getattr(current(), f.name) for f in Club._meta.fields}
    rules = list(Page.objects.values_list("slug", "body"))
    with pytest.raises(CommandError, match=message):
        new_club(**(OPTIONS | changes))
    club = Club.objects.get()
    assert {f.name: getattr(club, f.name) for f in Club._meta.fields} == before
    assert not Season.objects.exists() and not User.objects.filter(username="toren").exists()
    assert list(Page.objects.values_list("slug", "body")) == rules


def test_a_site_with_a_club_in_use_is_refused(example_competition):
    with pytest.raises(CommandError, match="deze site heeft al een club"):
        new_club(**OPTIONS)


def test_no_input_names_what_is_missing(db):
    with pytest.raises(CommandError, match="--first-evening ontbreekt"):
        new_club(**{k: v for k, v in OPTIONS.items() if k != "first_evening"})


def test_days_in_english_or_as_numbers_are_read_too(db):
    new_club(
        **(OPTIONS | {"evening": "Tuesday", "deadline": "6 20:00", "publication": "monday 12:00"})
    )
    club = current()
    assert (club.evening_weekday, club.deadline_weekday, club.publication_weekday) == (1, 6, 0)
