"""A season's and a competition's steps for the arbiter: a new season, ranking 0 and the groups,
a newcomer, and the downloads (the season file, the TRF for the federation)."""

from __future__ import annotations

import json

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.translation import gettext as _

from arbiter.forms import (
    CorrectionReasonForm,
    InitialRankingForm,
    NewcomerForm,
    NewSeasonForm,
)
from arbiter.pages import arbiter_page, render, tell_refused
from club.models import current as current_club
from competition import (
    lineup,
    schedule,
    season_export,
    seasons,
    services,
    trf_export,
    variant_preview,
)
from competition.keizer import variants
from competition.keizer.season_file import SeasonFileError
from competition.keizer.settings_file import settings_from_document
from competition.keizer_form import KeizerForm
from competition.models import Competition
from competition.spreadsheets import download_prefix
from members.models import Member

CHANGE = "competition.change_competition"
VIEW = "competition.view_competition"


def competition_or_404(pk: int) -> Competition:
    return get_object_or_404(Competition, pk=pk)


def back(competition: Competition) -> HttpResponse:
    """The competition's own page in the admin (its settings and players)."""
    return redirect("admin:competition_competition_change", competition.pk)


@arbiter_page("competition.add_season")
def new_season(request: HttpRequest) -> HttpResponse:
    """A new season with its internal competition and a round per club evening: first the
    proposed weekly dates to check, then saved (`seasons.create_season`)."""
    club = current_club()
    first = schedule.next_weekday(timezone.localdate(), club.evening_weekday)
    form = NewSeasonForm(request.POST or None, initial={"first_evening": first})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if not data["evenings"]:
            proposal = "\n".join(
                day.strftime("%d-%m-%Y") for day in seasons.proposed_dates(data["first_evening"])
            )
            form = NewSeasonForm({**request.POST.dict(), "evenings": proposal})
            messages.info(request, _("Check the proposed dates, then save again."))
        else:
            try:
                competition = seasons.create_season(
                    data["name"],
                    data["evenings"],
                    members=Member.objects.active() if data["rating_list"] else None,
                    rating_list=data["rating_list"],
                )
            except services.CompetitionError as error:
                form.add_error(None, error.messages)
            else:
                messages.success(
                    request,
                    _("Season %(name)s created with %(count)s rounds.")
                    % {"name": data["name"], "count": competition.rounds.count()},
                )
                return back(competition)
    return render(request, "arbiter/new_season.html", _("New season"), {"form": form})


@arbiter_page(CHANGE)
def ranking_zero(request: HttpRequest, pk: int) -> HttpResponse:
    """Ranking 0 and the groups, from a rating list or last season's final ranking."""
    competition = competition_or_404(pk)
    form = InitialRankingForm(request.POST or None, initial={"members": Member.objects.active()})
    if request.method == "POST" and form.is_valid():
        try:
            participants = lineup.fill_initial_ranking(
                competition,
                list(form.cleaned_data["members"]),
                form.cleaned_data["rating_list"],
                form.cleaned_data["previous"],
            )
        except services.CompetitionError as error:
            form.add_error(None, error.messages)
        else:
            messages.success(
                request,
                _(
                    "Ranking 0 has %(count)s players in groups %(groups)s; reorder it below "
                    "if needed."
                )
                % {"count": len(participants), "groups": current_club().groups_span},
            )
            return back(competition)
    return render(
        request,
        "arbiter/competition_form.html",
        _("Ranking 0 and groups"),
        {"competition": competition, "form": form, "submit": _("Fill ranking 0")},
    )


@arbiter_page(CHANGE)
def newcomer(request: HttpRequest, pk: int) -> HttpResponse:
    """A newcomer: first a preview of where the suggested (or given) start points put them,
    then added with those points."""
    competition = competition_or_404(pk)
    now = timezone.now()
    form = NewcomerForm(
        request.POST or None,
        competition=competition,
        initial={"joined_round": lineup.joining_rounds(competition)[0]},
    )
    preview = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            preview = lineup.preview_newcomer(
                competition, data["member"], data["joined_round"], data["start_points"], now
            )
        except services.CompetitionError as error:
            form.add_error(None, error.messages)
        else:
            if "confirm" in request.POST:
                lineup.add_newcomer(
                    competition, data["member"], data["joined_round"], preview.start_points, now
                )
                said = {"name": data["member"], "round": data["joined_round"]}
                if preview.waits:
                    said["before"] = data["joined_round"] - 1
                    message = _(
                        "%(name)s joins in round %(round)s, and enters the ranking by "
                        "themselves once the results of round %(before)s are in."
                    )
                else:
                    message = _("%(name)s joins in round %(round)s.")
                messages.success(request, message % said)
                return back(competition)
            form = NewcomerForm(
                {**request.POST.dict(), "start_points": str(preview.start_points)},
                competition=competition,
            )
    return render(
        request,
        "arbiter/competition_form.html",
        _("Add a newcomer"),
        {"competition": competition, "form": form, "preview": preview, "submit": _("Preview")},
    )


