"""The arbiter's admin: seasons, competitions, players, rounds with pairing and results."""

from __future__ import annotations

import html
import json
import re
from datetime import datetime

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.safestring import SafeData, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base.history import HistoryAdmin
from competition import (
    exchange,
    lineup,
    rapid_evening,
    reports,
    seasons,
    services,
    trf_export,
    views,
)
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
    ResultReport,
    Round,
    Season,
)
from competition.templatetags.keizer import format_amount
from members import admin as members_admin
from members.models import Member, TeamMatch
from operations.models import WorkerHeartbeat


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
        (gettext_lazy("Rating report (TRF)"), {"fields": ("rate_of_play", "chief_arbiter")}),
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
            view(self.rapid_evening_view, "rapid-evening"),
            *super().get_urls(),
        ]

    def rapid_evening_view(self, request, pk):
        """The rapid evening on one page (competition/rapid_evening.py)."""
        return rapid_evening.evening_view(self, request, pk)

    def trf_view(self, request, pk):
        competition = get_object_or_404(Competition, pk=pk)
        if not self.has_view_or_change_permission(request, competition):
            raise PermissionDenied
        problems = trf_export.problems(competition)
        if problems:
            for problem in problems:
                self.message_user(request, problem, messages.ERROR)
            return redirect(reverse("admin:competition_competition_change", args=[pk]))
        response = HttpResponse(
            trf_export.trf_text(competition), content_type="text/plain; charset=utf-8"
        )
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
        # iter(): list() would ask the choices for their length first, a COUNT query.
        cache[round_.competition_id] = (participants, list(iter(formfield.choices)))
    formfield.queryset, formfield.choices = cache[round_.competition_id]
    return formfield


def _attributes(attrs: dict) -> str:
    """A widget's attributes as django/forms/widgets/attrs.html writes them."""
    return "".join(
        f" {_text(name)}" + ("" if value is True else f'="{_text(value)}"')
        for name, value in attrs.items()
        if value is not False
    )


def _text(value) -> str:
    """A value as a template writes it: the text, escaped unless it is safe already (Django's
    `escape` is `html.escape`, behind a wrapper that costs more than the escaping)."""
    return str(value) if isinstance(value, SafeData) else html.escape(str(value))


class ParticipantSelect(forms.Select):
    """Django's select of one value with its options written here instead of by a template
    each: the same HTML, but a round's page has some 45 selects of 40 players, and 1,800
    option templates took half of its time."""

    def render(self, name, value, attrs=None, renderer=None):
        choices = list(self.choices)
        if any(isinstance(label, (list, tuple)) for _value, label in choices):
            return super().render(name, value, attrs, renderer)  # groups: Django's own
        wanted = set(self.format_value(value))
        attributes = _attributes(self.build_attrs(self.attrs, attrs))
        parts = [f'<select name="{_text(name)}"{attributes}>']
        for option, label in choices:
            option = "" if option is None else option
            selected = bool(wanted) and str(option) in wanted
            if selected:
                wanted = set()  # only the first match, as `ChoiceWidget.optgroups`
            parts.append(
                f'\n  <option value="{_text(option)}"{" selected" if selected else ""}>'
                f"{_text(label)}</option>\n"
            )
        parts.append("\n</select>")
        return mark_safe("".join(parts))


class RoundParticipantFields:
    """The player selects of a round's page: the round's competition only, written fast."""

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.related_model is Participant:
            kwargs.setdefault("widget", ParticipantSelect)
        formfield = super().formfield_for_foreignkey(db_field, request, **kwargs)
        return participant_field(request, db_field, formfield)


class GameInline(RoundParticipantFields, admin.TabularInline):
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


class AbsenceInline(RoundParticipantFields, admin.TabularInline):
    model = Absence
    formset = AbsenceFormSet
    fields = ("participant", "reason")
    extra = 0

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("participant__member")


class CompetitionKindFilter(admin.SimpleListFilter):
    """The rounds list shows the internal competition unless the rapid one (or all) is asked
    for: the arbiter's everyday list is not mixed with the rapid evenings."""

    title = gettext_lazy("kind of competition")
    parameter_name = "soort"
    ALL = "alle"

    def lookups(self, request, model_admin):
        return [*Competition.Kind.choices, (self.ALL, _("both"))]

    def value(self):
        return super().value() or Competition.Kind.CLASSICAL

    def choices(self, changelist):
        for lookup, title in self.lookup_choices:
            yield {
                "selected": self.value() == str(lookup),
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }

    def queryset(self, request, queryset):
        if self.value() == self.ALL:
            return queryset
        return queryset.filter(competition__kind=self.value())


class ChangeReasonForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason for changing a final result"),
        max_length=100,
        required=False,
        help_text=gettext_lazy("Kept in the game's history."),
    )


