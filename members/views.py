"""Pages of the members app: the best team player of a season, a member's profile."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from members import performance, services
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
            "minimum": performance.MINIMUM_GAMES,
            "lots_needed": any(row.tied_with_next for row in rows),
        },
    )


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    """The logged-in member's own details and choice of e-mails."""
    member = Member.objects.filter(user=request.user).first()
    form = MailChoiceForm(request.POST or None, instance=member) if member else None
    if form is not None and request.method == "POST" and form.is_valid():
        services.choose_mail(member, **form.cleaned_data)
        messages.success(request, _("Your choice of e-mails has been saved."))
        return redirect("members:profile")
    return render(request, "members/profile.html", {"member": member, "form": form})
