"""The club's logo at /logo/ (`club.logo`), for every page's menu."""

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from base.page_cache import public_page
from club.models import Club, current


@require_safe
@public_page
def logo(request: HttpRequest) -> HttpResponse:
    club = current()
    if not club.logo_type:
        raise Http404
    data = Club.objects.values_list("logo", flat=True).get(pk=club.pk)
    response = HttpResponse(bytes(data), content_type=club.logo_type)
    # Opened on its own, an SVG runs nothing and loads nothing (in <img> it never does).
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    response["X-Content-Type-Options"] = "nosniff"
    return response
