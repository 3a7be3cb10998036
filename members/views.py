"""Public pages of the members app: the best team player of a season."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from members import performance, services
from members.models import Member, Team


def team_players(request: HttpRequest) -> HttpResponse:
    seasons = list(Team.objects.order_by("-season").values_list("season", flat=True).distinct())
    season = request.GET.get("seizoen") or (seasons[0] if seasons else "")
    rows = services.team_player_table(season) if season in seasons else []
    names = dict(
        Member.objects.filter(pk__in=[r.member_id for r in rows]).values_list("pk", "name")
    )
    return render(
        request,
        "members/team_players.html",
        {
            "season": season,
            "seasons": seasons,
            "rows": [(row, names[row.member_id]) for row in rows],
            "minimum": performance.MINIMUM_GAMES,
            "lots_needed": any(row.tied_with_next for row in rows),
        },
    )
