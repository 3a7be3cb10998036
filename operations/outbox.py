"""The durable outbox: every e-mail the site sends is first a row (`OutgoingMail`), written by
Django's mail API through `OutboxBackend` (the site's `EMAIL_BACKEND`) in the transaction of the
change that causes it; the worker delivers the due rows (`deliver`) with the real backend
(`EMAIL_DELIVERY_BACKEND`: SMTP in production).

- A request never waits for, or fails on, the mail server: it only writes a row.
- Each row is sent inside its own transaction, which claims it (`SELECT … FOR UPDATE SKIP
  LOCKED` on PostgreSQL: two workers never send the same row) and marks it sent. A worker killed
  after the server accepted a message but before that commit sends that one message again on
  the next pass: at most one duplicate, of at most one message, in that rare window; never
  more, and nothing is lost.
- Where the dialogue broke decides (`operations.smtp`). Before the message's final dot was
  sent the server cannot have it: tried again with back-off (1, 2, 4 … minutes, at most an hour
  between tries), failed with the reason after `MAX_TRIES`. A 5xx reply (to MAIL, RCPT, DATA or
  the message) fails that message at once, a 4xx one tries it again later; the pass goes on
  with the next. When the reply to the whole message does not come, the server may have it:
  "maybe delivered", never sent again by itself. Failed and maybe-delivered mail is listed on
  the arbiter's start page, to be sent again (or, maybe delivered, left as sent).
- A pass stops taking rows after `DELIVERY_BUDGET`, so a slow server does not hold up the
  worker's next pass for long; after a reply that never came the waiting mail pauses for
  `PAUSE_AFTER_LOST_REPLY`, so a server that swallows replies does not stall every pass.

An own small model rather than a library: the queues that fit Django 5.2 (django-post-office,
django-mailer) bring their own sending commands and locks, where ours is the worker's pass with
rows claimed exactly once, like every other due row of the site.
"""

from __future__ import annotations

import contextlib
import enum
import smtplib
import time
from datetime import datetime, timedelta
from email.utils import format_datetime, make_msgid
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import get_connection
from django.core.mail.backends.base import BaseEmailBackend
from django.db import connection, transaction
from django.utils import timezone

from operations.models import OutgoingMail
from operations.signatures import OutgoingMessage
from operations.smtp import ReplyLost

MAX_TRIES = 8  # 1+2+4+8+16+32+60 minutes of waits: the mail server may be down for hours
PASS_LIMIT = 500  # messages a pass sends at most, so that its other work is never far off
# Seconds after which a pass takes no new row (the one on the wire is finished): a server that
# answers slowly holds up the worker's next pass by about this much, plus one message's reply.
DELIVERY_BUDGET = 30.0
KEEP_SENT = timedelta(days=30)  # sent rows are kept this long (the limits read the last hour)
# A server that left a whole message unanswered (for `EMAIL_DATA_REPLY_TIMEOUT`, ten minutes)
# gets no new message for this long: the worker's next passes (the publication at 20:00, the
# other steps) are not each held up by another such wait.
PAUSE_AFTER_LOST_REPLY = timedelta(minutes=10)
# Seconds a pass's look at a server that was away may take (`_due_when_the_server_is_back`):
# one that drops the connection unanswered holds up each pass by at most this much.
PROBE_TIMEOUT = 5


def backoff(tries: int) -> timedelta:
    """The wait before the next try after `tries` failed ones."""
    return timedelta(minutes=min(2 ** (tries - 1), 60))


class OutboxBackend(BaseEmailBackend):
    """Django's mail API writes rows instead of talking to a mail server."""

    def send_messages(self, email_messages) -> int:
        now = timezone.now()
        OutgoingMail.objects.bulk_create(
            OutgoingMail(
                created_at=now,
                next_try_at=now,
                kind=getattr(message, "kind", ""),
                recipient=(message.to or [""])[0][:254],
                subject=str(message.subject)[:300],
                message=_stored(message, now),
            )
            for message in email_messages
        )
        return len(email_messages)


def site_domain() -> str:
    return urlsplit(settings.SITE_URL).hostname or "localhost"


