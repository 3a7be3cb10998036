"""Error reports to ADMINS without storms: the same error (its kind and the line it came from)
is reported at most once per ten minutes, and the report says how often it happened since the
one before. The reports' clock lives in the "reports" cache (files every process shares), not in
the database, so it keeps counting while the database is what fails.

A report is a letter of the outbox like every other e-mail; when the database cannot take the
row (an outage), it goes straight to the mail server instead: that is when it matters most.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
import traceback

from django.conf import settings
from django.core.cache import caches
from django.core.mail import get_connection
from django.db import DatabaseError, transaction
from django.db.transaction import TransactionManagementError
from django.utils.log import AdminEmailHandler
from django.utils.translation import gettext as _

PERIOD = 600  # seconds: the same error is reported at most once in this time


def signature(record: logging.LogRecord) -> str:
    """What makes two errors the same: the exception's kind and the line it was raised on, or
    the log message's template when there is no exception."""
    if record.exc_info and record.exc_info[1] is not None:
        error = record.exc_info[1]
        frames = traceback.extract_tb(error.__traceback__)
        where = f"{frames[-1].filename}:{frames[-1].lineno}" if frames else ""
        return f"{type(error).__module__}.{type(error).__qualname__}@{where}"
    return f"{record.name}:{record.msg}"


def occurrences(key: str, now: float) -> int | None:
    """None when this error was reported less than `PERIOD` ago (it is counted for the next
    report); otherwise how many times it happened since the last report, this time included."""
    cache = caches["reports"]
    cache_key = "error:" + hashlib.sha256(key.encode()).hexdigest()[:32]
    reported_at, since = cache.get(cache_key, (None, 0))
    if reported_at is not None and now - reported_at < PERIOD:
        cache.set(cache_key, (reported_at, since + 1))
        return None
    cache.set(cache_key, (now, 0))
    return since + 1


class GroupedAdminEmailHandler(AdminEmailHandler):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._report = threading.local()  # the count of the report being made, per thread

    def emit(self, record: logging.LogRecord) -> None:
        if not settings.ADMINS:
            return
        count = occurrences(signature(record), time.time())
        if count is None:
            return
        self._report.count = count
        super().emit(record)

    def format_subject(self, subject: str) -> str:
        count = getattr(self._report, "count", 1)
        words = (
            _("Error on the site")
            if count == 1
            else _("Error on the site (%(count)s×)") % {"count": count}
        )
        return super().format_subject(f"{words}: {subject}")[:250]

    def send_mail(self, subject: str, message: str, *args, **kwargs) -> None:
        count = getattr(self._report, "count", 1)
        preface = (
            _(
                "This error happened %(count)s times since the previous report (at most one "
                "report per ten minutes for the same error)."
            )
            % {"count": count}
            if count > 1
            else _("At most one report per ten minutes is sent for the same error.")
        )
        from operations import letters  # not at import: logging is set up before the models
        from operations.letters import Kind, Letter

        reports = [
            Letter(Kind.ERROR, address, subject, [preface, message])
            for _name, address in settings.ADMINS
        ]
        try:
            with transaction.atomic():
                letters.send(reports)
        except (DatabaseError, TransactionManagementError):  # straight to the mail server
            connection = get_connection(settings.EMAIL_DELIVERY_BACKEND, fail_silently=True)
            connection.send_messages([letters.message(report) for report in reports])
