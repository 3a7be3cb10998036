"""The member's week at a glance (issue 23, point 5): the home page and the member's own player
page show their next club evening; `/indeling/` names who does not play and why."""

import re

import time_machine
from django.test import Client
from django.urls import reverse

from competition import services
from competition.models import Game
from tests.moments import EVENING_4, at

HOME = reverse("competition:home")
PAIRING = reverse("competition:pairing")


def text(response) -> str:
    """What the page says, without its markup."""
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def test_the_home_page_shows_the_members_next_evening(jansen_client, round_4):
    with time_machine.travel(at(12), tick=False):
        page = text(jansen_client.get(HOME))
    assert "Mijn volgende clubavond" in page
    assert "Ronde 4, donderdag 24 september" in page and "aangemeld" in page
    assert "Afmelden tot vr 18 september 18:00." in page


def test_once_published_it_names_board_colour_and_opponent(
    jansen_client, jansen, published_round_4
):
    player = published_round_4.competition.participants.get(member=jansen)
    game = Game.objects.involving(player).get(round=published_round_4)
    opponent = game.black if game.white_id == player.pk else game.white
    with time_machine.travel(at(21), tick=False):
        page = text(jansen_client.get(HOME))
    assert f"Bord {game.board}" in page and f"tegen {opponent.name}" in page
    assert "Indeling gepubliceerd: nu afmelden is reglementair verlies" in page


def test_a_cancelled_member_sees_it(jansen_client, jansen, round_4):
    player = round_4.competition.participants.get(member=jansen)
    services.record_absence(round_4, player, "excused")
    with time_machine.travel(at(12), tick=False):
        page = text(jansen_client.get(HOME))
    assert "Mijn volgende clubavond" in page and "op tijd afgemeld" in page


def test_visitors_and_other_players_pages_show_no_ones_evening(jansen_client, jansen, round_4):
    other = round_4.competition.participants.exclude(member=jansen).first()
    own = round_4.competition.participants.get(member=jansen)
    with time_machine.travel(at(12), tick=False):
        assert "Mijn volgende clubavond" not in text(Client().get(HOME))
        other_page = text(jansen_client.get(reverse("competition:player", args=[other.pk])))
        own_page = text(jansen_client.get(reverse("competition:player", args=[own.pk])))
    assert "Mijn volgende clubavond" not in other_page
    assert "Mijn volgende clubavond" in own_page


def test_the_pairing_names_who_does_not_play_and_why(client, jansen, round_4):
    competition = round_4.competition
    de_wit = competition.participants.get(member__name="de Wit")
    services.record_absence(round_4, de_wit, "team")
    services.make_pairing(round_4)
    services.publish(round_4, at(20))
    services.record_forfeit(round_4, competition.participants.get(member=jansen))
    with time_machine.travel(at(21), tick=False):
        page = text(client.get(PAIRING))
    assert "Niet aanwezig:" in page
    assert "de Wit (teamwedstrijd)" in page
    assert "Jansen (reglementair verloren)" in page


def test_on_the_evening_the_game_is_shown_once_and_not_offered_for_cancelling(
    jansen_client, jansen, published_round_4
):
    """Issue 37: from 19:45 the home page shows the member's game with the result to enter;
    the panel of the next evening repeated it and still offered to cancel. The panel says
    nothing of an evening under way (round 4 is the season's last here: no next one)."""
    player = published_round_4.competition.participants.get(member=jansen)
    game = Game.objects.involving(player).get(round=published_round_4)
    opponent = game.black if game.white_id == player.pk else game.white
    with time_machine.travel(at(19, 40, day=EVENING_4), tick=False):  # before the games
        before = text(jansen_client.get(HOME))
    with time_machine.travel(at(20, 30, day=EVENING_4), tick=False):
        during = text(jansen_client.get(HOME))
    assert "nu afmelden is reglementair verlies" in before
    assert "Mijn volgende clubavond Er zijn geen komende clubavonden voor je." in during
    assert "nu afmelden is reglementair verlies" not in during
    assert "Afmelden of aanmelden" not in during
    assert f"tegen {opponent.name}" in before and f"tegen {opponent.name}" not in during
    assert during.count("Jouw partij: bord") == 1
