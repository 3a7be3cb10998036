"""A team match a member claims counts only once a line-up shows it or the arbiter confirms it
(issue 10, point 3)."""

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from competition import exchange, services
from competition.models import Absence
from tests.factories import cancel_online, make_line_up
from tests.moments import EVENING_4, at

URL = reverse("absences:mine")
TEAM = {"action": "cancel", "reason": "team"}


@pytest.fixture
def claimed(jansen_client, round_4):
    with time_machine.travel(at(12), tick=False):
        cancel_online(jansen_client, URL, {**TEAM, "rounds": [round_4.pk]})
    return Absence.objects.get(round=round_4)


def test_a_members_claim_counts_as_cancelled_in_time_until_confirmed(
    claimed, jansen_client, round_4
):
    assert (claimed.reason, claimed.team_claim) == ("excused", True)
    assert exchange.open_team_claims(round_4.competition) == [claimed]
    with time_machine.travel(at(12), tick=False):
        page = jansen_client.get(URL).content.decode()
    assert "afgemeld voor een teamwedstrijd: wacht op bevestiging" in page
    inputs = exchange.read_inputs(round_4.competition, round_4)
    assert inputs.season.pair.absent[str(claimed.participant_id)].value == "excused"


def test_the_arbiter_confirms_a_claim(claimed, round_4, jansen_client):
    services.decide_team_claim(claimed, confirmed=True)
    claimed.refresh_from_db()
    assert (claimed.reason, claimed.team_claim) == ("team", False)
    assert exchange.open_team_claims(round_4.competition) == []
    with time_machine.travel(at(12), tick=False):
        page = jansen_client.get(URL).content.decode()
    assert "wacht op bevestiging" not in page and "teamwedstrijd" in page
    with pytest.raises(services.CompetitionError):  # decided once
        services.decide_team_claim(claimed, confirmed=False)


def test_the_arbiter_refuses_a_claim(claimed, round_4):
    services.decide_team_claim(claimed, confirmed=False)
    claimed.refresh_from_db()
    assert (claimed.reason, claimed.team_claim) == ("excused", False)
    assert exchange.open_team_claims(round_4.competition) == []


def test_a_line_up_settles_a_claim(claimed, round_4, jansen_client):
    make_line_up(claimed.participant, EVENING_4)
    assert exchange.open_team_claims(round_4.competition) == []
    inputs = exchange.read_inputs(round_4.competition, round_4)
    assert inputs.season.pair.absent[str(claimed.participant_id)].value == "team"
    with time_machine.travel(at(12), tick=False):
        page = jansen_client.get(URL).content.decode()
    assert "wacht op bevestiging" not in page


def test_the_arbiters_own_word_is_a_team_match_at_once(arbiter, jansen, round_4):
    arbiter_client = Client()
    arbiter_client.force_login(arbiter)
    with time_machine.travel(at(12), tick=False):
        cancel_online(arbiter_client, URL + f"?lid={jansen.pk}", {**TEAM, "rounds": [round_4.pk]})
    absence = Absence.objects.get(round=round_4)
    assert (absence.reason, absence.team_claim) == ("team", False)


def test_choosing_a_reason_on_the_round_page_decides_the_claim(claimed, round_4):
    services.save_round(round_4, {claimed.participant_id: "team"}, None, based_on=None)
    claimed.refresh_from_db()
    assert (claimed.reason, claimed.team_claim) == ("team", False)
