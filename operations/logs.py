"""Production logs: one line per event on stdout, with the request's path and user id.

Paths that carry a secret (a calendar feed's token, a one-time link) are logged without it
(`redact`), by the site and by gunicorn's access log (`GunicornLogger`).

`RequestContextMiddleware` remembers the request being handled (a context variable, so each
request and thread sees its own); `RequestFilter` adds `path` and `user` to every record made
meanwhile ("-" outside a request); `OneLineFormatter` keeps a traceback on the same line;
`RepeatsCounted` writes the same warning or error once per ten minutes and counts its repeats
(a crawler's hundreds of refused addresses, a step of the worker failing every pass while the
database is away), saying how many with the next one it writes.
"""

from __future__ import annotations

import contextvars
import logging
import re
import threading
import time
from datetime import datetime
from zoneinfo import ZoneInfo

from gunicorn.glogging import Logger

from base.zone import CLUB_ZONE

# One clock on every line of every process (issue 38: gunicorn wrote UTC, its access lines
# +0100, Django local time without a zone): the club's, with its offset.
ZONE = ZoneInfo(CLUB_ZONE)  # settings.TIME_ZONE's, read where a refused start cannot read them


def moment(timestamp: float | None = None) -> str:
    """A log line's time: 2026-11-29 20:01:02+0100."""
    when = time.time() if timestamp is None else timestamp
    return datetime.fromtimestamp(when, ZONE).strftime("%Y-%m-%d %H:%M:%S%z")


_request = contextvars.ContextVar("request", default=None)
HEALTH_PATH = "/gezond/"  # operations.health's


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
        record.path = redact(getattr(request, "path", None) or "-")
        record.user = _user_id(request) if request is not None else "-"
        return True


# Paths that carry a secret: a member's calendar feed, the invitation's and the password reset's
# one-time links. A log line shows them with the secret left out.
SECRET_IN_PATH = re.compile(r"^(/kalender/)[^/]+(\.ics)$|^(/welkom/|/accounts/reset/)[^/]+/[^/]+/$")


def redact(path: str) -> str:
    match = SECRET_IN_PATH.match(path)
    if match is None:
        return path
    if match[1]:
        return f"{match[1]}…{match[2]}"
    return f"{match[3]}…/"


class GunicornLogger(Logger):
    """gunicorn's own logger, with the secrets in paths left out of the access log, the site's
    clock on its own lines and the access lines (`moment`), and no line for each health check
    (a container's check every 30 seconds was 122 of 139 lines); a failing check is still
    written, by the site's own log."""

    error_fmt = "%(asctime)s %(levelname)s gunicorn [%(process)d] %(message)s"

    def setup(self, cfg):
        super().setup(cfg)
        for handler in self.error_log.handlers:
            handler.setFormatter(OneLineFormatter(self.error_fmt))

    def access(self, resp, req, environ, request_time):
        if environ.get("PATH_INFO") == HEALTH_PATH and str(resp.status).startswith("200"):
            return
        super().access(resp, req, environ, request_time)

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        atoms["U"] = redact(atoms["U"])
        atoms["r"] = f"{atoms['m']} {atoms['U']} {atoms['H']}"
        atoms["t"] = moment()
        return atoms


class OneLineFormatter(logging.Formatter):
    """The record, its traceback included, on one line (newlines written as \\n), with the
    count of its repeats that were not written (`RepeatsCounted`)."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return moment(record.created)

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record).replace("\n", "\\n")
        if repeats := getattr(record, "repeats", 0):
            line += f" (and {repeats} more like it in the ten minutes before)"
        return line


class RepeatsCounted(logging.Filter):
    """The same warning or error (its logger, level and message, and the kind and line of its
    exception: `operations.reports.signature`; not the request's path) is written once per
    `PERIOD` seconds in a process; its repeats meanwhile are counted, and the next one written
    says how many there were. Below WARNING every line is written."""

    PERIOD = 600
    REMEMBERED = 1000  # kinds of lines remembered at most (the oldest is forgotten first)

    def __init__(self):
        super().__init__()
        self.seen: dict[str, tuple[float, int]] = {}
        self.lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        from operations.reports import signature  # not at import: logging is set up first

        exception = signature(record) if record.exc_info else ""
        key = f"{record.name}:{record.levelno}:{record.getMessage()}:{exception}"
        with self.lock:
            written_at, repeats = self.seen.get(key, (None, 0))
            if written_at is not None and record.created - written_at < self.PERIOD:
                self.seen[key] = (written_at, repeats + 1)
                return False
            self.seen.pop(key, None)
            self.seen[key] = (record.created, 0)
            while len(self.seen) > self.REMEMBERED:
                del self.seen[next(iter(self.seen))]
        record.repeats = repeats  # the line says so (`OneLineFormatter`); the record is as made
        return True
