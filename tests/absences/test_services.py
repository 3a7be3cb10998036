"""Cancelling and re-registering as a workflow (`plan`, `apply`), and the no-show rule."""

from datetime import date, timedelta
from fractions import Fraction

import pytest

from absences import services
from absences.models import NoShowCancellation, Registration
from competition import services as competition_services
from competition.keizer.scoring import POINTS_TABLE
from competition.keizer.scoring import Outcome as Scored
from competition.keizer.season import Absence as Reason
from competition.keizer.season import Result
from competition.models import Absence, Round
from tests.factories import make_played_competition, worked_example_season
from tests.moments import at
from tests.races import at_once, errors_of, needs_row_locks


def apply(member, rounds, action, reason, reported_at, by, by_arbiter, now):
    """`services.apply` as the page calls it: after the preview of the same request."""
    rounds = [Round.objects.get(pk=round_.pk) for round_ in rounds]  # as the form reads them
    shown = services.plan(member, rounds, action, reason, reported_at, by_arbiter)
    return services.apply(
        member,
        rounds,
        action,
        reason,
        reported_at,
        by,
        by_arbiter,
        now,
        previewed=services.digest(shown),
    )


def test_both_players_cancelling_after_publication_is_0_0f(paired_round_4, jansen):
    round_4 = paired_round_4
    competition_services.publish(round_4, at(20))
    game = round_4.games.get(board=1)
    for player in (game.white.member, game.black.member):
        apply(player, [round_4], "cancel", "regular", at(21), None, False, at(21))
    game.refresh_from_db()
    assert game.result == "0-0F"


def test_after_publication_the_cancelled_game_counts_at_once(paired_round_4, jansen):
    """The forfeit is a result: once every board has one, round 4 enters the rankings."""
    round_4 = paired_round_4
    competition_services.publish(round_4, at(20))
    game = round_4.games.get(board=1)
    others = {g.pk: "1-0" for g in round_4.games.exclude(pk=game.pk)}
    competition_services.enter_results(round_4, others)
    assert not round_4.competition.rankings.filter(after_round=4).exists()
    apply(game.white.member, [round_4], "cancel", "regular", at(21), None, False, at(21))
    assert round_4.competition.rankings.filter(after_round=4).exists()


def test_the_bye_keeps_the_bye(round_4, example_competition):
    Absence.objects.create(
        round=round_4,
        participant=example_competition.participants.get(member__name="Jansen"),
        reason="excused",
    )
    competition_services.make_pairing(round_4)
    competition_services.publish(round_4, at(20))
    round_4.refresh_from_db()
    bye = round_4.bye.member
    [consequence] = apply(bye, [round_4], "cancel", "regular", at(21), None, False, at(21))
    assert not consequence.changes_anything and "vrij" in consequence.message
    assert Round.objects.get(pk=round_4.pk).bye.member == bye


def test_a_late_cancellation_says_zero_points_because_the_table_says_so(
    round_4, jansen, monkeypatch
):
    [consequence] = services.plan(jansen, [round_4], "cancel", "regular", at(18), False)
    assert consequence.outcome == "late"
    assert consequence.message == "Na de deadline: je wordt niet ingedeeld en krijgt 0 punten."
    # Were the table to give late cancellations the excused share, the text would follow.
    monkeypatch.setitem(POINTS_TABLE, Scored.LATE, ("excused", Fraction(0)))
    [consequence] = services.plan(jansen, [round_4], "cancel", "regular", at(18), False)
    assert consequence.message == (
        "Na de deadline: je wordt niet ingedeeld en krijgt ⅓ van je waarde 48 = 16 punten."
    )


def test_a_newcomer_without_a_ranking_yet_is_told_the_share(round_4, jansen):
    participant = round_4.competition.participants.get(member=jansen)
    participant.standings.all().delete()
    [consequence] = services.plan(jansen, [round_4], "cancel", "regular", at(12), False)
    assert consequence.message == "Op tijd afgemeld: ⅓ van je waarde."


@needs_row_locks
@pytest.mark.django_db(transaction=True)
def test_two_identical_submits_at_the_same_moment_make_one_record(jansen, round_4):
    def submit():
        return apply(jansen, [round_4], "cancel", "regular", at(12), jansen.user, False, at(12))

    errors = errors_of(at_once(submit, submit))
    # The second finds the member cancelled already: not what its preview showed, so nothing.
    assert [type(error) for error in errors] == [services.PlanChanged]
    assert Registration.objects.count() == 1 and Absence.objects.count() == 1


# -- the no-show rule (DSC rule k) -------------------------------------------------------------


