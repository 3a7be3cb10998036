"""The prizes: who may win (2/3 attendance) and who wins."""

import pytest
from django.urls import reverse

from competition.prizes import (
    Candidate,
    biggest_climber,
    club_champion,
    group_winners,
    rapid_champion,
)


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


@pytest.fixture
def demo(db):
    from django.core.management import call_command

    call_command("load_demo")


def test_the_prizes_page_shows_the_provisional_picture(client, demo):
    page = client.get(reverse("competition:prizes")).content.decode()
    assert "Voorlopig: als het seizoen nu, na ronde 12, zou eindigen." in page
    assert "minstens 19 van de 28 rondes" in page
    # After 12 of 28 rounds nobody can have 19 yet.
    assert '<dd class="col-sm-8" id="club-champion">—</dd>' in page


def test_the_prizes_of_the_worked_example(client, example_competition):
    # Three rounds, so two are required; everyone played all three.
    page = client.get(reverse("competition:prizes")).content.decode()
    assert "de Zeeuw — plaats 1, 3 rondes" in page  # club champion
    assert "de Bruin — van 10 naar 2: 8 plaatsen" in page  # from ranking 0 to ranking 3


def test_the_standings_show_attendance_and_who_can_still_make_it(client, example_competition):
    page = client.get(reverse("competition:standings")).content.decode()
    # The worked example has 3 rounds, all played by everyone: 3 of 3, and 2 are needed.
    assert '<td class="text-end">3 ✓</td>' in page
