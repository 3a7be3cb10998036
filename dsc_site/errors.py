"""The page of an error on our side (500), with the club's name when it can be read: from the
request's club if it was read already, else the row, else (the database down) the club as the
environment describes it (`club.current`). Nothing else here needs the database."""

from django.http import HttpRequest, HttpResponseServerError
from django.template.loader import render_to_string

from club.models import current as current_club


def server_error(request: HttpRequest) -> HttpResponseServerError:
    try:
        club = current_club()
    except Exception:  # whatever failed before: the error page itself must not fail
        club = None
    return HttpResponseServerError(render_to_string("500.html", {"club": club}))
