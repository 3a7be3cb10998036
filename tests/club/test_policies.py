"""The club's policies and the rest of its week are data (issue 40, point 1): each field,
changed as the arbiter changes it on the club's page, changes at once what the pages, the
e-mails, the calendar and the worker do. DSC's values are the defaults; each test sets another
club's and checks what a member or the arbiter would see."""

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import icalendar
import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from absences.services import apply_no_show_rule
from arbiter.club_page import ClubForm, form_data
from club.models import current
from clubweek.worker import run_pass
from competition import exchange, lineup
from competition.models import Participant
from members.models import ExternalGame, Member, Team, TeamMatch
from tests.absences.test_services import de_wit_stayed_away
from tests.factories import make_line_up
from tests.moments import EVENING_4, at

AMSTERDAM = ZoneInfo("Europe/Amsterdam")


def change_club(arbiter, **changes):
    """Save the club's page as the arbiter does (in a browser of their own): show what it
    changes, then save."""
    arbiter_client = Client()
    arbiter_client.force_login(arbiter)
    data = form_data(current(), **changes)
    shown = arbiter_client.post(reverse("arbiter:club"), {**data, "show": "1"}).context["shown"]
    response = arbiter_client.post(reverse("arbiter:club"), {**data, "getoond": shown, "save": "1"})
    assert response.status_code == 302, response.context["form"].errors
    return current()


def test_every_policy_is_on_the_clubs_page_with_dscs_values(arbiter_client):
    page = arbiter_client.get(reverse("arbiter:club")).content.decode()
    for label, value in [
        ("Voorgestelde rondes", 'name="rounds_proposed" value="28"'),
        ("Opkomst voor de prijzen", 'name="attendance_required" value="2/3"'),
        ("Groepen", 'name="group_labels" value="ABCD"'),
        ("Keer niet komen tot automatische afmelding", 'value="2"'),
        ("Teamwedstrijd: dagen na de clubavond", 'name="team_match_days_after" value="1"'),
        ("Beste teamspeler: minimaal partijen", 'name="team_player_minimum_games" value="5"'),
        ("Bonden", 'name="leagues" value="KNSB, FSB"'),
        ("Ranglijstmail: spelers", 'name="ranking_mail_length" value="10"'),
        ("Herinnering", 'name="reminder_time" value="09:00"'),
    ]:
        assert label in page and value in page


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("attendance_required", "3/2", "Vul een deel van 0 tot 1 in"),
        ("attendance_required", "twee derde", "Vul een deel van 0 tot 1 in"),
        ("group_labels", "AAB", "elk één keer"),
        ("group_labels", "A-B", "één letter of cijfer"),
        ("leagues", "KNSB, KNSB", "elk één keer"),
        ("no_shows_before_cancellation", "0", "Zorg ervoor dat deze waarde minstens 1 is."),
        ("ranking_mail_length", "0", "Zorg ervoor dat deze waarde minstens 1 is."),
    ],
)
def test_a_bad_policy_is_refused_with_a_message_and_nothing_changes(
    arbiter_client, field, value, message
):
    before = {name: getattr(current(), name) for name in ClubForm.Meta.fields}
    club = current()
    data = form_data(club, **{field: value})
    page = arbiter_client.post(reverse("arbiter:club"), {**data, "save": "1"})
    assert message in page.content.decode()
    current_values = {name: getattr(type(club).objects.get(), name) for name in before}
    assert current_values == before


def test_the_attendance_share_changes_the_player_page_and_the_standings(
    arbiter, client, example_competition
):
    player = example_competition.participants.get(member__name="Jansen")
    url = reverse("competition:player", args=[player.pk])
    page = client.get(url).content.decode()
    assert "Prijzen: twee derde van de clubavonden" in page
    assert "telt alleen wie minstens 2 van de 3 clubavonden aanwezig is" in page  # ⌈2/3 × 3⌉
    change_club(arbiter, attendance_required="1/3")
    page = client.get(url).content.decode()
    assert "Prijzen: een derde van de clubavonden" in page
    assert "telt alleen wie minstens 1 van de 3 clubavonden aanwezig is" in page
    change_club(arbiter, attendance_required="3/5")
    page = client.get(url).content.decode()
    assert "Prijzen: ⅗ van de clubavonden" in page
    assert "telt alleen wie minstens 2 van de 3 clubavonden aanwezig is" in page  # ⌈9/5⌉
    standings = client.get(reverse("competition:standings")).content.decode()
    assert "✓ de 2 gehaald" in standings
    change_club(arbiter, attendance_required="1")
    standings = client.get(reverse("competition:standings")).content.decode()
    assert "✓ de 3 gehaald" in standings


