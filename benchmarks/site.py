"""Site benchmark: the public pages of a 150-player, 28-round season (`make bench`).

Builds the season in a throw-away SQLite database (or DATABASE_URL), then requests each page
through Django (middleware, view, queries, template) with the test client, as a visitor:

- cold: rendered after a change (the page cache's version bumped before each request), the
  least CPU time of 7 (SQLite's queries run in this process and count; PostgreSQL's do not);
- cached: served from the page cache, the least wall time of 20.

Targets (issue 12): every public page renders cold in under 150 ms of CPU time.
Requests per second through gunicorn are measured by benchmarks/load.py.
"""

from __future__ import annotations

from datetime import date

from benchmarks import django_env
from benchmarks.report import Report, cpu_ms, wall_ms

COLD_TARGET_MS = 150


def run(report: Report) -> None:
    django_env.setup()
    from django.test import Client
    from django.utils import timezone

    from base import page_cache
    from competition import services
    from competition.models import Competition, Season
    from members.groups import split_into_groups

    from .keizer import generated_season

    print("building the 150-player, 28-round season (not timed) ...", flush=True)
    season = Season.objects.create(name="bench", start_date=date(2026, 9, 3))
    competition = Competition.objects.create(season=season)
    played = generated_season(150, 28, 7, seed=1)
    services.load_season(competition, played, date(2026, 9, 3), timezone.now())
    players = list(competition.participants.order_by("initial_position"))
    groups = split_into_groups(players, "ABCD")  # groups as DSC's season has (a race chart each)
    for participant in players:
        participant.group = groups[participant]
        participant.save(update_fields=["group"])

    client = Client()
    player = competition.participants.order_by("initial_position").first()

    def cold(url: str):
        def render():
            page_cache.changed()
            client.get(url)

        return render

    report.heading("Public pages, 150 players x 28 rounds, as a visitor (test client)")
    report.note("cold: CPU time of a render after a change (best of 7); cached: wall time")
    for url in ("/ranglijst/", "/indeling/", "/", f"/spelers/{player.pk}/", "/prijzen/"):
        response = client.get(url)
        assert response.status_code == 200, url
        size = len(response.content) / 1024
        report.at_most(f"page {url} ({size:.0f} KiB) cold", cpu_ms(cold(url), 7), COLD_TARGET_MS)
        cached = wall_ms(lambda url=url: client.get(url), 20)
        report.note(f"{'page ' + url + ' cached':<52} {cached:9.2f} ms  (no target)")


if __name__ == "__main__":
    run(Report())
