"""What a visitor sends is checked before any view sees it: a NUL character (which no text of
ours holds, and which PostgreSQL refuses in a text column) or a whole number beyond what a
database key can be (which SQLite refuses to compare) in a query parameter or a form field
answers 400 with the site's own page; in the path, a NUL answers 400 and such a number 404.
So neither reaches a query, whatever the view does with it.
"""

from __future__ import annotations

from django.core.exceptions import SuspiciousOperation
from django.http import Http404

LARGEST_KEY = 2**63 - 1  # a database key is a signed 64-bit number


class NotText(SuspiciousOperation):
    """Answered 400 by Django (handler400: templates/400.html), logged to django.security."""


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
            raise NotText("NUL or an impossible number in the address")
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        if request.method == "POST" and unreadable(
            value for _key, values in request.POST.lists() for value in [_key, *values]
        ):
            raise NotText("NUL or an impossible number in a form")
        for value in (*args, *kwargs.values()):
            if isinstance(value, int) and not -LARGEST_KEY <= value <= LARGEST_KEY:
                raise Http404("No such number")
        return None