def _stored(message, now: datetime) -> dict:
    """The message as it will be sent, every try: its Message-ID (on the site's domain) and
    Date (the club's time) fixed when it is written."""
    headers = {
        "Message-ID": make_msgid(domain=site_domain()),
        "Date": format_datetime(timezone.localtime(now)),
        **message.extra_headers,
    }
    return {
        "from": message.from_email,
        "to": list(message.to),
        "cc": list(message.cc),
        "bcc": list(message.bcc),
        "reply_to": list(message.reply_to),
        "subject": str(message.subject),
        "body": str(message.body),
        "headers": headers,
        "alternatives": [
            [str(content), mimetype] for content, mimetype in getattr(message, "alternatives", [])
        ],
    }


def _message(row: OutgoingMail, mail_connection) -> OutgoingMessage:
    stored = row.message
    message = OutgoingMessage(
        stored["subject"],
        stored["body"],
        stored["from"],
        stored["to"],
        bcc=stored["bcc"],
        cc=stored["cc"],
        reply_to=stored["reply_to"],
        headers=stored["headers"],
        connection=mail_connection,
    )
    for content, mimetype in stored["alternatives"]:
        message.attach_alternative(content, mimetype)
    return message


def deliver(now: datetime, budget: float = DELIVERY_BUDGET) -> int:
    """Send the due rows, each claimed by this worker only and marked in its own transaction,
    until none is due or `budget` seconds have passed (one row at least); returns how many were
    sent. A failure is recorded on its row, never raised; while the server is away, or after it
    left a message unanswered, the rest waits for the next pass."""
    sent = 0
    started = time.monotonic()
    _due_when_the_server_is_back(now)
    mail_connection = get_connection(settings.EMAIL_DELIVERY_BACKEND)
    try:
        for _ in range(PASS_LIMIT):
            with transaction.atomic():
                row = _claim(now)
                if row is None:
                    break
                outcome = _send(row, mail_connection, now)
            if outcome is Outcome.MAYBE_DELIVERED:  # the next could take that long again:
                OutgoingMail.objects.due(now).update(next_try_at=now + PAUSE_AFTER_LOST_REPLY)
            if outcome in (Outcome.SERVER_AWAY, Outcome.MAYBE_DELIVERED):
                break
            sent += outcome is Outcome.SENT
            if time.monotonic() - started >= budget:
                break
    finally:
        _hang_up(mail_connection)
    OutgoingMail.objects.forget_sent_before(now - KEEP_SENT)
    return sent


# A try that could not reach the server at all (its stored reason starts with the error's
# name): only then does a server that answers a connection mean the mail can go. A server that
# broke off in the middle, or refused one message for now (4xx), keeps the back-off, so a flaky
# one does not use up a message's tries one pass after another.
UNREACHABLE = (
    r"^(ConnectionRefusedError|ConnectionResetError|TimeoutError|gaierror|OSError"
    r"|SMTPConnectError):"
)


def _due_when_the_server_is_back(now: datetime) -> None:
    """Mail that waits only because the server was away, waits for its back-off (up to an
    hour): one look per pass whether the server is back, a connection opened and closed (no
    message sent, no try counted), and when it answers, that mail is due at once (issue 38,
    finding 4: /gezond/ stayed 503 for 236 s after the server came back, and the mail waited as
    long). Only when nothing else is due: a due message is the look itself."""
    away = OutgoingMail.objects.held_up().filter(next_try_at__gt=now, last_error__regex=UNREACHABLE)
    if not away.exists() or OutgoingMail.objects.due(now).exists():  # most passes: none away
        return
    probe = get_connection(settings.EMAIL_DELIVERY_BACKEND, timeout=PROBE_TIMEOUT)
    try:
        probe.open()
    except Exception:  # still away: the next pass looks again
        return
    finally:
        _hang_up(probe)
    away.update(next_try_at=now)


