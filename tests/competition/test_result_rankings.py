"""A saved result recomputes only the rankings it can change (`services.enter_results`
through `recompute_after_results`): rankings r.. after a result of round r, when the stored
rankings are those of the data as it was before (their digest); every ranking otherwise. Either
way the stored rankings are what computing everything anew stores."""

from datetime import date

import pytest
from django.db import connection
from django.db.models.signals import post_delete, pre_delete
from django.test.utils import CaptureQueriesContext

from competition import exchange, services
from competition.models import Game, Ranking, Standing
from competition.services.rankings import _computed
from tests.factories import big_engine_season, make_played_competition, worked_example_season

OTHER = {"1-0": "0-1", "0-1": "1/2-1/2", "1/2-1/2": "1-0"}


def everything_computed(competition) -> dict:
    return {s.after_round: s for s in _computed(exchange.read_inputs(competition))}


def ranking_rows(competition) -> dict[int, int]:
    return dict(competition.rankings.values_list("after_round", "pk"))


@pytest.mark.parametrize("number", [1, 2, 3])
def test_a_saved_result_recomputes_its_round_and_later_rankings(example_competition, number):
    competition = example_competition
    game = competition.rounds.get(number=number).games.order_by("board").first()
    rows = ranking_rows(competition)
    services.enter_results(game.round, {game.pk: OTHER[game.result]}, reason="typo")
    assert exchange.stored_snapshots(competition) == everything_computed(competition)
    after = ranking_rows(competition)
    assert {k: after[k] for k in range(number)} == {k: rows[k] for k in range(number)}
    digests = set(competition.rankings.values_list("inputs", flat=True))
    assert digests == {exchange.read_inputs(competition).digest}


def test_an_unseen_earlier_change_is_not_lost(example_competition):
    """A result of round 1 changed outside the services (the admin, a command: the worker's
    pass would find it) is computed with the next saved result of round 3, not left behind
    under the new digest."""
    competition = example_competition
    first = competition.rounds.get(number=1).games.order_by("board").first()
    Game.objects.filter(pk=first.pk).update(result=OTHER[first.result])
    game = competition.rounds.get(number=3).games.order_by("board").first()
    services.enter_results(game.round, {game.pk: OTHER[game.result]}, reason="typo")
    assert exchange.stored_snapshots(competition) == everything_computed(competition)


def changes_of(round_, results: dict[int, str]) -> dict:
    games = {g.pk: g for g in round_.games.all()}
    return {
        (games[pk].white_id, games[pk].black_id): (games[pk].result, result)
        for pk, result in results.items()
    }


def store(round_, results: dict[int, str]) -> None:
    for pk, result in results.items():
        Game.objects.filter(pk=pk).update(result=result)


@pytest.mark.parametrize("number", [1, 2, 3])
@pytest.mark.parametrize(
    "what", ["one changed", "all changed", "one cleared", "one entered", "entered, not complete"]
)
def test_the_inputs_before_a_change_are_told_from_those_after(example_competition, number, what):
    competition = example_competition
    round_ = competition.rounds.get(number=number)
    games = list(round_.games.order_by("board"))
    if what in ("one entered", "entered, not complete"):  # the round waits for results
        store(round_, {g.pk: "" for g in games[: 1 if what == "one entered" else 2]})
    if what == "one changed":
        results = {games[0].pk: OTHER[games[0].result]}
    elif what == "all changed":
        results = {g.pk: OTHER[g.result] for g in games}
    elif what == "one cleared":
        results = {games[0].pk: ""}
    else:
        results = {games[0].pk: "1-0"}
    before = exchange.read_inputs(competition)
    changes = changes_of(round_, results)
    store(round_, results)
    told = exchange.inputs_before(exchange.read_inputs(competition), number, changes)
    if what == "one cleared":  # a round that stops counting: later rounds cannot be told
        assert told is None
    else:
        assert told is not None and told.digest == before.digest


def test_saving_a_result_takes_as_many_queries_for_150_players_and_28_rounds(db):
    """Issue 36: a saved result is written, and its rankings stored, in a number of queries
    that does not grow with the season (the standings in one executemany)."""
    counts = []
    for season, first in (
        (worked_example_season(3), date(2025, 9, 4)),
        (big_engine_season(), date(2026, 9, 3)),
    ):
        competition, _ = make_played_competition(season, first)
        last = competition.rounds.order_by("-number").first()
        game = last.games.order_by("board").first()
        with CaptureQueriesContext(connection) as queries:
            services.enter_results(last, {game.pk: OTHER[game.result]}, reason="typo")
        counts.append(len(queries.captured_queries))
        assert exchange.stored_snapshots(competition) == everything_computed(competition)
    assert counts[0] == counts[1]


def test_only_standings_refer_to_rankings_and_nothing_listens_to_their_deletion():
    """Replaced rankings are deleted with two plain DELETEs, the standings' and the rankings'
    (`services.rankings._delete_rankings`): right only while nothing else refers to them and
    no signal or history expects their deletion."""
    referring = {(rel.related_model, rel.field.name) for rel in Ranking._meta.related_objects}
    assert referring == {(Standing, "ranking")}
    assert not Standing._meta.related_objects
    for model in (Ranking, Standing):
        assert not pre_delete.has_listeners(model) and not post_delete.has_listeners(model)
        assert not hasattr(model, "history")


def test_a_replaced_ranking_leaves_no_standing_behind(example_competition):
    competition = example_competition
    game = competition.rounds.get(number=3).games.order_by("board").first()
    before = ranking_rows(competition)[3]
    services.enter_results(game.round, {game.pk: OTHER[game.result]}, reason="typo")
    assert not Ranking.objects.filter(pk=before).exists()
    assert not Standing.objects.filter(ranking_id=before).exists()
    assert Standing.objects.filter(ranking__competition=competition).count() == sum(
        len(snapshot.standings) for snapshot in everything_computed(competition).values()
    )
