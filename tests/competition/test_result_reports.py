"""Players enter the result of their own game (DSC rule q): two equal reports make the result,
different ones or a lone one after 23:30 go to the arbiter, whose word always wins."""

import itertools
from types import SimpleNamespace

import pytest
import time_machine
from django.contrib.auth.models import User

from competition import services
from competition.models import Game, ResultReport
from competition.reports import Verdict, games_to_decide, needs_arbiter, verdict_of
from tests.moments import EVENING_4, at
from tests.races import at_once, errors_of, needs_row_locks

WHITE_WINS, DRAW, BLACK_WINS = "1-0", "1/2-1/2", "0-1"  # the codes, written out by hand
DURING = at(21, day=EVENING_4)  # Thursday 24 September 2026, 21:00: the games are on
GAMES_START = at(19, 45, day=EVENING_4)
FINAL = at(23, 30, day=EVENING_4)


def account(participant, username):
    participant.member.user = User.objects.create_user(username, password=f"{username}-pw")
    participant.member.save()
    return participant.member.user


@pytest.fixture
def board(published_round_4, jansen):
    """Jansen's game in round 4; his opponent has an account too, and so does a player of
    another board."""
    game = (
        published_round_4.games.involving(
            published_round_4.competition.participants.get(member=jansen)
        )
        .select_related("white__member", "black__member")
        .get()
    )
    white = game.white.member.user or account(game.white, "white")
    black = game.black.member.user or account(game.black, "black")
    other = published_round_4.games.exclude(pk=game.pk).select_related("white__member").first()
    return SimpleNamespace(
        game=game,
        round=published_round_4,
        white=white,
        black=black,
        stranger=account(other.white, "stranger"),
    )


def stored(game) -> str:
    return Game.objects.get(pk=game.pk).result


def result_changes(game) -> list:
    """The game's history rows that changed its result, oldest first."""
    rows = game.history.order_by("history_id")
    return [row for before, row in itertools.pairwise(rows) if before.result != row.result]


def test_the_rule_of_agreement():
    assert verdict_of([]) is Verdict.NONE
    assert verdict_of([WHITE_WINS]) is Verdict.ONE
    assert verdict_of([DRAW, DRAW]) is Verdict.AGREED
    assert verdict_of([WHITE_WINS, BLACK_WINS]) is Verdict.DIFFER


def test_when_both_players_enter_the_same_result_it_stands_in_the_name_of_the_second(board):
    others = {g.pk: WHITE_WINS for g in board.round.games.exclude(pk=board.game.pk)}
    services.enter_results(board.round, others)  # the arbiter entered the other four boards
    assert not board.round.competition.rankings.filter(after_round=4).exists()

    assert services.report_result(board.game, board.white, BLACK_WINS, DURING) is Verdict.ONE
    assert stored(board.game) == ""
    later = at(21, 5, day=EVENING_4)
    assert services.report_result(board.game, board.black, BLACK_WINS, later) is Verdict.AGREED
    assert stored(board.game) == BLACK_WINS
    [change] = result_changes(board.game)
    assert change.history_user == board.black
    assert change.history_change_reason == "Beide spelers gaven deze uitslag door"
    # The round is complete now: its ranking is stored, and nothing is left to recompute.
    assert board.round.competition.rankings.filter(after_round=4).exists()
    assert services.refresh_rankings(board.round.competition) is False
    # The result is provisional until 23:30, as every result.
    assert board.round.results_are_provisional(later)
    reports = ResultReport.objects.filter(game=board.game)
    assert {(r.reported_by, r.result, r.reported_at) for r in reports} == {
        (board.white, BLACK_WINS, DURING),
        (board.black, BLACK_WINS, later),
    }


