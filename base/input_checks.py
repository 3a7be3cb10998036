"""What a visitor sends is checked before any view sees it: a NUL character (which no text of
ours holds, and which PostgreSQL refuses in a text column) or a whole number beyond what a
database key can be (which SQLite refuses to compare) in a query parameter or a form field
answers 400 with the site's own page; in the path, a NUL answers 400 and such a number 404.
So neither reaches a query, whatever the view does with it.

A refusal is one WARNING line without a traceback (`refused ...`, with the path); a crawler
that sends hundreds gets its repeats counted, not written each time (the log's
`operations.logs.RepeatsCounted`). Before, each was an ERROR with a traceback from Django's
handling of a SuspiciousOperation: 674 lines from one crawl.
"""

from __future__ import annotations

import logging

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

LARGEST_KEY = 2**63 - 1  # a database key is a signed 64-bit number

logger = logging.getLogger(__name__)


def refused(request: HttpRequest, where: str) -> HttpResponse:
    """The site's own 400 page, and one line in the log instead of Django's "Bad Request"."""
    logger.warning("refused: a NUL or an impossible number in the %s", where)
    response = render(request, "400.html", status=400)
    response._has_been_logged = True
    return response


def unreadable(values) -> bool:
    return any("\x00" in value or too_large(value) for value in values)


def too_large(value: str) -> bool:
    digits = value.strip().lstrip("+-")
    return len(digits) >= 19 and digits.isdigit() and int(digits) > LARGEST_KEY


class InputChecksMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "\x00" in request.path or unreadable(
            value for _key, values in request.GET.lists() for value in [_key, *values]
        ):
            return refused(request, "address")
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        if request.method == "POST" and unreadable(
            value for _key, values in request.POST.lists() for value in [_key, *values]
        ):
            return refused(request, "form")
        for value in (*args, *kwargs.values()):
            if isinstance(value, int) and not -LARGEST_KEY <= value <= LARGEST_KEY:
                raise Http404("No such number")
        return None
