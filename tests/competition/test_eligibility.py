"""The prize eligibility forecast (issue 13, point 3) on the player page and in the
cancellation preview: the same numbers, worked out here by hand from the 2/3 rule.

The worked example's three rounds are played; rounds 4..28 are added, so the season has 28
evenings and the prizes ask for 19 (⌈2·28/3⌉). Jansen played rounds 1-3 (attended 3). Of the
25 evenings to come, what is stored already: round 5 cancelled in time, round 6 in a team
match's line-up (counts), round 7 and round 12 cancelled automatically, round 8 a team match
he claimed that nobody confirmed yet (cancelled in time until then). Missed: 5, 7, 8 and 12,
so at most 3 + 25 - 4 = 24 are within reach, and 24 - 19 = 5 more may be missed.
"""

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from absences.models import Registration
from competition import services
from competition.keizer.scoring import Outcome
from competition.models import Absence, Round
from competition.outcomes import OUTCOME_WORDS
from tests.factories import cancel_online, make_line_up
from tests.moments import at

URL = reverse("absences:mine")


@pytest.fixture
def season_of_28(example_competition, round_4, jansen):
    competition = example_competition
    rounds = {4: round_4}
    for number in range(5, 29):
        rounds[number] = Round.on_evening(
            competition, number, round_4.date + timedelta(weeks=number - 4)
        )
        rounds[number].save()
    jansen_player = competition.participants.get(member=jansen)
    services.record_absence(rounds[5], jansen_player, Absence.Reason.EXCUSED)
    make_line_up(jansen_player, rounds[6].date)
    services.record_absence(rounds[7], jansen_player, Absence.Reason.AUTO)
    services.record_absence(rounds[8], jansen_player, Absence.Reason.EXCUSED, team_claim=True)
    services.record_absence(rounds[12], jansen_player, Absence.Reason.AUTO)
    return rounds


def player_page(client, jansen) -> str:
    participant = jansen.participations.get()
    return client.get(reverse("competition:player", args=[participant.pk])).content.decode()


def preview(client, rounds, action="cancel", reason="regular", query="") -> str:
    data = {"rounds": [r.pk for r in rounds], "action": action, "reason": reason}
    return client.post(URL + query, data).content.decode()


def test_the_player_page_tells_attended_within_reach_and_how_many_may_be_missed(
    client, season_of_28, jansen
):
    page = player_page(client, jansen)
    assert "<dt>Aanwezig t/m ronde 3</dt><dd>3</dd>" in page
    assert "<dt>Hoogstens haalbaar</dt><dd>24</dd>" in page
    assert "<dt>Nodig</dt><dd>19</dd>" in page
    assert "Jansen mag nog 5 keer missen." in page
    assert "minstens 19 van de 28 clubavonden" in page
    assert (
        "Telt als aanwezig: gewonnen, remise, verloren, reglementair gewonnen, vrij (oneven), "
        "teamwedstrijd." in page
    )


@time_machine.travel(at(12), tick=False)  # Friday before round 4, before its deadline
def test_the_preview_tells_what_the_change_leaves_to_miss(
    jansen_client, arbiter, season_of_28, jansen
):
    rounds = season_of_28
    # Cancelling rounds 9 and 10 as well: at most 24 - 2 = 22, so 3 more may be missed.
    assert "Met deze afmelding mag je nog 3 keer missen." in preview(
        jansen_client, [rounds[9], rounds[10]]
    )
    # Six more evenings (13..18): at most 24 - 6 = 18 < 19.
    assert "Met deze afmelding haal je de 19 clubavonden niet meer." in preview(
        jansen_client, [rounds[n] for n in range(13, 19)]
    )
    # Registering again for round 7 ends the automatic cancellation of round 12 too:
    # at most 24 + 2 = 26, so 7 may be missed.
    assert "Met deze aanmelding mag je nog 7 keer missen." in preview(
        jansen_client, [rounds[7]], action="register"
    )
    # A team match the member claims counts once confirmed: until then round 11 is missed.
    page = preview(jansen_client, [rounds[11]], reason="team")
    assert "Met deze afmelding mag je nog 4 keer missen." in page
    assert "Een teamwedstrijd telt mee zodra die bevestigd is." in page
    # The arbiter's word is a team match at once: it counts, 5 may still be missed.
    arbiter_client = Client()
    arbiter_client.force_login(arbiter)
    page = preview(arbiter_client, [rounds[11]], reason="team", query=f"?lid={jansen.pk}")
    assert "Met deze afmelding mag Jansen nog 5 keer missen." in page  # of the member
    assert "telt mee zodra die bevestigd is" not in page


@time_machine.travel(at(12), tick=False)
def test_after_confirming_the_player_page_tells_what_the_preview_said(
    jansen_client, client, season_of_28, jansen
):
    rounds = season_of_28
    data = {"rounds": [rounds[9].pk, rounds[10].pk], "action": "cancel", "reason": "regular"}
    cancel_online(jansen_client, URL, data)
    assert "Jansen mag nog 3 keer missen." in player_page(client, jansen)
    # Now that 9 and 10 are cancelled, cancelling 13, 14 and 15 leaves none to miss.
    assert "Met deze afmelding mag je geen clubavond meer missen." in preview(
        jansen_client, [rounds[13], rounds[14], rounds[15]]
    )


def test_every_outcome_has_the_sites_words_in_one_table():
    """The player page, the admin, a member's evenings and what counts as attended all name an
    outcome with these words (`competition/outcomes.py`)."""
    assert OUTCOME_WORDS.keys() == set(Outcome)
    assert Absence.Reason.LATE.label == OUTCOME_WORDS[Outcome.LATE] == "te laat afgemeld"
    assert Registration.Outcome.LATE.label == OUTCOME_WORDS[Outcome.LATE]
