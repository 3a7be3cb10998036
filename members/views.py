"""Pages of the members app: the best team player of a season, a member's profile."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base.links import link
from club.models import current as current_club
from members import services
from members.forms import MailChoiceForm
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
            "minimum": current_club().team_player_minimum_games,
            "lots_needed": any(row.tied_with_next for row in rows),
        },
    )


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    """The logged-in member's own details, choice of e-mails and calendar link."""
    member = Member.objects.filter(user=request.user).first()
    form = MailChoiceForm(request.POST or None, instance=member) if member else None
    if form is not None and request.method == "POST" and form.is_valid():
        services.choose_mail(member, **form.cleaned_data)
        messages.success(request, _("Your choice of e-mails has been saved."))
        return redirect("members:profile")
    context = {"member": member, "form": form}
    if member is not None:
        address = calendar_link(member)
        # webcal:// opens the phone's or computer's calendar app to subscribe.
        context.update(
            calendar_link=address, calendar_subscription="webcal:" + address.split(":", 1)[1]
        )
    return render(request, "members/profile.html", context)


@login_required
@require_POST
def renew_calendar_link(request: HttpRequest) -> HttpResponse:
    """A new secret calendar link for the logged-in member; the old one stops working."""
    member = Member.objects.filter(user=request.user).first()
    if member is None:
        raise Http404
    services.renew_calendar_token(member)
    messages.success(request, _("Your new calendar link is below; the old one no longer works."))
    return redirect(reverse("members:profile") + "#kalender")


def calendar_link(member: Member) -> str:
    """The full address of the member's own calendar feed (clubweek.feeds.member_feed)."""
    return link("clubweek:member-calendar", member.calendar_token)
