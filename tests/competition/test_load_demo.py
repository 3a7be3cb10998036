"""`manage.py load_demo`: the demo season a new user sees after `make run`."""

import time_machine
from django.contrib.auth.models import User
from django.core.management import call_command

from competition import exchange
from competition.models import Absence, Competition, Game, Page, Round, Season
from members.models import Member, RatingList
from tests.demo import DEMO_NOW

# Sunday 22 November 2026: the 12th club evening was Thursday 19 November. The `demo` fixture
# holds the rows `load_demo` stored at this moment.
NOW = DEMO_NOW


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


@time_machine.travel(NOW, tick=False)
def test_loading_the_demo_twice_changes_nothing(demo):
    counts = (Member.objects.count(), Game.objects.count(), Absence.objects.count())
    call_command("load_demo")
    assert (Member.objects.count(), Game.objects.count(), Absence.objects.count()) == counts


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
