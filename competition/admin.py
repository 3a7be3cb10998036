"""The arbiter's admin: seasons, competitions, players, rounds with pairing and results."""

from __future__ import annotations

import json
import re

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from simple_history.admin import SimpleHistoryAdmin

from competition import exchange, lineup, seasons, services
from competition.forms import (
    SHORTCUT_HELP,
    AbsenceFormSet,
    GameFormSet,
    InitialRankingForm,
    NewcomerForm,
    NewSeasonForm,
    ResultsForm,
    RoundForm,
)
from competition.keizer.season import SETTING_NAMES
from competition.models import (
    Absence,
    Competition,
    Game,
    Page,
    Participant,
    Ranking,
    Round,
    Season,
)
from competition.templatetags.keizer import format_amount
from competition.trf_export import trf_text
from members import admin as members_admin
from members.models import Member, TeamMatch


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "start_date", "is_closed")
    readonly_fields = ("is_closed",)
    actions = ["close"]
    change_list_template = "admin/competition/season/change_list.html"

    @admin.action(description=gettext_lazy("Close the season (the standings become final)"))
    def close(self, request, queryset):
        for season in queryset:
            seasons.close_season(season)
        self.message_user(request, _("Closed."), messages.SUCCESS)

    def get_urls(self):
        return [
            path(
                "new/",
                self.admin_site.admin_view(self.new_season_view),
                name="competition_season_new",
            ),
            *super().get_urls(),
        ]

    def new_season_view(self, request):
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = NewSeasonForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            if not data["evenings"]:
                proposal = "\n".join(
                    day.strftime("%d-%m-%Y")
                    for day in seasons.proposed_dates(data["first_evening"])
                )
                form = NewSeasonForm({**request.POST.dict(), "evenings": proposal})
                self.message_user(request, _("Check the proposed dates, then save again."))
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
                    self.message_user(
                        request,
                        _("Season %(name)s created with %(count)s rounds.")
                        % {"name": data["name"], "count": competition.rounds.count()},
                        messages.SUCCESS,
                    )
                    return redirect(
                        reverse("admin:competition_competition_change", args=[competition.pk])
                    )
        return TemplateResponse(
            request,
            "admin/competition/season/new.html",
            {
                **self.admin_site.each_context(request),
                "opts": self.model._meta,
                "title": _("New season"),
                "form": form,
            },
        )


