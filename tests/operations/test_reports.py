"""No storms of error mail (issue 25, point 5): the same error is reported at most once per ten
minutes, the next report counts the ones in between; another error is reported at once; while
the database is down the report goes straight to the mail server, once."""

import logging
import sys
import time
from unittest import mock

import pytest
from django.core import mail
from django.db import OperationalError
from django.test import Client, override_settings

from operations import reports
from operations.letters import Kind

ADMINS = [("Beheer DSC", "beheer@example.org")]
LOCMEM = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture
def at_minute():
    """The reports' clock, set by the test (minutes from now)."""
    start = time.time()
    with mock.patch.object(reports.time, "time") as clock:
        clock.return_value = start
        yield lambda minutes: setattr(clock, "return_value", start + 60 * minutes)


@override_settings(ROOT_URLCONF="tests.operations.failing_urls", ADMINS=ADMINS)
def test_sixty_failing_requests_give_one_report_and_the_next_one_counts_them(db, at_minute):
    client = Client(raise_request_exception=False)
    for _ in range(60):
        assert client.get("/kapot/?seizoen=x").status_code == 500
    (first,) = mail.outbox
    assert first.subject.startswith("DSC: Fout op de site: ") and "/kapot/" in first.subject
    at_minute(9)
    client.get("/kapot/")
    assert len(mail.outbox) == 1
    at_minute(11)
    client.get("/kapot/")
    second = mail.outbox[1]
    assert second.subject.startswith("DSC: Fout op de site (61×): ")
    assert "61 keer voor sinds het vorige bericht" in second.body


@override_settings(ROOT_URLCONF="tests.operations.failing_urls", ADMINS=ADMINS)
def test_a_different_error_is_reported_at_once(db):
    client = Client(raise_request_exception=False)
    client.get("/kapot/")
    client.get("/kapot/")
    try:
        {}["missing"]
    except KeyError:
        logging.getLogger("django.request").error("Internal Server Error: /x/", exc_info=True)
    assert [m.subject.split(": ", 2)[1] for m in mail.outbox] == ["Fout op de site"] * 2
    assert "KeyError" in mail.outbox[1].body


@override_settings(ADMINS=ADMINS, EMAIL_DELIVERY_BACKEND=LOCMEM)
def test_while_the_database_is_down_the_report_goes_straight_to_the_mail_server(db):
    """An outage: the outbox cannot take the row, so the report is sent directly, once per
    ten minutes however many requests fail."""
    handler = reports.GroupedAdminEmailHandler()
    with mock.patch("operations.letters.send", side_effect=OperationalError("server closed")):
        for _ in range(837):
            try:
                raise OperationalError("connection refused")
            except OperationalError:
                record = logging.LogRecord(
                    "django.request",
                    logging.ERROR,
                    __file__,
                    1,
                    "Internal Server Error: %s",
                    ("/ranglijst/",),
                    sys.exc_info(),
                )
                handler.emit(record)
    (sent,) = mail.outbox
    assert sent.to == ["beheer@example.org"] and sent.kind == Kind.ERROR
    assert "OperationalError" in sent.body
