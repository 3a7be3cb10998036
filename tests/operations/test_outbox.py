"""The durable outbox (issue 25, point 1): every e-mail is first a row written in the change's
own transaction; the worker sends it, tries again with back-off when the mail server is away,
sends each row once, and fails a row for good only after many tries, with the reason."""

import smtplib
from datetime import timedelta

import pytest
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.db import transaction
from django.utils import timezone

from operations import outbox
from operations.models import OutgoingMail
from operations.smtp import ReplyLost
from tests.races import at_once, errors_of, needs_row_locks

HERE = "tests.operations.test_outbox"
LOCMEM = "django.core.mail.backends.locmem.EmailBackend"


class ServerAway(BaseEmailBackend):
    """A mail server that cannot be reached: no connection, no message."""

    def open(self):
        raise ConnectionRefusedError(111, "Connection refused")

    def send_messages(self, messages):
        raise ConnectionRefusedError(111, "Connection refused")


class LosesTheReply(BaseEmailBackend):
    """A mail server that took the whole message and never answered (the reply's wait ran out)."""

    def send_messages(self, messages):
        raise ReplyLost("no reply to the end of the message")


class RefusesOne(BaseEmailBackend):
    """A mail server that refuses one recipient (for good, 550, or for now, 450) and takes the
    rest (into locmem's outbox)."""

    code = 550

    def send_messages(self, messages):
        for message in messages:
            if "weg@example.org" in message.to:
                raise smtplib.SMTPRecipientsRefused({"weg@example.org": (self.code, b"no user")})
        mail.outbox.extend(messages)
        return len(messages)


class RefusesOneForNow(RefusesOne):
    code = 450


@pytest.fixture
def through_the_outbox(settings, db):
    settings.EMAIL_BACKEND = "operations.outbox.OutboxBackend"
    settings.EMAIL_DELIVERY_BACKEND = LOCMEM
    return settings


def test_an_email_is_a_row_of_its_changes_transaction(through_the_outbox, mailoutbox):
    with pytest.raises(RuntimeError), transaction.atomic():
        mail.send_mail("Weg", "Niet verstuurd", None, ["lid@example.org"])
        raise RuntimeError("the change is rolled back")
    assert not OutgoingMail.objects.exists()
    mail.send_mail("Indeling", "Bord 1", None, ["lid@example.org"])
    row = OutgoingMail.objects.get()
    assert row.state == "waiting" and row.subject == "Indeling" and mailoutbox == []


def test_the_worker_sends_each_row_once(through_the_outbox, mailoutbox):
    mail.send_mail("Indeling", "Bord 1", None, ["lid@example.org"])
    now = timezone.now()
    assert outbox.deliver(now) == 1
    assert outbox.deliver(now) == 0
    [sent] = mailoutbox
    assert (sent.subject, sent.body, sent.to) == ("Indeling", "Bord 1", ["lid@example.org"])
    assert OutgoingMail.objects.get().state == "sent"


def test_nothing_is_lost_while_the_mail_server_is_away(through_the_outbox, mailoutbox):
    for number in range(3):
        mail.send_mail(f"Bericht {number}", "tekst", None, [f"lid{number}@example.org"])
    now = timezone.now()
    through_the_outbox.EMAIL_DELIVERY_BACKEND = f"{HERE}.ServerAway"
    assert outbox.deliver(now) == 0
    first = OutgoingMail.objects.order_by("pk").first()
    assert first.tries == 1 and "Connection refused" in first.last_error
    assert first.next_try_at == now + timedelta(minutes=1)
    # The rest of the batch waited with it: one try per pass while the server is away.
    assert list(OutgoingMail.objects.values_list("tries", flat=True).order_by("pk")) == [1, 0, 0]
    for minutes in range(1, 60):  # an hour away, a pass every minute
        outbox.deliver(now + timedelta(minutes=minutes))
    assert not OutgoingMail.objects.filter(state="failed").exists()
    through_the_outbox.EMAIL_DELIVERY_BACKEND = LOCMEM  # back
    outbox.deliver(now + timedelta(hours=2))
    assert sorted(m.subject for m in mailoutbox) == ["Bericht 0", "Bericht 1", "Bericht 2"]
    assert set(OutgoingMail.objects.values_list("state", flat=True)) == {"sent"}


def test_a_row_fails_for_good_only_after_all_tries_with_the_reason(through_the_outbox):
    mail.send_mail("Indeling", "Bord 1", None, ["lid@example.org"])
    through_the_outbox.EMAIL_DELIVERY_BACKEND = f"{HERE}.ServerAway"
    moment = timezone.now()
    for _ in range(outbox.MAX_TRIES):
        outbox.deliver(moment)
        moment += timedelta(hours=1)
    row = OutgoingMail.objects.get()
    assert row.state == "failed" and row.tries == outbox.MAX_TRIES
    assert "ConnectionRefusedError" in row.last_error