@admin.register(Round)
class RoundAdmin(RoundParticipantFields, HistoryAdmin):
    form = RoundForm
    list_display = ("number", "competition", "date", "publish_at", "published_at", "results")
    list_filter = (CompetitionKindFilter, "competition")
    list_select_related = ("competition__season",)
    fields = ("competition", "number", "date", "publish_at", "published_at", "bye")
    readonly_fields = ("published_at",)
    inlines = [GameInline, AbsenceInline]
    change_form_template = "admin/competition/round/change_form.html"

    def get_queryset(self, request):
        return (
            super().get_queryset(request).with_result_counts().select_related("competition__season")
        )

    def get_object(self, request, object_id, from_field=None):
        """The round is read once per request: `change_view` reads it first, for its context."""
        read = getattr(request, "_read_round", None)
        if read is not None and from_field is None and str(read.pk) == str(object_id):
            return read
        round_ = super().get_object(request, object_id, from_field)
        if from_field is None:
            request._read_round = round_
        return round_

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
            view(self.print_pairing_view, "print"),
            view(self.print_slips_view, "slips"),
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
        now = timezone.now()
        round_ = self._round_or_404(request, pk)
        form = ResultsForm(request.POST or None, round_=round_)
        reported = reports.reported_games(form.games)  # what the players entered
        # After the results became final (23:30 on the evening) a change needs a reason.
        final = round_.is_published and not round_.results_are_provisional(now)
        reason_form = ChangeReasonForm(request.POST or None) if final else None
        early = round_.date > timezone.localdate(now)
        ask_early = False
        if request.method == "POST" and form.is_valid() and (not final or reason_form.is_valid()):
            results = form.results()
            reason = reason_form.cleaned_data["reason"].strip() if final else ""
            changed_final = round_.results_changed_after_final(results, now)
            if early and "confirm_early" not in request.POST:
                ask_early = True  # before the evening: the arbiter confirms first
            elif changed_final and not reason:
                reason_form.add_error(
                    "reason",
                    _("Say why: the result of board %(boards)s was final already.")
                    % {"boards": ", ".join(str(game.board) for game in changed_final)},
                )
                for field in form.fields.values():  # the cursor goes to the reason
                    field.widget.attrs.pop("autofocus", None)
                reason_form.fields["reason"].widget.attrs["autofocus"] = True
            else:
                try:
                    changed = services.enter_results(round_, results, reason=reason)
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
            "rows": [(game, field, reported[game.pk].reports) for game, field in form.rows()],
            "reason_form": reason_form,
            "ask_early": ask_early,
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

    # The evening kit on paper, a draft too: the arbiter may print before publishing. Behind
    # the admin's login (never cached: admin_view), where the public addresses show only
    # published rounds.
    def print_pairing_view(self, request, pk):
        round_ = self._round_or_404(request, pk)
        return views.render_pairing_print(request, round_, self._change_url(round_))

    def print_slips_view(self, request, pk):
        round_ = self._round_or_404(request, pk)
        return views.render_slips_print(request, round_, self._change_url(round_))

    @staticmethod
    def _change_url(round_: Round) -> str:
        return reverse("admin:competition_round_change", args=[round_.pk])

    def publish_view(self, request, pk):
        if request.method != "POST":
            return redirect(reverse("admin:competition_round_change", args=[pk]))
        now = timezone.now()
        round_ = self._round_or_404(request, pk)
        early = not round_.is_published and now < round_.cancellation_deadline
        if early and "confirm" not in request.POST:
            # Members can still cancel in time until the deadline: the arbiter confirms, seeing
            # who is e-mailed the pairing.
            seated = round_.seated_ids()
            recipients = list(round_.pairing_recipients())
            return TemplateResponse(
                request,
                "admin/competition/round/publish_early.html",
                {
                    **self.admin_site.each_context(request),
                    "opts": self.model._meta,
                    "original": round_,
                    "title": _("Publish round %(number)s before the deadline?")
                    % {"number": round_.number},
                    "recipients": recipients,
                    "without_mail": len(seated) - len(recipients),
                },
            )
        try:
            published = services.publish(round_, now)
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
class GameAdmin(HistoryAdmin):
    """Read-only list of games, for the change history of each result."""

    list_display = ("round", "board", "white", "black", "result")
    list_filter = ("round__competition", "round__number")
    list_select_related = ("round__competition__season", "white__member", "black__member")
    object_history_template = "admin/competition/game/object_history.html"

    def history_view(self, request, object_id, extra_context=None):
        """The result's changes, and beside them every result the players entered (replaced
        ones too), with who and when."""
        entries = (
            ResultReport.history.filter(game_id=object_id)
            .select_related("participant__member", "history_user")
            .order_by("history_date", "history_id")
        )
        return super().history_view(
            request, object_id, {**(extra_context or {}), "player_entries": list(entries)}
        )

    def get_urls(self):
        return [
            path(
                "<int:pk>/decide/",
                self.admin_site.admin_view(self.decide_view),
                name="competition_game_decide",
            ),
            *super().get_urls(),
        ]

    def decide_view(self, request, pk):
        """The arbiter takes one of the results the players entered (the start page's
        buttons); the results page changes anything else."""
        if request.method != "POST":
            return redirect(reverse("admin:index"))
        if not request.user.has_perm("competition.change_round"):
            raise PermissionDenied
        game = get_object_or_404(Game.objects.select_related("round"), pk=pk)
        result = request.POST.get("result", "")
        try:
            services.decide_result(game, result, user=request.user)
        except services.CompetitionError as refused:
            for message in refused.messages:
                self.message_user(request, message, messages.ERROR)
        else:
            self.message_user(
                request,
                _("Round %(number)s, board %(board)s: %(result)s.")
                % {
                    "number": game.round.number,
                    "board": game.board,
                    "result": Game.Result(result).label,
                },
                messages.SUCCESS,
            )
        return redirect(reverse("admin:index"))

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # games belong to their round's pairing