class ParticipantInline(admin.TabularInline):
    model = Participant
    fields = ("initial_position", "member", "guest_name", "group", "joined_round", "start_points")
    autocomplete_fields = ("member",)
    extra = 0


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin):
    list_display = ("__str__", *SETTING_NAMES)
    fieldsets = (
        (None, {"fields": ("season", "kind")}),
        (gettext_lazy("Keizer settings"), {"fields": SETTING_NAMES}),
    )
    inlines = [ParticipantInline]
    actions = ["recompute"]

    @admin.action(description=gettext_lazy("Recompute the rankings"))
    def recompute(self, request, queryset):
        for competition in queryset:
            services.recompute_rankings(competition)
        self.message_user(request, _("Rankings recomputed."), messages.SUCCESS)

    change_form_template = "admin/competition/competition/change_form.html"

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # Settings and players are what the rankings are computed from: bring them up to date
        # (the service recomputes only when something the engine reads changed).
        services.refresh_rankings(form.instance)

    def get_urls(self):
        def view(function, name):
            return path(
                f"<int:pk>/{name}/",
                self.admin_site.admin_view(function),
                name=f"competition_competition_{name}",
            )

        return [
            view(self.ranking_zero_view, "ranking-zero"),
            view(self.newcomer_view, "newcomer"),
            view(self.season_file_view, "season-file"),
            view(self.trf_view, "trf"),
            *super().get_urls(),
        ]

    def trf_view(self, request, pk):
        competition = get_object_or_404(Competition, pk=pk)
        if not self.has_view_or_change_permission(request, competition):
            raise PermissionDenied
        response = HttpResponse(trf_text(competition), content_type="text/plain; charset=utf-8")
        name = f"dsc-{competition.season.name}-{competition.kind}.trf"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response

    def season_file_view(self, request, pk):
        competition = get_object_or_404(Competition, pk=pk)
        if not self.has_view_or_change_permission(request, competition):
            raise PermissionDenied
        document = exchange.season_file_document(competition)
        response = HttpResponse(
            json.dumps(document, ensure_ascii=False, indent=2) + "\n",
            content_type="application/json; charset=utf-8",
        )
        name = f"dsc-{competition.season.name}-{competition.kind}.json"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response

    def _competition_or_404(self, request, pk) -> Competition:
        competition = get_object_or_404(Competition, pk=pk)
        if not self.has_change_permission(request, competition):
            raise PermissionDenied
        return competition

    def _render(self, request, competition, template, title, **context):
        return TemplateResponse(
            request,
            template,
            {
                **self.admin_site.each_context(request),
                "opts": self.model._meta,
                "original": competition,
                "title": title,
                **context,
            },
        )

    def ranking_zero_view(self, request, pk):
        competition = self._competition_or_404(request, pk)
        form = InitialRankingForm(
            request.POST or None, initial={"members": Member.objects.active()}
        )
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
                self.message_user(
                    request,
                    _("Ranking 0 has %(count)s players in groups A–D; reorder it below if needed.")
                    % {"count": len(participants)},
                    messages.SUCCESS,
                )
                return redirect(reverse("admin:competition_competition_change", args=[pk]))
        return self._render(
            request,
            competition,
            "admin/competition/competition/form.html",
            _("Ranking 0 and groups"),
            form=form,
        )

    def newcomer_view(self, request, pk):
        competition = self._competition_or_404(request, pk)
        played = lineup.played_rounds(competition)
        form = NewcomerForm(
            request.POST or None, competition=competition, initial={"joined_round": played + 1}
        )
        preview = None
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                preview = lineup.preview_newcomer(
                    competition, data["member"], data["joined_round"], data["start_points"]
                )
            except services.CompetitionError as error:
                form.add_error(None, error.messages)
            else:
                if "confirm" in request.POST:
                    lineup.add_newcomer(
                        competition, data["member"], data["joined_round"], preview.start_points
                    )
                    self.message_user(
                        request,
                        _("%(name)s joins in round %(round)s.")
                        % {"name": data["member"], "round": data["joined_round"]},
                        messages.SUCCESS,
                    )
                    return redirect(reverse("admin:competition_competition_change", args=[pk]))
                form = NewcomerForm(
                    {**request.POST.dict(), "start_points": str(preview.start_points)},
                    competition=competition,
                )
        return self._render(
            request,
            competition,
            "admin/competition/competition/form.html",
            _("Add a newcomer"),
            form=form,
            preview=preview,
        )


def participant_field(request, db_field, formfield):
    """Limit a participant select to the round's competition and build its choices once per
    request (a review page has two selects per board)."""
    round_ = getattr(request, "_round", None)
    if round_ is None or db_field.related_model is not Participant:
        return formfield
    cache = request.__dict__.setdefault("_participant_choices", {})
    if round_.competition_id not in cache:
        participants = round_.competition.participants.select_related("member")
        formfield.queryset = participants
        cache[round_.competition_id] = (participants, list(formfield.choices))
    formfield.queryset, formfield.choices = cache[round_.competition_id]
    return formfield


