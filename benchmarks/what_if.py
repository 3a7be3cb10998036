"""What-if benchmark: `/wat-als/` for a 40-player season at round 28 (`make bench`, or
`python -m benchmarks.what_if`).

Builds the season in a throw-away SQLite database (or DATABASE_URL): rounds 1-27 played (a
generated season), round 28 paired by the engine and published without results, and a round
29 still to pair, so the page computes everything it ever does: the ranking after round 28
with the chosen results and the likely pairing of round 29. Then, as a visitor (the page is
never served from the page cache), it times whole requests through Django's test client
(middleware, view, the reads, the engine, the template) after a warm-up. The figure judged is
CPU time, best of several: SQLite answers in this process, so its work is counted, and a busy
machine (the suite, other processes) disturbs it far less than wall time, which is printed
beside it:

- the page with a result chosen for each of the 20 boards: under 0.3 s (issue 13);
- the page as first opened (no result chosen yet, nothing to compute): under 0.3 s.

Each line also says how many SQL queries the request made.
"""

from __future__ import annotations

from benchmarks import django_env
from benchmarks.report import Report, cpu_ms, wall_ms

PLAYERS = 40
ROUND = 28
RUNS = 7
TARGET_MS = 300


def run(report: Report) -> None:
    django_env.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse
    from django.utils import timezone

    from competition import services
    from competition.keizer.season import Result
    from competition.models import Competition, Round, Season
    from competition.schedule import EVENING_SPACING, weekly_evenings

    from .keizer import generated_season

    print(
        f"building the {PLAYERS}-player season, rounds 1-{ROUND - 1} played, "
        f"round {ROUND} published (not timed) ...",
        flush=True,
    )
    today = timezone.localdate()
    first_evening = today - EVENING_SPACING * (ROUND - 2)  # round 28 is next week's evening
    Season.objects.filter(name="bench-what-if").delete()  # a kept DATABASE_URL's last run
    season = Season.objects.create(name="bench-what-if", start_date=first_evening)
    competition = Competition.objects.create(season=season)
    played = generated_season(PLAYERS, ROUND - 1, rounds_per_period=7, seed=5)
    services.load_season(competition, played, first_evening, timezone.now())
    asked, after = (
        Round.on_evening(competition, number, evening)
        for number, evening in enumerate(weekly_evenings(first_evening, ROUND + 1), start=1)
        if number >= ROUND
    )
    asked.save()
    after.save()
    services.make_pairing(asked)
    services.publish(asked, timezone.now())
    boards = list(asked.games.order_by("board").values_list("board", flat=True))
    assert len(boards) == PLAYERS // 2, boards

    cycle = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]
    # Its own season, named: `make bench` keeps the other benchmarks' seasons in one database.
    own = {"seizoen": season.name}
    choice = (
        own
        | {"ronde": str(ROUND)}
        | {f"bord-{board}": cycle[index % 3].value for index, board in enumerate(boards)}
    )
    url = reverse("competition:what-if")
    visitor = Client()  # no session: what a visitor gets (never from the page cache)

    def measure(name: str, data: dict, marker: str) -> None:
        def send() -> None:
            response = visitor.get(url, data)
            assert response.status_code == 200, response.status_code
            assert marker in response.content.decode(), marker

        send()  # warm-up
        with CaptureQueriesContext(connection) as queries:
            send()
        count = len(queries)
        wall = wall_ms(send, RUNS)
        report.at_most(
            f"{name}, {count} queries", cpu_ms(send, RUNS), TARGET_MS, ratio=f"wall {wall:.0f} ms"
        )

    report.heading(
        f"What if, {PLAYERS} players, round {ROUND} "
        f"(CPU time, SQLite in the same process; best of {RUNS}, test client, as a visitor)"
    )
    measure(f"{len(boards)} results chosen: ranking + pairing", choice, "what-if-pairing")
    measure("opened, no result chosen yet", own, 'name="bord-1"')


if __name__ == "__main__":
    run(Report())