@transaction.atomic
def send_again(pk: int, now: datetime) -> OutgoingMail:
    """A failed or maybe-delivered e-mail, as the arbiter asks from the start page: waiting
    again, with all its tries, from the worker's next pass on (maybe delivered, it may then
    arrive twice: the arbiter was told)."""
    row = OutgoingMail.objects.select_for_update().get(
        pk=pk, state__in=[OutgoingMail.State.FAILED, OutgoingMail.State.MAYBE_DELIVERED]
    )
    row.state, row.tries, row.next_try_at = OutgoingMail.State.WAITING, 0, now
    row.save(update_fields=["state", "tries", "next_try_at"])
    return row


@transaction.atomic
def leave_as_sent(pk: int, now: datetime) -> OutgoingMail:
    """A maybe-delivered e-mail the arbiter chooses not to send again: sent (it was, whole; the
    server's reply is what is missing), off the start page, forgotten like other sent mail."""
    row = OutgoingMail.objects.select_for_update().get(
        pk=pk, state=OutgoingMail.State.MAYBE_DELIVERED
    )
    row.state, row.sent_at = OutgoingMail.State.SENT, now
    row.save(update_fields=["state", "sent_at"])
    return row


class Outcome(enum.Enum):
    SENT = "sent"
    REFUSED = "refused"  # this message only, for good or for now: the rest goes on
    SERVER_AWAY = "server away"  # before the message ended: tried again, the rest waits
    MAYBE_DELIVERED = "maybe delivered"  # the reply to the whole message did not come


def _send(row: OutgoingMail, mail_connection, now: datetime) -> Outcome:
    message = _message(row, mail_connection)
    try:
        message.message()  # a header that cannot be written is this message's fault only
    except Exception as error:
        _failed(row, now, error, permanent=True)
        return Outcome.REFUSED
    try:
        mail_connection.open()  # once per pass: later messages reuse the connection
        message.send()
    except ReplyLost as lost:  # before the generic case: it is a disconnection too
        row.tries += 1
        row.state, row.last_error = OutgoingMail.State.MAYBE_DELIVERED, _reason(lost)
        row.save(update_fields=["tries", "state", "last_error"])
        _hang_up(mail_connection)
        return Outcome.MAYBE_DELIVERED
    except (
        smtplib.SMTPRecipientsRefused,
        smtplib.SMTPSenderRefused,
        smtplib.SMTPDataError,
    ) as refused:
        codes = _reply_codes(refused)
        if 421 in codes:  # the server is closing the connection: as if away
            _failed(row, now, refused)
            _hang_up(mail_connection)
            return Outcome.SERVER_AWAY
        _failed(row, now, refused, permanent=all(code >= 500 for code in codes))
        return Outcome.REFUSED
    except Exception as error:  # the server is away, or broke off: the rest waits too
        _failed(row, now, error)
        _hang_up(mail_connection)
        return Outcome.SERVER_AWAY
    row.tries += 1
    row.state, row.sent_at = OutgoingMail.State.SENT, now
    row.save(update_fields=["tries", "state", "sent_at"])
    return Outcome.SENT


def _reply_codes(refused: smtplib.SMTPException) -> list[int]:
    if isinstance(refused, smtplib.SMTPRecipientsRefused):
        return [code for code, _text in refused.recipients.values()]
    return [refused.smtp_code]


def _hang_up(mail_connection) -> None:
    with contextlib.suppress(Exception):  # a server that went away cannot be said goodbye to
        mail_connection.close()


def _reason(error: Exception) -> str:
    return f"{type(error).__name__}: {error}"[:500]


def _failed(row: OutgoingMail, now: datetime, error: Exception, permanent: bool = False) -> None:
    """A failed try, recorded: tried again after the back-off, or failed for good (after all
    tries, or at once when the server refuses the message with a 5xx reply)."""
    row.tries += 1
    row.last_error = _reason(error)
    if permanent or row.tries >= MAX_TRIES:
        row.state = OutgoingMail.State.FAILED
    else:
        row.next_try_at = now + backoff(row.tries)
    row.save(update_fields=["tries", "last_error", "state", "next_try_at"])


def _claim(now: datetime) -> OutgoingMail | None:
    due = OutgoingMail.objects.due(now)
    if connection.features.has_select_for_update_skip_locked:
        due = due.select_for_update(skip_locked=True)
    return due.first()