def test_the_groups_are_the_clubs_labels(arbiter, example_competition):
    change_club(arbiter, group_labels="HLB")
    members = list(Member.objects.filter(participations__competition=example_competition))
    example_competition.rounds.all().delete()  # ranking 0 changes only before round 1
    lineup.fill_initial_ranking(example_competition, members)
    groups = list(
        Participant.objects.filter(competition=example_competition)
        .order_by("initial_position")
        .values_list("group", flat=True)
    )
    assert groups == sorted(groups, key="HLB".index) and set(groups) == set("HLB")
    field = Participant._meta.get_field("group").formfield()
    assert [value for value, _label in field.choices if value] == ["H", "L", "B"]


@pytest.mark.parametrize(("in_a_row", "cancelled"), [(3, False), (2, True)])
def test_the_no_shows_in_a_row_are_the_clubs(
    arbiter, de_wit_stayed_away, mailoutbox, in_a_row, cancelled
):
    """De Wit stayed away from rounds 2 and 3: two in a row cancel him under DSC's rule, not
    under a club's three; the e-mail says the club's number."""
    _, de_wit = de_wit_stayed_away
    change_club(arbiter, no_shows_before_cancellation=in_a_row)
    assert (apply_no_show_rule(at(12)) == [de_wit]) is cancelled
    if cancelled:
        [mail] = [m for m in mailoutbox if m.to == ["dewit@example.org"]]
        assert "twee keer achter elkaar niet verschenen" in mail.body


def test_one_no_show_cancels_when_the_club_says_once(arbiter, de_wit_stayed_away, mailoutbox):
    _, de_wit = de_wit_stayed_away
    change_club(arbiter, no_shows_before_cancellation=1)
    assert apply_no_show_rule(at(12)) == [de_wit]  # round 3's forfeit alone
    [mail] = [m for m in mailoutbox if m.to == ["dewit@example.org"]]
    assert "één keer achter elkaar niet verschenen" in mail.body


@pytest.mark.parametrize(("days_after", "day", "absent"), [(0, 1, False), (2, 2, True)])
def test_the_team_match_window_is_the_clubs(arbiter, round_4, days_after, day, absent):
    change_club(arbiter, team_match_days_after=days_after)
    jansen = round_4.competition.participants.get(member__name="Jansen")
    make_line_up(jansen, EVENING_4 + timedelta(days=day))
    found = exchange.team_match_absences(round_4.competition, [round_4])
    assert ((round_4.pk, jansen.pk) in found) is absent


def test_the_best_team_player_needs_the_clubs_number_of_games(arbiter, client, db):
    team = Team.objects.create(season="2026-2027", name="Eerste team", league="KNSB")
    anne = Member.objects.create(name="Anne")
    for number in range(4):
        match = TeamMatch.objects.create(team=team, date=f"2026-10-{number + 3:02d}", opponent="X")
        ExternalGame.objects.create(
            match=match,
            board=1,
            member=anne,
            colour="white",
            opponent_name="X",
            own_rating=1800,
            opponent_rating=1800,
            score="1",
        )
    url = reverse("members:team-players")
    page = client.get(url).content.decode()
    assert "minimaal 5." in page and "Anne" not in page
    change_club(arbiter, team_player_minimum_games=4)
    page = client.get(url).content.decode()
    assert "minimaal 4." in page and "Anne" in page


