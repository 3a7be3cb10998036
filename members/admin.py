"""The arbiter's admin for members, rating lists and teams."""

from __future__ import annotations

from datetime import date

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import models
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base.admin_labels import LabelledTabularInline
from members import accounts, imports, knsb, services
from members.forms import RatingListUploadForm
from members.models import (
    ExternalGame,
    ListedRating,
    Member,
    RatingList,
    Team,
    TeamMatch,
    TeamPlayerLot,
)

SESSION_KEY = "knsb_import"


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    """The arbiter's member list: besides the details, each member's way in (no address, not
    invited, invited on …, active since …) and the invitations (`arbiter.invitations`)."""

    list_display = ("name", "knsb_number", "rating_shown", "is_active", "account")
    list_filter = ("is_active",)
    search_fields = ("name", "knsb_number", "email")
    list_select_related = ("user",)
    actions = ["invite"]
    change_list_template = "admin/members/member/change_list.html"
    fieldsets = (
        (
            None,
            {"fields": ("name", "knsb_number", "email", "is_active", "user", "estimated_rating")},
        ),
        # What the federation's rating report (TRF) carries besides the relation number.
        (
            gettext_lazy("For the federation (never shown on the site)"),
            {"fields": ("birth_date", "sex")},
        ),
    )

    def get_queryset(self, request):
        return super().get_queryset(request).with_ratings()

    def changelist_view(self, request, extra_context=None):
        may_invite = self.has_change_permission(request)
        return super().changelist_view(request, {**(extra_context or {}), "may_invite": may_invite})

    def get_readonly_fields(self, request, obj=None):
        # Accounts come from invitations; linking an existing one (a board member's staff
        # account, say) is for a superuser only.
        if request.user.is_superuser:
            return ()
        return ("user",)

    def get_list_display(self, request):
        # Who may only look sees each member's way in; who may invite gets the links too.
        if self.has_change_permission(request):
            return self.list_display
        return (*self.list_display[:-1], "account_state")

    @admin.display(description=gettext_lazy("login"))
    def account_state(self, member: Member) -> str:
        return accounts.state(member).text

    @admin.display(description=gettext_lazy("login"))
    def account(self, member: Member) -> str:
        state = accounts.state(member)
        if not state.may_invite:
            return state.text
        again = _("Invite again") if state.code == "invited" else _("Invite")
        return format_html(
            '{} <a href="{}" class="invite-link">{}</a>',
            state.text,
            reverse("arbiter:invite", args=[member.pk]),
            again,
        )

    @admin.action(description=gettext_lazy("Invite"), permissions=["change"])
    def invite(self, request, queryset):
        numbers = ",".join(str(pk) for pk in queryset.values_list("pk", flat=True))
        return redirect(reverse("arbiter:invite-all") + "?leden=" + numbers)

    @admin.display(description=gettext_lazy("rating"))
    def rating_shown(self, member: Member) -> str:
        return str(member.rating) if member.rating else "—"


