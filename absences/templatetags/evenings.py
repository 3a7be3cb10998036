"""`{% next_evening %}`: the logged-in member's next club evening at a glance (registered or
not, board, colour and opponent once published, the deadline), for the home page and the
member's own player page. Nothing for visitors, who get the cached pages."""

from __future__ import annotations

from django import template
from django.utils import timezone

from absences import services
from members.models import Member

register = template.Library()


@register.inclusion_tag("absences/_next_evening.html", takes_context=True)
def next_evening(context, only_for_member: int | None = None) -> dict:
    """The panel; with `only_for_member`, only when that member is the one logged in."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    member = Member.objects.filter(user=user).first()
    if member is None or (only_for_member is not None and member.pk != only_for_member):
        return {}
    now = context.get("now") or timezone.now()
    if closing := services.season_closing(now):
        return {"closing": closing, "shown": True}
    # An evening whose games have begun is not "next": its game, with the result to enter, is
    # on the page already (competition.views.own_games), where this panel repeated it and still
    # offered to cancel (issue 37). The panel moves on to the evening after it.
    evenings = [
        evening
        for evening in services.coming_evenings(member, now)
        if not evening.round.games_started(now)
    ]
    return {"evening": evenings[0] if evenings else None, "shown": True}