def test_the_federations_are_the_clubs(arbiter, jansen_client, round_4):
    change_club(arbiter, leagues="KNSB, NOSBO")
    form = Team._meta.get_field("league").formfield()
    assert [value for value, _label in form.choices if value] == ["KNSB", "NOSBO"]
    with time_machine.travel(at(12), tick=False):  # round 4 still to come
        page = jansen_client.get(reverse("absences:mine")).content.decode()
    assert "KNSB/NOSBO-teamwedstrijd" in page and "FSB" not in page


def test_the_reminder_time_is_the_clubs(arbiter, jansen_client, jansen, round_4, mailoutbox):
    change_club(arbiter, reminder_time="13:30")
    profile = jansen_client.get(reverse("members:profile")).content.decode()
    assert "Een herinnering op vrijdagmiddag: afmelden kan tot 18:00" in profile
    Member.objects.filter(pk=jansen.pk).update(mail_reminder=True)
    with time_machine.travel(at(13, 29), tick=False):
        run_pass(at(13, 29))
    assert not [m for m in mailoutbox if "afmelden tot" in m.subject]
    with time_machine.travel(at(13, 30), tick=False):
        run_pass(at(13, 30))
    assert [m.to for m in mailoutbox if "afmelden tot" in m.subject] == [["jansen@example.org"]]


def test_the_playing_address_is_in_the_calendars_evenings(arbiter, client, round_4):
    feed = icalendar.Calendar.from_ical(client.get(reverse("clubweek:club-calendar")).content)
    assert not [e for e in feed.walk("VEVENT") if e.get("LOCATION")]
    change_club(arbiter, playing_address="Het Drachtster Lyceum, Drachten")
    feed = icalendar.Calendar.from_ical(client.get(reverse("clubweek:club-calendar")).content)
    evenings = [e for e in feed.walk("VEVENT") if f"-round-{round_4.pk}-evening@" in e["UID"]]
    assert [str(e["LOCATION"]) for e in evenings] == ["Het Drachtster Lyceum, Drachten"]


__all__ = ["de_wit_stayed_away"]  # a fixture, shared with the rule's own tests


def test_a_week_changed_mid_season_is_what_the_worker_follows(arbiter, round_4, jansen_client):
    """On the Tuesday nine days before round 4 (Thursday 24 September) the arbiter moves the
    week to cancelling until Wednesday 17:00 and publishing Wednesday 19:15: the worker does
    not publish round 4 at DSC's Friday 20:00 any more but on Wednesday 23 September at 19:15,
    and a member's cancellation is late from Wednesday 17:00 on. Round 3, published already,
    keeps its publication."""
    round_3 = round_4.competition.rounds.get(number=3)
    kept = round_3.published_at
    tuesday, friday = EVENING_4 - timedelta(days=9), EVENING_4 - timedelta(days=6)
    wednesday = EVENING_4 - timedelta(days=1)

    def moment(day, hour, minute=0):
        return datetime.combine(day, time(hour, minute), tzinfo=AMSTERDAM)

    with time_machine.travel(moment(tuesday, 12), tick=False):
        change_club(arbiter, deadline_weekday=2, deadline_time="17:00", publication_time="19:15")
    round_4.refresh_from_db()
    assert round_4.publish_at == moment(wednesday, 19, 15)
    assert round_4.cancellation_deadline == moment(wednesday, 17)
    with time_machine.travel(moment(friday, 20), tick=False):
        run_pass(moment(friday, 20))  # DSC's old moment: nothing
    round_4.refresh_from_db()
    assert not round_4.is_published
    for hour, minute, said in (
        (16, 59, "afmelden tot wo 23 september 17:00"),
        (17, 0, "deadline voorbij (wo 23 september 17:00)"),  # at the deadline itself: late
    ):
        with time_machine.travel(moment(wednesday, hour, minute), tick=False):
            page = jansen_client.get(reverse("absences:mine")).content.decode()
        assert said in page
    for minute in (14, 15):
        with time_machine.travel(moment(wednesday, 19, minute), tick=False):
            run_pass(moment(wednesday, 19, minute))
        round_4.refresh_from_db()
        assert round_4.is_published is (minute == 15)
    assert round_4.published_at == moment(wednesday, 19, 15)
    round_3.refresh_from_db()
    assert round_3.published_at == kept