class ListedRatingInline(LabelledTabularInline):
    model = ListedRating
    fields = ("member", "rating")
    readonly_fields = ("member", "rating")
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(RatingList)
class RatingListAdmin(admin.ModelAdmin):
    list_display = ("__str__", "date", "file_name", "imported_at")
    inlines = [ListedRatingInline]
    change_list_template = "admin/members/ratinglist/change_list.html"

    def has_add_permission(self, request):
        return False  # lists come in through the import

    def get_urls(self):
        return [
            path(
                "import/",
                self.admin_site.admin_view(self.import_view),
                name="members_ratinglist_import",
            ),
            *super().get_urls(),
        ]

    def import_view(self, request):
        if not self.has_view_or_change_permission(request) or not request.user.has_perm(
            "members.add_listedrating"
        ):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Import a KNSB rating list"),
        }
        if request.method == "POST" and "confirm" in request.POST:
            stored = request.session.pop(SESSION_KEY, None)
            if stored is None:
                self.message_user(
                    request, _("The preview has expired; upload again."), messages.ERROR
                )
                return redirect(reverse("admin:members_ratinglist_import"))
            parsed = knsb.RatingListFile(
                tuple(knsb.ListedPlayer(*player) for player in stored["players"]), ()
            )
            report = imports.apply(parsed, date.fromisoformat(stored["date"]), stored["file_name"])
            self.message_user(
                request,
                _("Rating list imported: %(count)s new rating(s).")
                % {"count": len(report.new_ratings)},
                messages.SUCCESS,
            )
            return redirect(reverse("admin:members_ratinglist_changelist"))
        form = RatingListUploadForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            parsed = knsb.parse(form.cleaned_data["file"].read())
            if parsed.refused:  # too large unpacked, damaged, not a rating list
                form.add_error("file", capfirst(parsed.refused) + ".")
            else:
                report = imports.preview(parsed, form.cleaned_data["date"])
                if not report.errors:
                    numbers = set(
                        Member.objects.exclude(knsb_number=None).values_list(
                            "knsb_number", flat=True
                        )
                    )
                    request.session[SESSION_KEY] = {
                        "date": form.cleaned_data["date"].isoformat(),
                        "file_name": form.cleaned_data["file"].name,
                        "players": [
                            [p.line, p.knsb_number, p.name, p.rating]
                            for p in parsed.players
                            if p.knsb_number in numbers
                        ],
                    }
                context.update(report=report)
        context.update(form=form)
        return TemplateResponse(request, "admin/members/ratinglist/import.html", context)


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ("name", "season", "league")
    list_filter = ("season", "league")
    # Tick boxes, one per member: the admin's two-list chooser marks its search icons with
    # names a screen reader may not read (axe: aria-prohibited-attr), and a team is a few ticks.
    formfield_overrides = {models.ManyToManyField: {"widget": forms.CheckboxSelectMultiple}}


class ExternalGameInline(LabelledTabularInline):
    model = ExternalGame
    fields = (
        "board",
        "member",
        "colour",
        "opponent_name",
        "opponent_rating",
        "own_rating",
        "score",
        "published_w_we",
        "w_minus_we",
    )
    readonly_fields = ("w_minus_we",)
    extra = 0

    @admin.display(description="W−We")
    def w_minus_we(self, game: ExternalGame) -> str:
        value = game.w_minus_we
        return "—" if value is None else f"{value:+.2f}".replace(".", ",")


@admin.register(TeamMatch)
class TeamMatchAdmin(admin.ModelAdmin):
    list_display = ("__str__", "team", "kind", "date")
    list_filter = ("team__season", "team", "kind")
    list_select_related = ("team",)
    inlines = [ExternalGameInline]

    def save_formset(self, request, form, formset, change):
        super().save_formset(request, form, formset, change)
        services.fill_own_ratings(list(form.instance.games.select_related("member", "match")))


@admin.register(TeamPlayerLot)
class TeamPlayerLotAdmin(admin.ModelAdmin):
    list_display = ("season", "member", "lot", "drawn_at")
    list_filter = ("season",)
    readonly_fields = ("season", "member", "lot", "drawn_at")
    actions = None
    change_list_template = "admin/members/teamplayerlot/change_list.html"

    def has_add_permission(self, request):
        return False

    def get_urls(self):
        return [
            path(
                "draw/",
                self.admin_site.admin_view(self.draw_view),
                name="members_teamplayerlot_draw",
            ),
            *super().get_urls(),
        ]

    def draw_view(self, request):
        if request.method == "POST" and request.user.has_perm("members.add_teamplayerlot"):
            season = request.POST.get("season", "")
            drawn = services.draw_lots(season)
            self.message_user(
                request,
                _("%(count)s lot(s) drawn for %(season)s.") % {"count": drawn, "season": season}
                if drawn
                else _("No ties to draw lots for in %(season)s.") % {"season": season},
            )
        return redirect(reverse("admin:members_teamplayerlot_changelist"))

    def changelist_view(self, request, extra_context=None):
        seasons = Team.objects.order_by("-season").values_list("season", flat=True).distinct()
        return super().changelist_view(request, {**(extra_context or {}), "seasons": seasons})
