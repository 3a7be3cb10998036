"""Workflows across models: recomputing snapshots, pairing, publishing, entering results."""

from datetime import date, datetime
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from competition import services
from competition.keizer.season import Result
from competition.models import Absence, Competition, Game, Ranking, Round, Standing
from tests.competition.keizer.conftest import amount
from tests.competition.keizer.test_worked_example import RANKINGS, rows
from tests.factories import make_line_up, make_round_1_with_two_cancelled
from tests.moments import AMSTERDAM


def totals(competition, after_round):
    return {
        s.participant_id: s.total
        for s in Standing.objects.filter(
            ranking__competition=competition, ranking__after_round=after_round
        )
    }


def test_stored_snapshots_reproduce_the_worked_example(example_competition):
    pk = example_competition.participant
    for k, table in RANKINGS.items():
        ranking = Ranking.objects.get(competition=example_competition, after_round=k)
        stored = list(
            ranking.standings.order_by("position").values_list("participant_id", "value", "total")
        )
        assert stored == [(pk[pid], int(value), amount(total)) for pid, value, total in rows(table)]


def test_changing_an_earlier_result_recomputes_every_later_snapshot(example_competition):
    """With the arbiter's reason (the results page asks it: round 1's results are final)."""
    before = {k: totals(example_competition, k) for k in range(4)}
    game = Game.objects.get(round__number=1, board=1)  # Jansen 1-0 Pietersen
    services.enter_results(game.round, {game.pk: Result.BLACK_WINS.value}, reason="Omgedraaid")
    after = {k: totals(example_competition, k) for k in range(4)}
    assert after[0] == before[0]
    assert all(after[k] != before[k] for k in (1, 2, 3))
    jansen = example_competition.participant["jansen"]
    assert after[1][jansen] == 50  # lost now: own value only


def test_a_final_result_changed_without_a_reason_is_held(example_competition):
    """A workflow called without the reason a final ranking needs (the page asks it; a script
    might not) leaves the published rankings as they are and holds the change (issue 35)."""
    before = {k: totals(example_competition, k) for k in range(4)}
    game = Game.objects.get(round__number=1, board=1)
    services.enter_results(game.round, {game.pk: Result.BLACK_WINS.value})
    assert {k: totals(example_competition, k) for k in range(4)} == before
    assert Competition.objects.get(pk=example_competition.pk).held_since is not None


def test_a_published_pairing_never_changes_when_an_earlier_result_does(
    example_competition, round_4
):
    services.make_pairing(round_4)
    services.publish(round_4, datetime(2026, 9, 18, 20, tzinfo=AMSTERDAM))
    pairing = list(round_4.games.values_list("board", "white_id", "black_id"))
    game = Game.objects.get(round__number=2, board=1)
    services.enter_results(game.round, {game.pk: Result.DRAW.value})
    assert list(round_4.games.values_list("board", "white_id", "black_id")) == pairing


def test_pairing_uses_the_engine_and_records_absences_and_bye(example_competition, round_4):
    pk = example_competition.participant
    Absence.objects.create(round=round_4, participant_id=pk["jansen"], reason="excused")
    assert services.make_pairing(round_4) == []
    round_4.refresh_from_db()
    seated = {p for g in round_4.games.all() for p in (g.white_id, g.black_id)} | {round_4.bye_id}
    assert len(seated) == 9 and pk["jansen"] not in seated
    assert round_4.bye_id == pk["bakker"]  # the lowest ranked of ranking 3 (no byes yet)


def test_pairing_refuses_when_the_previous_round_is_not_complete(example_competition, round_4):
    Game.objects.filter(round__number=3, board=2).update(result="")
    with pytest.raises(services.CompetitionError) as error:
        services.make_pairing(round_4)
    assert error.value.messages == [
        "Ronde 4 kan nog niet ingedeeld worden: ronde 3 is niet compleet."
    ]
    assert not round_4.games.exists()


def test_a_published_round_cannot_be_paired_again(example_competition):
    round_3 = Round.objects.get(number=3)
    with pytest.raises(services.CompetitionError):
        services.make_pairing(round_3)
    assert round_3.games.count() == 5


def test_publishing_happens_exactly_once(example_competition, round_4):
    services.make_pairing(round_4)
    first = datetime(2026, 9, 18, 20, tzinfo=AMSTERDAM)
    assert services.publish(round_4, first) is True
    assert services.publish(round_4, datetime(2026, 9, 18, 21, tzinfo=AMSTERDAM)) is False
    round_4.refresh_from_db()
    assert round_4.published_at == first


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda game, round_: {game.pk: "2-0"}, "Onbekende uitslag '2-0'."),
        (
            lambda game, round_: {999_999: "1-0"},
            "Partij 999999 hoort niet bij de indeling van deze ronde.",
        ),
        (
            lambda game, round_: (
                Absence.objects.create(
                    round=round_, participant_id=game.white_id, reason="excused"
                ),
                {game.pk: "1-0"},
            )[1],
            "Jansen is afwezig gemeld maar wel ingedeeld.",
        ),
    ],
)
def test_impossible_results_are_refused_and_nothing_changes(example_competition, change, message):
    round_1 = Round.objects.get(number=1)
    game = round_1.games.get(board=1)
    snapshot = list(Standing.objects.values_list("pk", "total"))
    results = change(game, round_1)
    with pytest.raises(services.CompetitionError) as error:
        services.enter_results(round_1, {**results, round_1.games.get(board=2).pk: "0-1"})
    assert message in error.value.messages
    assert round_1.games.get(board=2).result == Result.DRAW.value
    assert list(Standing.objects.values_list("pk", "total")) == snapshot


