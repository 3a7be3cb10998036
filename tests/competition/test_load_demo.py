"""`manage.py load_demo`: the demo season a new user sees after `make run`."""

from io import StringIO

import pytest
import time_machine
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings

from competition import exchange
from competition.models import Absence, Competition, Game, Page, Round, Season
from members.models import Member, RatingList
from tests.demo import DEMO_NOW
from tests.processes import manage, production_env

__all__ = ["production_env"]  # the fixture: production settings on a migrated SQLite file

# Sunday 22 November 2026: the 12th club evening was Thursday 19 November. The `demo` fixture
# holds the rows `load_demo` stored at this moment.
NOW = DEMO_NOW


# `make run` runs it with DEBUG on; pytest turns DEBUG off.
as_make_run = override_settings(DEBUG=True)


@as_make_run
@time_machine.travel(NOW, tick=False)
def test_the_demo_is_a_season_under_way(db, capsys):
    call_command("load_demo")
    competition = Competition.objects.current(NOW.date()).get(kind="classical")
    assert Member.objects.count() == 40
    assert competition.rounds.count() == 28 and competition.rounds_per_period == 7
    played = competition.rounds.filter(number__lte=12)
    assert all(r.is_published for r in played)
    assert not Game.objects.filter(round__in=played, result="").exists()
    assert competition.rounds.get(number=12).date.isoformat() == "2026-11-19"
    assert competition.rankings.count() == 13
    assert Round.objects.exclude(bye=None).exists()
    assert Game.objects.filter(result__endswith="F").exists()
    assert Absence.objects.filter(reason="excused").exists()
    # DSC 1 plays on the Friday after club evening 4: its eight players are absent (team).
    rounds = list(competition.rounds.all())
    team_absent = exchange.team_match_absences(competition, rounds)
    round_4 = competition.rounds.get(number=4)
    dsc_1 = set(
        competition.participants.filter(member__teams__name="DSC 1").values_list("pk", flat=True)
    )
    assert {p for (r, p) in team_absent if r == round_4.pk} == dsc_1 and len(dsc_1) == 8
    newcomer = competition.participants.get(joined_round=6)
    assert newcomer.start_points > 0 and newcomer.group in "ABCD"
    assert set(competition.participants.values_list("group", flat=True)) == set("ABCD")
    assert RatingList.objects.count() == 1
    assert Member.objects.filter(estimated_rating__isnull=False).count() == 2
    # Round 13's pairing was due on Friday 20 November at 20:00, so it is public.
    assert competition.rounds.get(number=13).is_published
    assert competition.rounds.get(number=14).games.count() == 0
    assert Page.objects.filter(slug="reglement").exists()
    rapid = Competition.objects.get(kind="rapid", season=competition.season)
    assert rapid.top_value == 30 and rapid.participants.filter(member=None).count() == 2
    assert rapid.rounds.count() == 9 and len(set(rapid.rounds.values_list("date", flat=True))) == 3
    assert rapid.rankings.count() == 10
    output = capsys.readouterr().out
    assert "user wedstrijdleider, password dsc-demo-2026" in output
    arbiter = User.objects.get(username="wedstrijdleider")
    assert arbiter.is_staff and arbiter.check_password("dsc-demo-2026")


def test_the_demo_has_a_closed_previous_season_with_its_full_standings(demo):
    current = Season.objects.current(NOW.date())
    assert current.name == "2026-2027" and not current.is_closed
    previous = Season.objects.get(name="2025-2026")
    assert previous.is_closed and previous.start_date < current.start_date
    competition = previous.competitions.get(kind="classical")
    assert competition.rounds.count() == 9
    assert all(r.is_published for r in competition.rounds.all())
    assert not Game.objects.filter(round__competition=competition, result="").exists()
    assert competition.rankings.count() == 10  # ranking 0 and one after every round
    final = competition.rankings.get(after_round=9)
    assert final.standings.count() == competition.participants.count() == 31


@as_make_run
@time_machine.travel(NOW, tick=False)
def test_loading_the_demo_twice_changes_nothing(demo, capsys):
    """`make run` loads it on every start: the second time it finds its own season and says
    so, with the logins, even after the arbiter added a member and an account of their own."""
    Member.objects.create(name="Nieuw Lid")
    User.objects.create_user("secretaris")
    counts = (Member.objects.count(), Game.objects.count(), Absence.objects.count())
    call_command("load_demo")
    assert (Member.objects.count(), Game.objects.count(), Absence.objects.count()) == counts
    output = capsys.readouterr().out
    assert "demo not loaded" in output
    assert "user wedstrijdleider, password dsc-demo-2026" in output