def test_different_results_go_to_the_arbiter_at_once_until_a_player_corrects_theirs(board):
    services.report_result(board.game, board.white, WHITE_WINS, DURING)
    verdict = services.report_result(board.game, board.black, DRAW, at(21, 1, day=EVENING_4))
    assert verdict is Verdict.DIFFER and stored(board.game) == ""
    [waiting] = games_to_decide(board.round.competition, at(21, 2, day=EVENING_4))
    assert waiting.game == board.game
    assert [value for value, _label in waiting.reported_results()] == [WHITE_WINS, DRAW]

    # White made a mistake: entering again replaces the report, and now they agree.
    verdict = services.report_result(board.game, board.white, DRAW, at(21, 3, day=EVENING_4))
    assert verdict is Verdict.AGREED and stored(board.game) == DRAW
    assert games_to_decide(board.round.competition, at(21, 4, day=EVENING_4)) == []
    # Every entry stays in the report's history, the replaced one too, with who and when.
    entries = ResultReport.history.filter(game_id=board.game.pk).order_by("history_date")
    assert [(e.history_user, e.result, e.history_date) for e in entries] == [
        (board.white, WHITE_WINS, DURING),
        (board.black, DRAW, at(21, 1, day=EVENING_4)),
        (board.white, DRAW, at(21, 3, day=EVENING_4)),
    ]


def test_a_lone_result_waits_for_the_opponent_until_half_past_eleven(board):
    services.report_result(board.game, board.black, WHITE_WINS, DURING)
    competition = board.round.competition
    assert games_to_decide(competition, at(23, 29, 59, day=EVENING_4)) == []
    [waiting] = games_to_decide(competition, FINAL)
    assert (waiting.white, waiting.black.result) == (None, WHITE_WINS)
    assert stored(board.game) == ""  # the arbiter decides; nothing counts by itself


def test_what_needs_the_arbiter_follows_the_evening(board):
    before, after = at(23, 29, day=EVENING_4), FINAL
    assert needs_arbiter(Verdict.DIFFER, board.round, before)
    assert not needs_arbiter(Verdict.ONE, board.round, before)
    assert needs_arbiter(Verdict.ONE, board.round, after)
    assert not needs_arbiter(Verdict.AGREED, board.round, after)
    assert not needs_arbiter(Verdict.NONE, board.round, after)


def test_nobody_enters_a_result_for_a_game_they_did_not_play(board):
    nobody = User.objects.create_user("guest-account")
    for user in (board.stranger, nobody):
        with pytest.raises(services.CompetitionError) as refused:
            services.report_result(board.game, user, WHITE_WINS, DURING)
        assert refused.value.messages == [
            "Dit is niet jouw partij: alleen de twee spelers geven de uitslag door."
        ]
    assert not ResultReport.objects.exists() and stored(board.game) == ""


@pytest.mark.parametrize(
    ("moment", "message"),
    [
        (
            at(19, 44, 59, day=EVENING_4),
            "Je kunt de uitslag doorgeven vanaf donderdag 24 september 19:45, als de partijen "
            "beginnen.",
        ),
        (
            FINAL,
            "De uitslagen van ronde 4 zijn definitief sinds 23:30: de wedstrijdleider beslist.",
        ),
    ],
)
def test_results_are_entered_from_the_games_start_until_they_are_final(board, moment, message):
    with pytest.raises(services.CompetitionError) as refused:
        services.report_result(board.game, board.white, WHITE_WINS, moment)
    assert refused.value.messages == [message]
    assert not ResultReport.objects.exists()
    assert services.report_result(board.game, board.white, WHITE_WINS, GAMES_START) is Verdict.ONE


def test_an_unpublished_pairing_takes_no_results(paired_round_4, jansen):
    game = paired_round_4.games.involving(
        paired_round_4.competition.participants.get(member=jansen)
    ).get()
    with pytest.raises(services.CompetitionError) as refused:
        services.report_result(game, jansen.user, WHITE_WINS, DURING)
    assert refused.value.messages == ["De indeling van ronde 4 is niet gepubliceerd."]


def test_a_game_with_a_result_keeps_it_and_the_player_is_told_which(board):
    services.enter_results(board.round, {board.game.pk: DRAW})  # the arbiter
    with pytest.raises(services.CompetitionError) as refused:
        services.report_result(board.game, board.white, WHITE_WINS, DURING)
    assert refused.value.messages == [
        "De uitslag van deze partij staat al: ½-½. Klopt die niet? Zeg het de wedstrijdleider."
    ]
    assert not ResultReport.objects.exists() and stored(board.game) == DRAW