def test_start_points_are_stored_exactly(example_competition):
    participant = example_competition.participants.first()
    participant.start_points = "143/2"
    participant.save()
    participant.refresh_from_db()
    assert participant.start_points == Fraction(143, 2)


def test_a_round_published_meanwhile_is_not_unpublished_by_a_stale_page(paired_round_4):
    """The arbiter opened the draft's page; the worker published it; then the page is saved."""
    stale = Round.objects.get(pk=paired_round_4.pk)
    boards = [services.Board(g.board, g.white_id, g.black_id) for g in stale.games.all()]
    services.publish(paired_round_4, datetime(2026, 9, 18, 20, tzinfo=AMSTERDAM))
    stale.date = date(2026, 9, 25)
    with pytest.raises(services.CompetitionError) as refused:
        services.save_round(stale, absences={}, boards=boards)
    assert "gepubliceerd" in refused.value.messages[0]
    services.save_round(stale, absences={})  # the absences of a published round may change
    round_4 = Round.objects.get(pk=paired_round_4.pk)
    assert round_4.is_published and round_4.date == date(2026, 9, 24)


def test_a_page_without_the_absences_leaves_them_as_they_are(round_4):
    jansen = round_4.competition.participants.get(member__name="Jansen")
    services.record_absence(round_4, jansen, "excused")
    round_4.date = date(2026, 9, 25)
    services.save_round(round_4, absences=None)
    assert round_4.absences.get().participant == jansen


def test_an_unseated_players_absence_cannot_disappear_from_a_published_round(db):
    competition, pk = make_round_1_with_two_cancelled()
    round_1 = competition.rounds.get(number=1)
    de_wit = competition.participants.get(pk=pk["de-wit"])
    with pytest.raises(services.CompetitionError):
        services.remove_absence(round_1, de_wit)
    with pytest.raises(services.CompetitionError) as refused:
        services.save_round(round_1, absences={pk["de-bruin"]: "excused"})
    assert "de Wit staat niet in de gepubliceerde indeling" in refused.value.messages[0]
    changed = {pk["de-bruin"]: "excused", pk["de-wit"]: "late"}
    with pytest.raises(services.CompetitionError) as refused:  # round 1's ranking is final
        services.save_round(round_1, absences=changed)
    assert refused.value.messages == [
        "Zeg waarom: de uitslagen van ronde 1 zijn definitief, en daarmee de ranglijst."
    ]
    assert round_1.absences.get(participant=de_wit).reason == "excused"
    services.save_round(round_1, absences=changed, reason="De Wit meldde zich pas om 19:00 af")
    assert round_1.absences.get(participant=de_wit).reason == "late"
    assert competition.rankings.get(after_round=1).correction == (
        "De Wit meldde zich pas om 19:00 af"
    )


def test_publishing_checks_the_seating_under_the_lock(paired_round_4):
    seated = paired_round_4.games.first().white
    Absence.objects.create(round=paired_round_4, participant=seated, reason="excused")
    with pytest.raises(services.CompetitionError):
        services.publish(paired_round_4, datetime(2026, 9, 18, 20, tzinfo=AMSTERDAM))
    assert not Round.objects.get(pk=paired_round_4.pk).is_published


def test_a_player_away_for_a_team_match_is_not_missing_from_the_pairing(round_4):
    jansen = round_4.competition.participants.get(member__name="Jansen")
    make_line_up(jansen, date(2026, 9, 25))
    services.make_pairing(round_4)
    round_4.refresh_from_db()
    assert jansen.pk not in round_4.seated_ids()
    assert services.publication_problems(round_4) == []
    assert services.publish(round_4, datetime(2026, 9, 18, 20, tzinfo=AMSTERDAM))


def test_entered_results_write_each_changed_games_row_and_history_once(published_round_4, arbiter):
    """The results are stored one UPDATE per result given, the changed games' history in one
    INSERT: each changed game gets one history row of its whole row, with who and why; a game
    given its own result again, or not given, gets none."""
    games = list(published_round_4.games.order_by("board"))
    services.enter_results(published_round_4, {games[0].pk: "1-0"}, user=arbiter)
    rows_before = {game.pk: game.history.count() for game in games}
    typed = {games[0].pk: "1-0", games[1].pk: "0-1", games[2].pk: "0-1", games[3].pk: "1-0F"}
    with CaptureQueriesContext(connection) as queries:
        changed = services.enter_results(published_round_4, typed, reason="Typefout", user=arbiter)
    assert changed == 3
    sent = [query["sql"] for query in queries.captured_queries]
    assert len([sql for sql in sent if sql.startswith('UPDATE "competition_game"')]) == 2
    assert (
        len([sql for sql in sent if sql.startswith('INSERT INTO "competition_historicalgame"')])
        == 1
    )
    for game in games:
        game.refresh_from_db()
        added = game.history.count() - rows_before[game.pk]
        if game.board in (1, 5):
            assert added == 0
            continue
        assert added == 1 and game.result == typed[game.pk]
        last = game.history.order_by("history_id").values().last()
        columns = ("id", "round_id", "board", "white_id", "black_id", "result")
        assert [last[column] for column in columns] == [
            game.pk,
            published_round_4.pk,
            game.board,
            game.white_id,
            game.black_id,
            game.result,
        ]
        assert (last["history_type"], last["history_change_reason"]) == ("~", "Typefout")
        assert last["history_user_id"] == arbiter.pk
