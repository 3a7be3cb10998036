"""Arbiter benchmark: the round's pages in /beheer/ for a 40-player round of a 28-round season
(`make bench`, or `python -m benchmarks.arbiter`).

Builds the season in a throw-away SQLite database (or DATABASE_URL): rounds 1-27 played (a
generated season), round 28 with all 40 players present and not paired yet. Then, logged in as
the arbiter, it times whole requests through Django's test client (middleware, view, service,
queries, template; wall time, best of several after a warm-up, since these wait on the
database):

- the round's page (GET), unpaired and with a draft of 20 boards: under 0.3 s each;
- "Indeling maken" (POST: the engine pairs the round, the draft is stored): under 0.3 s;
- publishing (POST, the early publication page and the confirmed publication; the pairing
  e-mails are sent later by the worker): under 0.5 s;
- the results page (POST of 20 boards, every result changed, the 28 rankings recomputed):
  under 0.5 s.

Each line also says how many SQL queries the request made.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from benchmarks import django_env
from benchmarks.report import Report

PLAYERS = 40
ROUNDS = 28
RUNS = 7
TARGETS_MS = {"page": 300, "pair": 300, "publish": 500, "results": 500}


def run(report: Report) -> None:
    django_env.setup()
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse
    from django.utils import timezone

    from competition import services
    from competition.models import Competition, Round, Season
    from competition.schedule import EVENING_SPACING, weekly_evenings

    from .keizer import generated_season

    print(
        f"building the {PLAYERS}-player season, rounds 1-{ROUNDS - 1} played (not timed) ...",
        flush=True,
    )
    today = timezone.localdate()
    first_evening = today - EVENING_SPACING * (ROUNDS - 2)  # round 28 is next week's evening
    Season.objects.filter(name="bench-arbiter").delete()  # a kept DATABASE_URL's last run
    season = Season.objects.create(name="bench-arbiter", start_date=first_evening)
    competition = Competition.objects.create(season=season)
    played = generated_season(PLAYERS, ROUNDS - 1, rounds_per_period=7, seed=3)
    services.load_season(competition, played, first_evening, timezone.now())
    round_ = Round.on_evening(
        competition, ROUNDS, weekly_evenings(first_evening, ROUNDS)[ROUNDS - 1]
    )
    round_.save()

    arbiter = User.objects.filter(username="bench-arbiter").first() or (
        User.objects.create_superuser("bench-arbiter", "arbiter@example.org", "bench-password")
    )
    client = Client()
    client.force_login(arbiter)

    page = reverse("arbiter:round", args=[round_.pk])
    pair = reverse("arbiter:pair", args=[round_.pk])
    publish = reverse("arbiter:publish", args=[round_.pk])
    results = reverse("arbiter:results", args=[round_.pk])

    def request(method: str, url: str, data=None, status: int = 200) -> Callable[[], None]:
        def send() -> None:
            response = getattr(client, method)(url, data or {})
            assert response.status_code == status, (url, response.status_code)

        return send

    def measure(name: str, send: Callable[[], None], target: float, before=None) -> None:
        """Best wall time of RUNS requests (after a warm-up); `before` restores the state each
        request starts from, untimed."""
        (before or (lambda: None))()
        send()  # warm-up
        (before or (lambda: None))()
        with CaptureQueriesContext(connection) as queries:
            send()
        count = len(queries)  # read now: the next request empties the connection's log
        best = float("inf")
        for _ in range(RUNS):
            (before or (lambda: None))()
            start = time.perf_counter()
            send()
            best = min(best, time.perf_counter() - start)
        report.at_most(f"{name}, {count} queries", best * 1000, target)

    def unpublish() -> None:
        Round.objects.filter(pk=round_.pk).update(published_at=None, pairing_mailed_at=None)

    report.heading(
        f"The arbiter's round pages, {PLAYERS} players, round {ROUNDS} "
        f"(wall time, best of {RUNS}, test client)"
    )
    measure("round page, not paired", request("get", page), TARGETS_MS["page"])
    measure("Indeling maken", request("post", pair, status=302), TARGETS_MS["pair"])
    boards = Round.objects.get(pk=round_.pk).games.count()
    assert boards == PLAYERS // 2, boards
    measure(f"round page, draft of {boards} boards", request("get", page), TARGETS_MS["page"])
    measure("publish: the early page", request("post", publish), TARGETS_MS["publish"])
    measure(
        "publish: confirmed",
        request("post", publish, {"confirm": "1"}, status=302),
        TARGETS_MS["publish"],
        before=unpublish,
    )
    if Round.objects.get(pk=round_.pk).published_at is None:
        client.post(publish, {"confirm": "1"})

    games = list(Round.objects.get(pk=round_.pk).games.order_by("board"))
    typed = [["1", "0", "r"], ["0", "r", "1"]]  # every board changes from one set to the next
    turn = [0]

    def enter_results() -> None:
        shortcuts = typed[turn[0] % 2]
        turn[0] += 1
        data = {f"game_{g.pk}": shortcuts[i % 3] for i, g in enumerate(games)}
        data |= {"confirm_early": "1", "reason": "benchmark"}
        response = client.post(results, data)
        assert response.status_code == 302, response.content.decode()[:2000]

    measure(
        f"results: {len(games)} boards, {ROUNDS} rankings",
        enter_results,
        TARGETS_MS["results"],
    )
    assert competition.rankings.filter(after_round=ROUNDS).exists()


if __name__ == "__main__":
    run(Report())