@pytest.mark.parametrize("result", ["1-0F", "0-0F", "", "2-0"])
def test_forfeits_and_anything_else_are_the_arbiters(board, result):
    with pytest.raises(services.CompetitionError) as refused:
        services.report_result(board.game, board.white, result, DURING)
    assert refused.value.messages == ["Kies een van 1-0, ½-½, 0-1."]
    assert not ResultReport.objects.exists()


def test_the_same_result_entered_twice_is_one_entry(board):
    services.report_result(board.game, board.white, WHITE_WINS, DURING)
    services.report_result(board.game, board.white, WHITE_WINS, at(21, 1, day=EVENING_4))
    assert ResultReport.history.filter(game_id=board.game.pk).count() == 1


def test_two_agreeing_reports_store_the_result_once(board):
    services.report_result(board.game, board.white, WHITE_WINS, DURING)
    services.report_result(board.game, board.black, WHITE_WINS, DURING)
    assert len(result_changes(board.game)) == 1
    # A third entry, by either player, is refused: the result stands.
    with pytest.raises(services.CompetitionError):
        services.report_result(board.game, board.black, DRAW, DURING)
    assert len(result_changes(board.game)) == 1 and stored(board.game) == WHITE_WINS


def test_the_arbiter_decides_once_and_later_changes_anything(board, arbiter):
    services.report_result(board.game, board.white, WHITE_WINS, DURING)
    services.report_result(board.game, board.black, BLACK_WINS, DURING)
    services.decide_result(board.game, BLACK_WINS, user=arbiter)
    assert stored(board.game) == BLACK_WINS
    [change] = result_changes(board.game)
    assert (change.history_user, change.history_change_reason) == (
        arbiter,
        "Beslist door de wedstrijdleider",
    )
    with pytest.raises(services.CompetitionError) as refused:
        services.decide_result(board.game, WHITE_WINS, user=arbiter)
    assert refused.value.messages == [
        f"Bord {board.game.board} van ronde 4 heeft al een uitslag: 0-1."
    ]
    # The results page changes anything, players' agreement or not.
    services.enter_results(board.round, {board.game.pk: DRAW}, user=arbiter)
    assert stored(board.game) == DRAW


@needs_row_locks
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("trial", range(5))
def test_two_players_entering_at_once_store_one_result(board, trial):
    """A free race: both enter 1-0 at the same moment; one of them completes the agreement."""
    outcomes = at_once(
        *(
            lambda user=user: services.report_result(board.game, user, WHITE_WINS, DURING)
            for user in (board.white, board.black)
        )
    )
    assert errors_of(outcomes) == []
    assert sorted(verdict.value for verdict, _error in outcomes) == ["agreed", "one"]
    assert stored(board.game) == WHITE_WINS and len(result_changes(board.game)) == 1


@needs_row_locks
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("trial", range(5))
def test_the_arbiters_result_wins_over_an_agreement_made_at_the_same_moment(board, arbiter, trial):
    services.report_result(board.game, board.white, WHITE_WINS, DURING)
    outcomes = at_once(
        lambda: services.report_result(board.game, board.black, WHITE_WINS, DURING),
        lambda: services.enter_results(board.round, {board.game.pk: DRAW}, user=arbiter),
    )
    # The player's entry after the arbiter's is refused: that is the point.
    unexpected = errors_of(outcomes)
    assert [e for e in unexpected if not isinstance(e, services.CompetitionError)] == []
    assert stored(board.game) == DRAW  # whichever came first, the arbiter's word stands
    assert result_changes(board.game)[-1].history_user == arbiter


def test_the_service_goes_by_the_moment_it_is_given_not_the_clock(board):
    with time_machine.travel(at(12, day=EVENING_4), tick=False):  # before the games start
        assert services.report_result(board.game, board.white, DRAW, DURING) is Verdict.ONE
