"""Closing a season and reopening it: never in one click. The closing page lists what would be
left undone (rounds not played, results missing, results and team matches to decide); before
the season is finished it closes only with a reason. Reopening always asks for one. Both
reasons stand in the season's history (`competition.seasons`)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.translation import gettext as _

from arbiter.pages import arbiter_page, render, tell_refused
from competition import seasons, services
from competition.models import Season

CHANGE = "competition.change_season"
SEASONS = "admin:competition_season_changelist"


@arbiter_page(CHANGE)
def close(request: HttpRequest, pk: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=pk)
    now = timezone.now()
    if request.method == "POST" and "confirm" in request.POST:
        try:
            seasons.close_season(season, now, request.POST.get("reason", ""))
        except services.CompetitionError as refused:
            tell_refused(request, refused)
        else:
            messages.success(
                request,
                _("Season %(name)s is closed; its standings are final.") % {"name": season.name},
            )
            return redirect(SEASONS)
    return render(
        request,
        "arbiter/close_season.html",
        _("Close season %(name)s") % {"name": season.name},
        {
            "season": season,
            "report": seasons.closing_report(season, now),
            "reason": request.POST.get("reason", ""),
        },
    )


@arbiter_page(CHANGE)
def reopen(request: HttpRequest, pk: int) -> HttpResponse:
    season = get_object_or_404(Season, pk=pk)
    if request.method == "POST" and "confirm" in request.POST:
        try:
            seasons.reopen_season(season, request.POST.get("reason", ""))
        except services.CompetitionError as refused:
            tell_refused(request, refused)
        else:
            messages.success(request, _("Season %(name)s is open again.") % {"name": season.name})
            return redirect(SEASONS)
    return render(
        request,
        "arbiter/reopen_season.html",
        _("Reopen season %(name)s") % {"name": season.name},
        {"season": season, "reason": request.POST.get("reason", "")},
    )
