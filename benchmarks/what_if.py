"""What-if benchmark: `/wat-als/` for a 150-player season at round 28 (`make bench`, or
`python -m benchmarks.what_if`).

Builds the season in a throw-away SQLite database (or DATABASE_URL): rounds 1-27 played (a
generated season), round 28 paired by the engine and published without results, and a round
29 still to pair, so the page computes everything it ever does: the ranking after round 28
with the chosen results and the likely pairing of round 29. Then, as a visitor, it times whole
requests through Django's test client (middleware, view, the reads, the engine, the template)
after a warm-up. The figure judged is CPU time, best of several: SQLite answers in this
process, so its work is counted, and a busy machine (the suite, other processes) disturbs it
far less than wall time, which is printed beside it:

- a question first asked, a result chosen for each of the 75 boards: under 60 ms (issue 28;
  104 ms when it measured; each request comes after `page_cache.changed()`, as after a write,
  so nothing kept answers it);
- the page as first opened (no result chosen yet, nothing to compute): under 0.3 s (issue 13);
- the 75-board question asked again: from the page cache, under 5 ms here; the load benchmark
  (benchmarks/load.py) compares it with a static file under gunicorn.

Each line also says how many SQL queries the request made.
"""

from __future__ import annotations

import itertools

from benchmarks import django_env
from benchmarks.report import Report, cpu_ms, wall_ms

PLAYERS = 150
ROUND = 28
RUNS = 7
FIRST_MS = 60  # a new question, every board chosen (issue 28: 104 ms before)
CHANGED_MS = 300  # the first question after a change reads the season too (issue 13)
OPENED_MS = 300  # the page as first opened, after a change (issue 13)
AGAIN_MS = 5  # the same question again: from the page cache (load.py compares it to a file)


def run(report: Report) -> None:
    django_env.setup()
    from django.conf import settings
    from django.core.cache.backends.dummy import DummyCache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, override_settings
    from django.urls import reverse
    from django.utils import timezone

    from base import page_cache
    from base.fair_use import LIMITS_CACHE
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
    visitor = Client()  # no session: what a visitor gets

    def measure(name: str, ask, marker: str, target_ms: float) -> None:
        def send() -> None:
            response = visitor.get(url, ask())
            assert response.status_code == 200, response.status_code
            assert marker in response.content.decode(), marker

        send()  # warm-up
        with CaptureQueriesContext(connection) as queries:
            send()
        count = len(queries)
        wall = wall_ms(send, RUNS)
        report.at_most(
            f"{name}, {count} queries", cpu_ms(send, RUNS), target_ms, ratio=f"wall {wall:.0f} ms"
        )

    def after_a_change(data: dict):
        def ask() -> dict:
            page_cache.changed()  # as after any write: nothing kept, everything read again
            return data

        return ask

    def new_choices() -> dict:
        """Another choice each time (board 1 cycles through every result) on the same data:
        the page cache has no answer, the data was read for an earlier question."""
        asked = next(counter)
        return choice | {
            f"bord-{boards[0]}": cycle[asked % 3].value,
            f"bord-{boards[1 + asked // 3 % (len(boards) - 1)]}": "",
            "leeg": Result.DRAW.value,
        }

    counter = itertools.count()
    # The fair-use limit (30 new questions a minute per address) would refuse most of these
    # requests: the benchmark measures the page, not the limit (benchmarks/fair_use.py does).
    dummy = f"{DummyCache.__module__}.{DummyCache.__name__}"
    unlimited = {**settings.CACHES, LIMITS_CACHE: {"BACKEND": dummy}}
    report.heading(
        f"What if, {PLAYERS} players, round {ROUND} "
        f"(CPU time, SQLite in the same process; best of {RUNS}, test client, as a visitor)"
    )
    chosen = f"{len(boards)} results chosen"
    with override_settings(CACHES=unlimited):
        measure(f"{chosen}, a new question", new_choices, "what-if-pairing", FIRST_MS)
        measure(f"{chosen}, after a change", after_a_change(choice), "what-if-pairing", CHANGED_MS)
        measure("opened, after a change", after_a_change(own), 'name="bord-1"', OPENED_MS)
        measure(f"{chosen}, asked again", lambda: choice, "what-if-pairing", AGAIN_MS)


if __name__ == "__main__":
    run(Report())
