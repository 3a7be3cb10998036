"""The competition's models in the admin: lists, filters and history. The arbiter's work on
them (a round's pairing, results and absences, a new season, ranking 0, newcomers, the rapid
evening, the downloads) is the arbiter's application (`arbiter/`), which these pages link to."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base.admin_labels import LabelledTabularInline
from base.history import HistoryAdmin
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


@admin.register(Season)
class SeasonAdmin(HistoryAdmin):
    """Seasons; closing and reopening go through their own pages (`arbiter.season_end`), which
    say what would be left undone and keep the reason in the history: never a list action."""

    list_display = ("name", "start_date", "is_closed", "closing")
    readonly_fields = ("is_closed",)
    actions = None
    change_list_template = "admin/competition/season/change_list.html"  # "New season"

    def has_delete_permission(self, request, obj=None):
        # Deleting a season deletes its competitions: never one that has been paired.
        under_way = obj is not None and any(c.is_under_way for c in obj.competitions.all())
        return not under_way and super().has_delete_permission(request, obj)

    @admin.display(description=gettext_lazy("close or reopen"))
    def closing(self, season: Season) -> str:
        if season.is_closed:
            return format_html(
                '<a href="{}">{}</a>',
                reverse("arbiter:reopen-season", args=[season.pk]),
                _("Reopen…"),
            )
        return format_html(
            '<a href="{}">{}</a>', reverse("arbiter:close-season", args=[season.pk]), _("Close…")
        )


class ParticipantInline(LabelledTabularInline):
    """The players. Once a round has been paired everything about them is fixed here: who they
    are (the member, a guest's name: the published pairings and rankings name them), their
    places in ranking 0, groups, first rounds and start points; and players are neither added
    nor removed here: a newcomer joins through "Nieuwe speler toevoegen", which says what
    changes (issue 35: one pick in the member dropdown gave Jan de Zeeuw's 13 rounds and his
    board in a published pairing to someone else)."""

    model = Participant
    fields = ("initial_position", "member", "guest_name", "group", "joined_round", "start_points")
    extra = 0

    def get_readonly_fields(self, request, obj=None):
        return self.fields if obj is not None and obj.is_under_way else ()

    def has_add_permission(self, request, obj=None):
        return not (obj is not None and obj.is_under_way) and super().has_add_permission(
            request, obj
        )

    def has_delete_permission(self, request, obj=None):
        return not (obj is not None and obj.is_under_way) and super().has_delete_permission(
            request, obj
        )


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin):
    """A competition's Keizer settings and players. What the engine reads changed here reaches
    the standings in the worker's next pass (`services.refresh_rankings`), like a change made
    anywhere else."""

    list_display = ("__str__", *SETTING_NAMES)
    fieldsets = (
        (None, {"fields": ("season", "kind")}),
        (gettext_lazy("Keizer settings"), {"fields": SETTING_NAMES}),
        (gettext_lazy("Rating report (TRF)"), {"fields": ("rate_of_play", "chief_arbiter")}),
    )
    inlines = [ParticipantInline]
    change_form_template = "admin/competition/competition/change_form.html"  # its steps

    def get_readonly_fields(self, request, obj=None):
        # A published ranking is the club's record: once a round has been paired, the
        # settings every ranking follows from no longer change here.
        if obj is not None and obj.is_under_way:
            return ("season", "kind", *SETTING_NAMES)
        return ()

    def has_delete_permission(self, request, obj=None):
        return not (obj is not None and obj.is_under_way) and super().has_delete_permission(
            request, obj
        )

    def get_fieldsets(self, request, obj=None):
        if obj is None or not obj.is_under_way:
            return self.fieldsets
        general, (name, options), *rest = self.fieldsets
        fixed = _(
            "A round has been paired: the settings and ranking 0 are fixed, and so is who each "
            "player is, since the published pairings and rankings follow from them. A "
            'newcomer joins with "Add a newcomer".'
        )
        return (general, (name, {**options, "description": fixed}), *rest)


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


@admin.register(Round)
class RoundAdmin(HistoryAdmin):
    """The list of rounds and each round's history. A round's page (its fields, absences and
    draft) is the arbiter's (`arbiter.rounds`): the admin's change and add addresses lead there."""

    list_display = ("number", "competition", "date", "publish_at", "published_at", "results")
    list_filter = (CompetitionKindFilter, "competition")
    list_select_related = ("competition__season",)

    def get_queryset(self, request):
        return super().get_queryset(request).with_result_counts()

    @admin.display(description=gettext_lazy("results"))
    def results(self, round_: Round) -> str:
        return f"{round_.games_done}/{round_.games_total}"

    def has_delete_permission(self, request, obj=None):
        return (obj is None or not obj.is_published) and super().has_delete_permission(request, obj)


class ReadOnlyHistoryAdmin(HistoryAdmin):
    """Rows written by the competition's services only: listed, with their history."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyHistoryAdmin):
    """Games belong to their round's pairing; the list is there for each result's history."""

    list_display = ("round", "board", "white", "black", "result")
    list_filter = ("round__competition", "round__number")
    list_select_related = ("round__competition__season", "white__member", "black__member")
    object_history_template = "admin/competition/game/object_history.html"

    def history_view(self, request, object_id, extra_context=None):
        """The result's changes, and beside them every result the players entered (replaced
        ones too), with who and when."""
        self.known_key(object_id)
        entries = (
            ResultReport.history.filter(game_id=object_id)
            .select_related("participant__member", "history_user")
            .order_by("history_date", "history_id")
        )
        return super().history_view(
            request, object_id, {**(extra_context or {}), "player_entries": list(entries)}
        )


@admin.register(Absence)
class AbsenceAdmin(ReadOnlyHistoryAdmin):
    """Absences are recorded on the round's page or by a member's cancellation, where they are
    checked against the pairing and the rankings follow."""

    list_display = ("round", "participant", "reason")
    list_filter = ("round__competition", "reason")
    list_select_related = ("round__competition__season", "participant__member")


@admin.register(Ranking)
class RankingAdmin(admin.ModelAdmin):
    list_display = ("competition", "after_round", "passes", "oscillation_stop", "computed_at")
    list_filter = ("competition",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # a snapshot goes only with a recompute (`services.recompute_rankings`)


@admin.register(Page)
class PageAdmin(HistoryAdmin):
    revert_allowed = True  # a page of text: an old version is simply saved again
    list_display = ("title", "slug", "updated_at")
    prepopulated_fields = {"slug": ("title",)}
