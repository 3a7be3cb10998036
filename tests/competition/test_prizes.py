"""The prizes: who may win (2/3 attendance) and who wins."""

import time_machine
from django.urls import reverse
from django.utils import timezone

from competition.models import Competition
from competition.prizes import (
    Candidate,
    Leader,
    as_they_stand,
    biggest_climber,
    club_champion,
    group_winners,
    leader,
    rapid_champion,
)
from tests.demo import DEMO_NOW


def person(pid, position, group="A", attended=19, first=None, member=True):
    return Candidate(pid, f"P{pid}", position, group, member, attended, first)


def test_the_club_champion_is_the_highest_eligible_player():
    people = [person(1, 1, attended=18), person(2, 2), person(3, 3)]
    assert club_champion(people, 19).participant_id == 2


def test_each_group_has_its_highest_eligible_winner():
    people = [
        person(1, 1, "A"),
        person(2, 2, "B", attended=3),
        person(3, 3, "B"),
        person(4, 4, "C"),
        person(5, 5, "D", attended=0),
    ]
    winners = group_winners(people, 19)
    assert {g: c.participant_id for g, c in winners.items()} == {"A": 1, "B": 3, "C": 4}


def test_the_biggest_climber_gains_most_places_from_their_first_ranking():
    people = [
        person(1, 1, first=2),
        person(2, 2, first=12),
        person(3, 3, first=13, attended=5),
        person(4, 4, first=14),
    ]  # 4 gains 10, 2 gains 10 too but ranks higher
    assert biggest_climber(people, 19).participant_id == 2
    assert biggest_climber([person(1, 1, first=1)], 19) is None  # nobody climbed


def test_the_rapid_champion_is_the_highest_member_not_a_guest():
    people = [person(1, 1, member=False), person(2, 2), person(3, 3)]
    assert rapid_champion(people).participant_id == 2


@time_machine.travel(DEMO_NOW, tick=False)
def test_the_prizes_page_shows_each_prizes_leader_mid_season(client, demo):
    page = client.get(reverse("competition:prizes")).content.decode()
    assert "Voorlopig: als het seizoen nu, na ronde 12, zou eindigen." in page
    # After 12 of 28 rounds nobody has 19 yet, but the highest player who still can leads.
    competition = Competition.objects.current(timezone.localdate()).get(kind="classical")
    latest = competition.rankings.order_by("-after_round").first()
    standings = latest.standings.select_related("participant__member").order_by("position")
    leader = next(s for s in standings if s.attended + 16 >= 19)
    champion = page.split('id="club-champion">')[1].split("</dd>")[0]
    assert champion.startswith(
        f"Leider nu: {leader.participant.name} (plaats {leader.position}); nog 16 rondes; "
        f"telt mee als hij/zij minstens 19 van de 28 rondes speelt — nu {leader.attended}, "
        "nog haalbaar"
    ), champion
    for prize in ("group-A", "group-B", "group-C", "group-D", "climber"):
        line = page.split(f'id="{prize}">')[1].split("</dd>")[0]
        assert line.startswith("Leider nu: ") and "nog haalbaar" in line, prize
    assert page.split('id="team-player">')[1].startswith("Leider nu: ")


def test_mid_season_the_leader_is_the_highest_player_who_can_still_qualify():
    people = [
        person(1, 1, attended=2),  # 2 + 16 < 19: cannot make it any more
        person(2, 2, "B", attended=9, first=9),
        person(3, 3, attended=12, first=20),
    ]
    assert club_champion(people, 19) is None  # at the season's end: nobody
    assert club_champion(people, 19, remaining=16).participant_id == 2
    assert {g: c.participant_id for g, c in group_winners(people, 19, 16).items()} == {
        "A": 3,
        "B": 2,
    }
    assert biggest_climber(people, 19, remaining=16).participant_id == 3
    assert leader(people[1], 19) == Leader(people[1], reached=False, still_needed=10)
    assert leader(person(4, 4, attended=20), 19).reached


def test_the_prizes_of_the_worked_example(client, example_competition):
    # Three rounds, so two are required; everyone played all three.
    page = client.get(reverse("competition:prizes")).content.decode()
    assert "de Zeeuw — plaats 1, 3 rondes" in page  # club champion
    assert "de Bruin — van 10 naar 2: 8 plaatsen" in page  # from ranking 0 to ranking 3


def test_the_standings_show_attendance_and_who_can_still_make_it(client, example_competition):
    page = client.get(reverse("competition:standings")).content.decode()
    # The worked example has 3 rounds, all played by everyone: 3 of 3, and 2 are needed.
    assert '<td class="text-end">3 ✓</td>' in page


def test_the_prizes_as_they_stand_after_the_worked_example(example_competition):
    """Three rounds, all played by everyone: two required, none to go. De Zeeuw is first;
    de Bruin climbed from 10 (ranking 0) to 2."""
    players = example_competition.participants
    players.filter(member__name__in=["de Zeeuw", "Jansen"]).update(group="A")
    players.filter(member__name="de Bruin").update(group="B")
    prizes = as_they_stand(example_competition)
    assert prizes.ranking.after_round == 3
    assert (prizes.rounds, prizes.required, prizes.remaining, prizes.provisional) == (3, 2, 0, True)
    assert prizes.champion.candidate.name == "de Zeeuw" and prizes.champion.reached
    assert {group: leader.candidate.name for group, leader in prizes.groups.items()} == {
        "A": "de Zeeuw",
        "B": "de Bruin",
    }
    assert prizes.climber.candidate.name == "de Bruin" and prizes.climb == 8
    assert (prizes.eligible_count, prizes.running_count) == (10, 10)
    assert (prizes.rapid_champion, prizes.rapid_remaining) == (None, 0)
    assert (prizes.team_player, prizes.team_player_name) == (None, "")


def test_a_round_to_go_counts_until_the_season_is_closed(round_4):
    """Four rounds ask for three (two thirds, rounded up); after three, one is to go."""
    competition = round_4.competition
    prizes = as_they_stand(competition)
    assert (prizes.rounds, prizes.required, prizes.remaining) == (4, 3, 1)
    assert prizes.champion == Leader(prizes.champion.candidate, reached=True, still_needed=0)
    season = competition.season
    season.is_closed = True
    season.save()
    prizes = as_they_stand(competition)
    assert (prizes.remaining, prizes.provisional) == (0, False)
    assert prizes.champion.candidate.name == "de Zeeuw"


def test_before_the_first_ranking_no_prize_has_a_leader(example_competition):
    example_competition.rankings.all().delete()
    prizes = as_they_stand(example_competition)
    assert prizes.ranking is None and prizes.remaining == 0
    assert (prizes.champion, prizes.groups, prizes.climber, prizes.climb) == (None, {}, None, 0)
    assert (prizes.eligible_count, prizes.running_count) == (0, 0)