@arbiter_page(CHANGE)
def held_change(request: HttpRequest, pk: int) -> HttpResponse:
    """A change made outside the workflows (the admin, a command) that would correct the
    published rankings, held by the worker (`services.refresh_rankings`): what it would move
    in each final ranking, stored with the arbiter's reason, or undone where it was made."""
    competition = competition_or_404(pk)
    form = CorrectionReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.correct_rankings(
                competition, form.cleaned_data["reason"], request.POST.get("held", "")
            )
        except services.OutOfDate as stale:
            tell_refused(request, stale)
            return redirect("admin:index")
        except services.CompetitionError as error:
            form.add_error(None, error.messages)
        else:
            messages.success(request, _("The rankings are corrected, with your reason."))
            return redirect("admin:index")
    return render(
        request,
        "arbiter/held_change.html",
        _("A change to the published rankings"),
        {
            "competition": competition,
            "form": form,
            "changes": services.ranking_changes(competition) if competition.held_since else [],
        },
    )


def download(content: str, content_type: str, name: str) -> HttpResponse:
    response = HttpResponse(content, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@arbiter_page(VIEW)
def season_file(request: HttpRequest, pk: int) -> HttpResponse:
    """The competition as a season file (JSON), for the engine's command line or an import."""
    competition = competition_or_404(pk)
    document = season_export.season_file_document(competition)
    return download(
        json.dumps(document, ensure_ascii=False, indent=2) + "\n",
        "application/json",
        f"{download_prefix()}-{competition.season.name}-{competition.kind}.json",
    )


@arbiter_page(VIEW)
def trf(request: HttpRequest, pk: int) -> HttpResponse:
    """The rating report for the federation (TRF-16), or what it still misses."""
    competition = competition_or_404(pk)
    problems = trf_export.problems(competition)
    if problems:
        for problem in problems:
            messages.error(request, problem)
        return back(competition)
    return download(
        trf_export.trf_text(competition),
        "text/plain",
        f"{download_prefix()}-{competition.season.name}-{competition.kind}.trf",
    )


@arbiter_page(CHANGE)
def keizer(request: HttpRequest, pk: int) -> HttpResponse:
    """The competition's Keizer: a preset or every setting of another club's variant, with
    what it means on the club's own ranking 0 before it is saved (`services.choose_keizer`).
    Fixed once a round has been paired."""
    competition = competition_or_404(pk)
    settings = competition.engine_settings()
    form = KeizerForm(request.POST or None, initial=variants.flat(settings))
    if request.method == "POST" and "preset" in request.POST:
        chosen = request.POST.get("profile")
        if chosen in dict(KeizerForm.PROFILES):
            settings = settings_from_document({"profile": chosen})
            form = KeizerForm(initial=variants.flat(settings))
    elif request.method == "POST" and form.is_valid():
        try:
            settings = settings_from_document(form.document())
        except SeasonFileError as error:
            form.add_error(
                variants.field_of(error.where),
                _("This value cannot be used: %(problem)s") % {"problem": error.problem},
            )
        else:
            if "save" in request.POST:
                try:
                    services.choose_keizer(competition, settings)
                except services.CompetitionError as error:
                    form.add_error(None, error.messages)
                else:
                    messages.success(request, _("The Keizer settings are saved."))
                    return back(competition)
    fixed = competition.is_under_way
    return render(
        request,
        "arbiter/keizer.html",
        _("Keizer settings"),
        {
            "competition": competition,
            "form": form,
            "fixed": fixed,
            "preview": None if form.errors else variant_preview.preview(competition, settings),
        },
    )