class GameInline(admin.TabularInline):
    model = Game
    formset = GameFormSet
    fields = ("board", "white", "black", "result")
    readonly_fields = ("result",)
    extra = 0

    def _editable(self, obj) -> bool:
        return obj is not None and not obj.is_published

    def has_add_permission(self, request, obj=None):
        return self._editable(obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request, obj=None):
        return self._editable(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return self._editable(obj) and super().has_delete_permission(request, obj)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("white__member", "black__member")

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        formfield = super().formfield_for_foreignkey(db_field, request, **kwargs)
        return participant_field(request, db_field, formfield)


class AbsenceInline(admin.TabularInline):
    model = Absence
    formset = AbsenceFormSet
    fields = ("participant", "reason")
    extra = 0

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("participant__member")

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        formfield = super().formfield_for_foreignkey(db_field, request, **kwargs)
        return participant_field(request, db_field, formfield)


@admin.register(Round)
class RoundAdmin(SimpleHistoryAdmin):
    form = RoundForm
    list_display = ("number", "competition", "date", "publish_at", "published_at", "results")
    list_filter = ("competition",)
    list_select_related = ("competition__season",)
    fields = ("competition", "number", "date", "publish_at", "published_at", "bye")
    readonly_fields = ("published_at",)
    inlines = [GameInline, AbsenceInline]
    change_form_template = "admin/competition/round/change_form.html"

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(
                games_total=Count("games"), games_done=Count("games", filter=~Q(games__result=""))
            )
        )

    @admin.display(description=gettext_lazy("results"))
    def results(self, round_: Round) -> str:
        return f"{round_.games_done}/{round_.games_total}"

    def has_delete_permission(self, request, obj=None):
        return (obj is None or not obj.is_published) and super().has_delete_permission(request, obj)

    # The round, its absences and its draft boards are stored together by one service
    # (`services.save_round`), which checks them as a whole: the admin only collects them.
    def save_model(self, request, obj, form, change):
        obj._history_user = request.user  # stored with its absences and boards below

    def save_formset(self, request, form, formset, change):
        formset.save(commit=False)  # what changed, for the history message; stored below

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        round_ = form.instance
        # Only inlines this user may change carry what was typed (a view-only inline's forms
        # hold their initial values); the rest is left as it is.
        obj = round_ if change else None
        editable = {
            inline.model
            for inline in self.get_inline_instances(request, obj)
            if inline.has_change_permission(request, obj)
            or inline.has_add_permission(request, obj)
            or inline.has_delete_permission(request, obj)
        }
        by_model = {formset.model: formset for formset in formsets if formset.model in editable}
        games, absences = by_model.get(Game), by_model.get(Absence)
        if games is None and round_.is_published and self._posted_a_draft(request):
            raise services.CompetitionError(
                _("Round %(number)s was published meanwhile; its pairing is fixed now.")
                % {"number": round_.number}
            )
        services.save_round(
            round_,
            absences=absences.absences() if absences is not None else None,
            boards=games.boards() if games is not None else None,
            based_on={form.instance.pk for form in games.initial_forms} if games else None,
        )

    @staticmethod
    def _posted_a_draft(request) -> bool:
        """The page was sent with a draft's boards (it was opened before publication)."""
        return any(re.fullmatch(r"games-\d+-white", name) for name in request.POST)

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except services.CompetitionError as refused:
            # Checked again under the round's lock: someone else changed it meanwhile (the
            # worker published it, say). Nothing was saved; the page shows it as it is now.
            for message in refused.messages:
                self.message_user(request, message, messages.ERROR)
            return redirect(request.get_full_path())

    def get_form(self, request, obj=None, change=False, **kwargs):
        request._round = obj
        return super().get_form(request, obj, change, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.is_published:
            return ("competition", "number", "date", "publish_at", "published_at", "bye")
        return self.readonly_fields

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        formfield = super().formfield_for_foreignkey(db_field, request, **kwargs)
        return participant_field(request, db_field, formfield)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        round_ = self.get_object(request, object_id)
        team = exchange.team_match_absences(round_.competition, [round_]) if round_ else {}
        names = {
            p.pk: p.name
            for p in Participant.objects.filter(
                pk__in=[participant for _round, participant in team]
            ).select_related("member")
        }
        extra_context = {
            **(extra_context or {}),
            "pairing_warnings": services.pairing_warning_texts(round_) if round_ else [],
            "team_absences": sorted((names[p], str(match)) for (_r, p), match in team.items()),
            "team_share": format_amount(round_.competition.team_fraction) if round_ else "",
        }
        return super().change_view(request, object_id, form_url, extra_context)

    def get_urls(self):
        def view(function, name):
            return path(
                f"<int:pk>/{name}/",
                self.admin_site.admin_view(function),
                name=f"competition_round_{name}",
            )

        return [
            view(self.results_view, "results"),
            view(self.pair_view, "pair"),
            view(self.publish_view, "publish"),
            *super().get_urls(),
        ]

    def _round_or_404(self, request, pk) -> Round:
        round_ = get_object_or_404(Round.objects.select_related("competition__season"), pk=pk)
        if not self.has_change_permission(request, round_):
            raise PermissionDenied
        return round_

    def _back(self, round_: Round):
        return redirect(reverse("admin:competition_round_change", args=[round_.pk]))

    def results_view(self, request, pk):
        round_ = self._round_or_404(request, pk)
        form = ResultsForm(request.POST or None, round_=round_)
        if request.method == "POST" and form.is_valid():
            try:
                changed = services.enter_results(round_, form.results())
            except services.CompetitionError as error:
                for message in error.messages:
                    form.add_error(None, message)
            else:
                self.message_user(
                    request,
                    _("%(count)s result(s) saved; the rankings are up to date.")
                    % {"count": changed},
                    messages.SUCCESS,
                )
                return redirect(reverse("admin:competition_round_results", args=[round_.pk]))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": round_,
            "title": _("Results of round %(number)s") % {"number": round_.number},
            "form": form,
            "shortcut_help": SHORTCUT_HELP,
            "outcomes": Game.Result.choices,
        }
        return TemplateResponse(request, "admin/competition/round/results.html", context)

    def pair_view(self, request, pk):
        if request.method != "POST":
            return redirect(reverse("admin:competition_round_change", args=[pk]))
        round_ = self._round_or_404(request, pk)
        try:
            warnings = services.make_pairing(round_)
        except services.CompetitionError as error:
            for message in error.messages:
                self.message_user(request, message, messages.ERROR)
        else:
            self.message_user(request, _("The pairing is made; review it and publish."))
            if warnings:
                self.message_user(
                    request,
                    _("The pairing has repeated meetings; see the warnings."),
                    messages.WARNING,
                )
        return self._back(round_)

    def publish_view(self, request, pk):
        if request.method != "POST":
            return redirect(reverse("admin:competition_round_change", args=[pk]))
        round_ = self._round_or_404(request, pk)
        try:
            published = services.publish(round_, timezone.now())
        except services.CompetitionError as refused:
            for message in refused.messages:
                self.message_user(request, message, messages.ERROR)
        else:
            if published:
                self.message_user(request, _("The pairing is published."), messages.SUCCESS)
            else:
                self.message_user(
                    request, _("The pairing was already published."), messages.WARNING
                )
        return self._back(round_)