@pytest.mark.parametrize(
    ("server", "state"), [("RefusesOne", "failed"), ("RefusesOneForNow", "waiting")]
)
def test_a_refused_recipient_fails_that_message_only(through_the_outbox, mailoutbox, server, state):
    """A 5xx refusal fails the message at once (the address does not exist); a 4xx one is
    tried again; the other messages go out either way."""
    mail.send_mail("Eén", "tekst", None, ["weg@example.org"])
    mail.send_mail("Twee", "tekst", None, ["lid@example.org"])
    through_the_outbox.EMAIL_DELIVERY_BACKEND = f"{HERE}.{server}"
    assert outbox.deliver(timezone.now()) == 1
    assert [m.subject for m in mailoutbox] == ["Twee"]
    refused = OutgoingMail.objects.get(subject="Eén")
    assert refused.state == state and "no user" in refused.last_error


def test_after_a_lost_reply_the_mail_pauses_instead_of_stalling_every_pass(
    through_the_outbox, mailoutbox
):
    """Each lost reply costs a pass ten minutes (RFC 5321's wait for it): the next message is
    not tried for ten minutes, so the passes in between do their other work at once."""
    for number in range(3):
        mail.send_mail(f"Bericht {number}", "tekst", None, [f"lid{number}@example.org"])
    now = timezone.now()
    through_the_outbox.EMAIL_DELIVERY_BACKEND = f"{HERE}.LosesTheReply"
    assert outbox.deliver(now) == 0
    states = list(OutgoingMail.objects.order_by("pk").values_list("state", "tries"))
    assert states == [("maybe", 1), ("waiting", 0), ("waiting", 0)]
    assert outbox.deliver(now + timedelta(minutes=9)) == 0  # nothing tried: no stall
    assert OutgoingMail.objects.filter(state="waiting", tries=0).count() == 2
    through_the_outbox.EMAIL_DELIVERY_BACKEND = LOCMEM  # the server answers again
    assert outbox.deliver(now + outbox.PAUSE_AFTER_LOST_REPLY) == 2
    assert sorted(m.subject for m in mailoutbox) == ["Bericht 1", "Bericht 2"]


def test_a_pass_takes_no_new_row_once_its_time_is_spent(through_the_outbox, mailoutbox):
    """A slow server holds up the worker's next pass by one budget, not by the whole outbox."""
    for number in range(3):
        mail.send_mail(f"Bericht {number}", "tekst", None, [f"lid{number}@example.org"])
    now = timezone.now()
    assert outbox.deliver(now, budget=0) == 1  # spent at once: the first row only
    assert outbox.deliver(now, budget=0) == 1
    assert [m.subject for m in mailoutbox] == ["Bericht 0", "Bericht 1"]
    assert outbox.deliver(now) == 1
    assert set(OutgoingMail.objects.values_list("state", flat=True)) == {"sent"}


@needs_row_locks
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("trial", range(5))
def test_two_workers_at_once_send_each_row_once(settings, mailoutbox, trial):
    settings.EMAIL_BACKEND = "operations.outbox.OutboxBackend"
    settings.EMAIL_DELIVERY_BACKEND = LOCMEM
    for number in range(120):  # more than two batches
        mail.send_mail(f"Bericht {number}", "tekst", None, [f"lid{number}@example.org"])

    def as_worker():
        return outbox.deliver(timezone.now())

    outcomes = at_once(as_worker, as_worker)
    assert errors_of(outcomes) == []
    assert sum(sent for sent, _error in outcomes) == 120
    assert sorted(m.subject for m in mailoutbox) == sorted(f"Bericht {n}" for n in range(120))
    assert set(OutgoingMail.objects.values_list("state", flat=True)) == {"sent"}


def test_sent_mail_is_forgotten_after_thirty_days_failed_mail_is_kept(through_the_outbox):
    mail.send_mail("Verstuurd", "tekst", None, ["lid@example.org"])
    mail.send_mail("Mislukt", "tekst", None, ["weg@example.org"])
    now = timezone.now()
    through_the_outbox.EMAIL_DELIVERY_BACKEND = f"{HERE}.RefusesOne"
    outbox.deliver(now)
    outbox.deliver(now + timedelta(days=30))
    assert set(OutgoingMail.objects.values_list("subject", flat=True)) == {"Verstuurd", "Mislukt"}
    outbox.deliver(now + timedelta(days=30, seconds=1))
    assert list(OutgoingMail.objects.values_list("subject", flat=True)) == ["Mislukt"]
