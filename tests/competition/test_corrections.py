"""A correction is visible (issue 24): a final ranking that changes says so on its standings
page, with when and why, and the members who get the ranking by e-mail hear of it once; the
evening's own changes, while the results are provisional, are no correction."""

import re

import time_machine
from django.urls import reverse
from django.utils import timezone

from clubweek.worker import run_pass
from competition import services
from competition.models import Game, Ranking, Round
from tests.moments import EVENING_4, at


def corrections(mailoutbox):
    return [m for m in mailoutbox if "gecorrigeerd" in m.subject]


def test_a_result_corrected_after_the_evening_marks_the_rankings_it_changed(
    client, jansen, example_competition, mailoutbox
):
    competition = example_competition
    jansen.mail_ranking = True
    jansen.save()
    Round.objects.filter(competition=competition).update(ranking_mailed_at=timezone.now())
    round_2 = competition.rounds.get(number=2)
    game = round_2.games.exclude(result=Game.Result.DRAW).order_by("board").first()
    swapped = {Game.Result.WHITE_WINS: Game.Result.BLACK_WINS}.get(
        game.result, Game.Result.WHITE_WINS
    )
    untouched = Ranking.objects.get(competition=competition, after_round=1).pk
    services.enter_results(round_2, {game.pk: swapped}, reason="Verkeerd genoteerd")
    # Which game changed and how, then why (issue 37: the reason alone named no game).
    words = {"1-0": "1-0", "0-1": "0-1"}
    said = (
        f"ronde 2, bord {game.board}, {game.white.name} – {game.black.name}: "
        f"{words[game.result]} → {words[swapped]} (Verkeerd genoteerd)"
    )

    marked = dict(
        Ranking.objects.filter(competition=competition).values_list("after_round", "correction")
    )
    assert marked[0] == marked[1] == "" and marked[2] == marked[3] == said
    assert Ranking.objects.get(competition=competition, after_round=1).pk == untouched
    page = client.get(reverse("competition:standings-round", args=[2])).content.decode()
    assert re.search(r"Gecorrigeerd op \d+ \w+ \d{4} \d\d:\d\d: " + re.escape(said) + r"\.", page)
    assert (
        "Gecorrigeerd"
        not in client.get(reverse("competition:standings-round", args=[1])).content.decode()
    )

    run_pass(timezone.now())
    run_pass(timezone.now())
    [told] = corrections(mailoutbox)  # once, about the newest ranking it changed
    assert told.to == ["jansen@example.org"]
    assert told.subject == "DSC: de ranglijst na ronde 3 is gecorrigeerd"
    assert f"gecorrigeerd: {said}." in told.body


def test_the_evenings_own_changes_are_no_correction(published_round_4):
    game = published_round_4.games.order_by("board").first()
    results = {g.pk: Game.Result.WHITE_WINS for g in published_round_4.games.all()}
    with time_machine.travel(at(21, day=EVENING_4), tick=False):
        services.enter_results(published_round_4, results)
    with time_machine.travel(at(22, day=EVENING_4), tick=False):  # still provisional
        services.enter_results(published_round_4, {game.pk: Game.Result.BLACK_WINS})
    ranking_4 = Ranking.objects.get(competition=published_round_4.competition, after_round=4)
    assert ranking_4.corrected_at is None and ranking_4.correction == ""
