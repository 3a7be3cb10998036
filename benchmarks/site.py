"""Site benchmark: the public pages of a 150-player, 28-round season (`make bench`).

Builds the season in a throw-away SQLite database (or DATABASE_URL), then times full requests
through Django (middleware, view, queries, template) with the test client: best of 20 after a
warm-up, without the test environment's template instrumentation (production has none).
Target: under 50 ms. Exits 1 when missed.
"""

from __future__ import annotations

import time
from datetime import date

from benchmarks import django_env
from benchmarks.report import Report

TARGET = 0.050


def run(report: Report) -> None:
    django_env.setup()
    from django.test import Client
    from django.utils import timezone

    from competition import services
    from competition.models import Competition, Season

    from .keizer import generated_season

    print("building the 150-player, 28-round season (not timed) ...", flush=True)
    season = Season.objects.create(name="bench", start_date=date(2026, 9, 3))
    competition = Competition.objects.create(season=season)
    played = generated_season(150, 28, 7, seed=1)
    services.load_season(competition, played, date(2026, 9, 3), timezone.now())

    client = Client()
    results = []
    player = competition.participants.order_by("initial_position").first()
    for url in ("/ranglijst/", "/indeling/", "/", f"/spelers/{player.pk}/"):
        response = client.get(url)
        assert response.status_code == 200, url
        timings = []
        for _ in range(20):
            start = time.perf_counter()
            client.get(url)
            timings.append(time.perf_counter() - start)
        results.append((url, min(timings), len(response.content)))
    report.heading("Pages through Django's test client (wall time, best of 20)")
    for url, best, size in results:
        name = f"page {url} ({size / 1024:.0f} KiB)"
        if url == "/ranglijst/":
            report.at_most(name, best * 1000, TARGET * 1000)
        else:
            report.note(f"{name:<52} {best * 1000:9.1f} ms  (no target)")


if __name__ == "__main__":
    run(Report())