@admin.register(Absence)
class AbsenceAdmin(HistoryAdmin):
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

    def get_urls(self):
        return [
            path(
                "<int:pk>/team-claim/",
                self.admin_site.admin_view(self.team_claim_view),
                name="competition_absence_team_claim",
            ),
            *super().get_urls(),
        ]

    def team_claim_view(self, request, pk):
        """The arbiter's word on a team match a member claimed (the start page's buttons)."""
        if request.method != "POST":
            return redirect(reverse("admin:index"))
        if not request.user.has_perm("competition.change_absence"):
            raise PermissionDenied
        absence = get_object_or_404(
            Absence.objects.select_related("round", "participant__member"), pk=pk
        )
        decision = request.POST.get("decision")
        if decision not in ("confirm", "refuse"):
            return HttpResponseBadRequest(_("Confirm or refuse the claim."))
        confirmed = decision == "confirm"
        try:
            services.decide_team_claim(absence, confirmed=confirmed)
        except services.CompetitionError as refused:
            for message in refused.messages:
                self.message_user(request, message, messages.ERROR)
        else:
            text = (
                _("%(name)s: team match in round %(number)s confirmed.")
                if confirmed
                else _("%(name)s: team match in round %(number)s refused (cancelled in time).")
            )
            self.message_user(
                request,
                text % {"name": absence.participant.name, "number": absence.round.number},
                messages.SUCCESS,
            )
        return redirect(reverse("admin:index"))


@admin.register(Ranking)
class RankingAdmin(admin.ModelAdmin):
    list_display = ("competition", "after_round", "passes", "oscillation_stop", "computed_at")
    list_filter = ("competition",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Page)
class PageAdmin(HistoryAdmin):
    revert_allowed = True  # a page of text: an old version is simply saved again
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


# -- the start page ----------------------------------------------------------------------------

admin.site.index_template = "admin/start_page.html"


def start_page(request):
    """/beheer/: this week of the internal competition above the usual list of models."""
    if not request.user.has_perm("competition.view_round"):
        return admin.site.index(request)  # the week is the arbiter's, not every staff account's
    return admin.site.index(request, extra_context=this_week(timezone.now()))


def this_week(now: datetime) -> dict:
    """What the arbiter has to do this week, read from what is stored: the coming rounds
    with their stage and who is absent, open team-match claims, missing results, and when the
    worker (which publishes the pairing) was last seen."""
    today = timezone.localdate(now)
    competitions = Competition.objects.current(today)
    competition = competitions.classical().first()
    rounds = []
    claims = []
    to_decide = []
    if competition is not None:
        week = list(competition.rounds.this_week(today).with_result_counts().order_by("number"))
        team = exchange.team_match_absences(competition, week)
        names = {
            p.pk: p.name
            for p in competition.participants.filter(
                pk__in=[participant for _round, participant in team]
            ).select_related("member")
        }
        absences = (
            Absence.objects.filter(round__in=week)
            .select_related("participant__member")
            .order_by("participant__member__name", "participant__guest_name")
        )
        for round_ in week:
            cancelled = [  # a line-up's team reason takes precedence (exchange)
                a
                for a in absences
                if a.round_id == round_.pk and (round_.pk, a.participant_id) not in team
            ]
            in_team = sorted(
                (names[p], str(match))
                for (round_id, p), match in team.items()
                if round_id == round_.pk
            )
            rounds.append(
                {
                    "round": round_,
                    "stage": round_.stage(now),
                    "absences": cancelled,
                    "line_ups": in_team,
                    "absent": len(cancelled) + len(in_team),
                }
            )
        claims = exchange.open_team_claims(competition)
        to_decide = reports.games_to_decide(competition, now)
    missing = (
        Round.objects.filter(competition__in=competitions)
        .missing_results(today)
        .with_result_counts()
        .select_related("competition__season")
        .order_by("date", "competition")
    )
    return {
        "show_week": True,
        "week_competition": competition,
        "rapid_competition": competitions.rapid().first(),
        "week_rounds": rounds,
        "team_claims": claims,
        "to_decide": to_decide,
        "missing_results": list(missing),
        "members": Member.objects.active().order_by("name"),
        "stages": Round.Stage,
        "worker": WorkerHeartbeat.objects.status(now),
    }
