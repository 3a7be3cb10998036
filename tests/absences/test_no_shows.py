"""Two rounds in a row absent without cancelling: cancelled for the coming rounds (rule k)."""

from dataclasses import replace
from datetime import date, timedelta

import pytest

from absences import services
from absences.models import NoShowCancellation, Registration
from competition.keizer.season import Absence as Reason
from competition.keizer.season import Result
from competition.models import Absence, Round
from tests.factories import make_played_competition, worked_example_season

from .conftest import at


@pytest.fixture
def de_wit_stayed_away(db):
    """Round 2: de Wit did not come (unexcused); round 3: de Wit lost by default (0-1F)."""
    season = worked_example_season()
    r1, r2, r3 = season.rounds
    r2 = replace(r2, games=r2.games[:4], absent={"de-wit": Reason.UNEXCUSED})
    last = r3.games[3]  # de Wit (white) – de Oude
    r3 = replace(
        r3, games=(*r3.games[:3], replace(last, result=Result.BLACK_WINS_BY_FORFEIT), r3.games[4])
    )
    competition, pk = make_played_competition(replace(season, rounds=(r1, r2, r3)))
    for number in (4, 5):
        Round.objects.create(
            competition=competition,
            number=number,
            date=date(2026, 9, 24) + timedelta(weeks=number - 4),
            publish_at=at(20) + timedelta(weeks=number - 4),
        )
    de_wit = competition.participants.get(pk=pk["de-wit"])
    de_wit.member.email = "dewit@example.org"
    de_wit.member.save()
    return competition, de_wit


def test_two_no_shows_cancel_the_coming_rounds_and_tell_the_member(
    de_wit_stayed_away, mailoutbox, django_capture_on_commit_callbacks
):
    _, de_wit = de_wit_stayed_away
    with django_capture_on_commit_callbacks(execute=True):
        assert services.apply_no_show_rule(at(12)) == [de_wit]
    assert set(
        Absence.objects.filter(participant=de_wit).values_list("round__number", "reason")
    ) == {(2, "unexcused"), (4, "auto"), (5, "auto")}
    assert Registration.objects.filter(member=de_wit.member, outcome="auto").count() == 2
    assert [m.to for m in mailoutbox] == [["dewit@example.org"]]
    assert "twee keer achter elkaar niet verschenen" in mailoutbox[0].body


def test_the_rule_applies_once_and_registering_again_ends_it(de_wit_stayed_away):
    competition, de_wit = de_wit_stayed_away
    services.apply_no_show_rule(at(12))
    services.apply_no_show_rule(at(13))
    assert NoShowCancellation.objects.count() == 1
    round_4 = competition.rounds.get(number=4)
    [done] = services.apply(de_wit.member, [round_4], "register", "", at(14), None, False, at(14))
    assert done.outcome == "present"
    assert not Absence.objects.filter(participant=de_wit, reason="auto").exists()
    services.apply_no_show_rule(at(15))  # the same two no-shows do not cancel again
    assert not Absence.objects.filter(participant=de_wit, reason="auto").exists()


def test_one_no_show_is_not_enough(db):
    season = worked_example_season()
    r1, r2, r3 = season.rounds
    r3 = replace(
        r3,
        games=(
            *r3.games[:3],
            replace(r3.games[3], result=Result.BLACK_WINS_BY_FORFEIT),
            r3.games[4],
        ),
    )
    make_played_competition(replace(season, rounds=(r1, r2, r3)))
    assert services.apply_no_show_rule(at(12)) == []
