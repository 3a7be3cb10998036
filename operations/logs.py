"""Production logs: one line per event on stdout, with the request's path and user id.

`RequestContextMiddleware` remembers the request being handled (a context variable, so each
request and thread sees its own); `RequestFilter` adds `path` and `user` to every record made
meanwhile ("-" outside a request); `OneLineFormatter` keeps a traceback on the same line.
"""

from __future__ import annotations

import contextvars
import logging

_request = contextvars.ContextVar("request", default=None)


class RequestContextMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = _request.set(request)
        try:
            return self.get_response(request)
        finally:
            _request.reset(token)


def _user_id(request) -> str:
    """The user's id, read only when a record is made (no session is loaded otherwise)."""
    try:
        user = getattr(request, "user", None)
        return str(user.pk) if user is not None and user.is_authenticated else "-"
    except Exception:  # a log line must not fail because the session cannot be read
        return "?"


class RequestFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None) or _request.get()
        record.path = getattr(request, "path", None) or "-"
        record.user = _user_id(request) if request is not None else "-"
        return True


class OneLineFormatter(logging.Formatter):
    """The record, its traceback included, on one line (newlines written as \\n)."""

    def format(self, record: logging.LogRecord) -> str:
        return super().format(record).replace("\n", "\\n")