@admin.register(Game)
class GameAdmin(SimpleHistoryAdmin):
    """Read-only list of games, for the change history of each result."""

    list_display = ("round", "board", "white", "black", "result")
    list_filter = ("round__competition", "round__number")
    list_select_related = ("round__competition__season", "white__member", "black__member")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # games belong to their round's pairing


@admin.register(Absence)
class AbsenceAdmin(SimpleHistoryAdmin):
    """Read-only list with history; absences are recorded on the round's page, where they
    are checked against the pairing and the rankings are recomputed."""

    list_display = ("round", "participant", "reason")
    list_filter = ("round__competition", "reason")
    list_select_related = ("round__competition__season", "participant__member")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Ranking)
class RankingAdmin(admin.ModelAdmin):
    list_display = ("competition", "after_round", "passes", "oscillation_stop", "computed_at")
    list_filter = ("competition",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Page)
class PageAdmin(SimpleHistoryAdmin):
    list_display = ("title", "slug", "updated_at")
    prepopulated_fields = {"slug": ("title",)}


admin.site.unregister(TeamMatch)


@admin.register(TeamMatch)
class TeamMatchAdmin(members_admin.TeamMatchAdmin):
    """A line-up decides team absences (DSC rule f): after a save the rankings of the season
    follow at once (the worker's pass catches line-ups changed anywhere else)."""

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        for competition in Competition.objects.classical().filter(
            season__name=form.instance.team.season
        ):
            services.refresh_rankings(competition)

    def delete_model(self, request, obj):
        season = obj.team.season
        super().delete_model(request, obj)
        for competition in Competition.objects.classical().filter(season__name=season):
            services.refresh_rankings(competition)