# -- a site in production ----------------------------------------------------------------------


def nothing_made():
    return not (Season.objects.exists() or Member.objects.exists() or RatingList.objects.exists())


def test_with_debug_off_the_demo_is_refused_and_makes_nothing(db):
    with pytest.raises(CommandError, match=r"^DEBUG is off: .* add --without-debug "):
        call_command("load_demo", stdout=StringIO())
    assert nothing_made() and not User.objects.exists()


def test_with_debug_off_a_reset_is_refused_and_deletes_nothing(demo):
    seasons = Season.objects.count()
    with pytest.raises(CommandError, match=r"^DEBUG is off"):
        call_command("load_demo", "--reset", stdout=StringIO())
    assert Season.objects.count() == seasons > 0


REAL_DATA = {
    "the arbiter's own account": lambda: User.objects.create_superuser("voorzitter"),
    "a member": lambda: Member.objects.create(name="Sietse Hoekstra"),
    "a season": lambda: Season.objects.create(name="2026-2027", start_date=NOW.date()),
}


@pytest.mark.parametrize("real", REAL_DATA)
@as_make_run
def test_a_database_with_real_data_is_refused_even_with_debug_on(real, db):
    REAL_DATA[real]()
    before = (Season.objects.count(), Member.objects.count(), User.objects.count())
    with pytest.raises(CommandError, match=r"^the database holds .* add --on-real-data "):
        call_command("load_demo", stdout=StringIO())
    with pytest.raises(CommandError, match=r"add --on-real-data"):
        call_command("load_demo", "--reset", stdout=StringIO())
    assert (Season.objects.count(), Member.objects.count(), User.objects.count()) == before
    assert not RatingList.objects.exists()


@time_machine.travel(NOW, tick=False)
def test_told_twice_it_loads_with_debug_off_but_never_with_the_published_passwords(db):
    chair = User.objects.create_superuser("voorzitter", password="the-chairs-own-password")
    out = StringIO()
    call_command("load_demo", "--without-debug", "--on-real-data", stdout=out)
    assert Season.objects.filter(name="2026-2027").exists()
    printed = dict(
        line.split(": user ")[1].split(", password ")
        for line in out.getvalue().splitlines()
        if ": user " in line
    )
    assert set(printed) == {"wedstrijdleider", "jan", "bestuur", "tjeerd"}
    for username, published in [
        ("wedstrijdleider", "dsc-demo-2026"),
        ("jan", "dsc-lid-2026"),
        ("bestuur", "dsc-bestuur-2026"),
        ("tjeerd", "dsc-lid-2026"),
    ]:
        account = User.objects.get(username=username)
        assert not account.check_password(published), username
        assert account.check_password(printed[username]) and len(printed[username]) >= 16
    assert "dsc-demo-2026" not in out.getvalue()
    chair.refresh_from_db()
    assert chair.check_password("the-chairs-own-password")  # theirs, untouched

    again = StringIO()
    call_command("load_demo", "--without-debug", stdout=again)  # its own database now
    assert "demo not loaded" in again.getvalue() and "password" not in again.getvalue()


def test_on_a_production_site_the_command_exits_with_its_reason_in_one_line(production_env):
    """As a volunteer runs it: `python manage.py load_demo` in the image, DEBUG off."""
    done = manage(production_env, "load_demo")
    assert done.returncode == 1
    assert done.stderr.startswith("CommandError: DEBUG is off: ")
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Demo season loaded" not in done.stdout


def test_jan_and_his_round_13_opponent_can_both_log_in_to_enter_their_result(demo):
    game = Game.objects.get(
        round__competition__kind="classical",
        round__competition__season__is_closed=False,
        round__number=13,
        black__member__name="Jan de Zeeuw",
    )
    assert game.white.member.name == "Tjeerd Dijkstra"
    for username, member in (("jan", game.black.member), ("tjeerd", game.white.member)):
        user = User.objects.get(username=username)
        assert member.user == user and user.check_password("dsc-lid-2026")
