"""The calendar feeds: the club's evenings for anyone, and a member's own behind a secret link.

The club's feed is a public page (the same for everybody, served from the page cache). A
member's feed is found only by its token (a calendar app has no session) and is never marked
public, so no copy of it is ever stored or handed to anyone else; an unknown or renewed token
is a 404.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.views.decorators.http import require_safe

from base.page_cache import public_page
from clubweek import calendar
from competition.spreadsheets import download_prefix
from members.models import Member


@require_safe
@public_page
def club_feed(request: HttpRequest) -> HttpResponse:
    return _ics(calendar.club_calendar(timezone.now()), f"{download_prefix()}.ics")


@require_safe
def member_feed(request: HttpRequest, token: str) -> HttpResponse:
    member = get_object_or_404(Member, calendar_token=token)
    response = _ics(
        calendar.member_calendar(member, timezone.now()), f"{download_prefix()}-persoonlijk.ics"
    )
    # Personal: never kept by a proxy or shown in a search engine.
    response["Cache-Control"] = "private, no-store"
    response["X-Robots-Tag"] = "noindex"
    return response


def _ics(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=calendar.MEDIA_TYPE)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