@pytest.fixture
def de_wit_stayed_away(db):
    """Round 2: de Wit did not come (unexcused); round 3: de Wit lost by default (0-1F)."""
    season = worked_example_season()
    r1, r2, r3 = season.rounds
    r2 = r2._replace(games=r2.games[:4], absent={"de-wit": Reason.UNEXCUSED})
    last = r3.games[3]  # de Wit (white) – de Oude
    r3 = r3._replace(
        games=(*r3.games[:3], last._replace(result=Result.BLACK_WINS_BY_FORFEIT), r3.games[4])
    )
    competition, pk = make_played_competition(season._replace(rounds=(r1, r2, r3)))
    for number in (4, 5):
        Round.on_evening(
            competition, number, date(2026, 9, 24) + timedelta(weeks=number - 4)
        ).save()
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
    # de Wit is last in ranking 3 (value 41): automatically cancelled earns a third, 13⅔.
    assert "automatisch afgemeld, ⅓ van je waarde 41 = 13⅔ punten" in mailoutbox[0].body
    assert "http://127.0.0.1:8000/afmelden/" in mailoutbox[0].body


def test_the_rule_applies_once_and_registering_again_ends_it(de_wit_stayed_away):
    competition, de_wit = de_wit_stayed_away
    services.apply_no_show_rule(at(12))
    services.apply_no_show_rule(at(13))
    assert NoShowCancellation.objects.count() == 1
    round_4 = competition.rounds.get(number=4)
    [done] = apply(de_wit.member, [round_4], "register", "", at(14), None, False, at(14))
    assert done.outcome == "present"
    assert not Absence.objects.filter(participant=de_wit, reason="auto").exists()
    services.apply_no_show_rule(at(15))  # the same two no-shows do not cancel again
    assert not Absence.objects.filter(participant=de_wit, reason="auto").exists()


def test_one_no_show_is_not_enough(db):
    season = worked_example_season()
    r1, r2, r3 = season.rounds
    r3 = r3._replace(
        games=(
            *r3.games[:3],
            r3.games[3]._replace(result=Result.BLACK_WINS_BY_FORFEIT),
            r3.games[4],
        ),
    )
    make_played_competition(season._replace(rounds=(r1, r2, r3)))
    assert services.apply_no_show_rule(at(12)) == []


def test_only_the_current_season_is_checked(de_wit_stayed_away):
    """A season that is over is not read on every pass (nor cancelled in)."""
    later = date(2027, 10, 1)
    make_played_competition(worked_example_season(1), date(2027, 9, 2))
    assert services.apply_no_show_rule(at(12, day=later)) == []
    assert not NoShowCancellation.objects.exists()


def log(competition, participant, number, *actions):
    """The registrations log of round `number`, as `apply` writes it."""
    round_ = competition.rounds.get(number=number)
    for sequence, (action, outcome) in enumerate(actions, start=1):
        Registration.objects.create(
            round=round_,
            member=participant.member,
            sequence=sequence,
            action=action,
            outcome=outcome,
            reported_at=round_.play_starts_at - timedelta(hours=12),
        )


def test_a_forfeit_after_a_late_cancellation_is_not_a_no_show(de_wit_stayed_away):
    """Rule k: "twee rondes achter elkaar niet verschijnt zonder zich af te melden". De Wit
    cancelled round 3 after the pairing was published (a forfeit): that is a cancellation."""
    competition, de_wit = de_wit_stayed_away
    log(competition, de_wit, 3, ("cancel", "forfeit"))
    assert services.apply_no_show_rule(at(12)) == []
    assert not Absence.objects.filter(participant=de_wit, reason="auto").exists()


def test_a_cancellation_taken_back_does_not_excuse_the_no_show(de_wit_stayed_away):
    competition, de_wit = de_wit_stayed_away
    log(competition, de_wit, 3, ("cancel", "excused"), ("register", "present"))
    assert services.apply_no_show_rule(at(12)) == [de_wit]


def test_once_the_games_started_a_member_cannot_cancel_online(paired_round_4, jansen):
    competition_services.publish(paired_round_4, at(20))
    round_4 = Round.objects.get(pk=paired_round_4.pk)
    evening = round_4.date

    def plan(hour, minute, by_arbiter=False):
        moment = at(hour, minute, day=evening)
        return services.plan(jansen, [round_4], "cancel", "regular", moment, by_arbiter)[0]

    assert plan(19, 44).outcome == "forfeit"
    assert plan(19, 45).outcome is None
    assert "alleen de wedstrijdleider" in plan(19, 45).message
    assert plan(21, 0, by_arbiter=True).outcome == "forfeit"


def test_a_cancellation_the_arbiter_undid_does_not_excuse_a_no_show(de_wit_stayed_away):
    competition, de_wit = de_wit_stayed_away
    log(competition, de_wit, 3, ("cancel", "excused"))  # then put back in the pairing
    assert services.apply_no_show_rule(at(12)) == [de_wit]


def test_a_cancellation_after_the_games_started_does_not_excuse_a_no_show(de_wit_stayed_away):
    competition, de_wit = de_wit_stayed_away
    round_3 = competition.rounds.get(number=3)
    Registration.objects.create(
        round=round_3,
        member=de_wit.member,
        sequence=1,
        action="cancel",
        outcome="forfeit",
        reported_at=round_3.play_starts_at,
    )
    assert services.apply_no_show_rule(at(12)) == [de_wit]
