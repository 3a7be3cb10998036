"""The outbox against a real SMTP server (aiosmtpd on a loopback port, tests/smtp.py): the
server stopped for an hour while a member cancels late, started again; a recipient refused;
what arrived is read back as bytes, as a member's mail program reads it."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.db.models import Q
from django.utils import timezone

from clubweek.worker import run_pass
from operations import outbox
from operations.letters import Kind, Letter, send
from operations.models import OutgoingMail
from tests.factories import cancel_late
from tests.moments import at
from tests.processes import STARTUP
from tests.smtp import HANG_UP, SILENT, Slow, larger_than_the_kernel_buffers, smtp_server

__all__ = ["smtp_server"]


def test_a_member_cancels_while_the_mail_server_is_down_and_the_forfeit_arrives_once_it_is_back(
    smtp_server, jansen_client, jansen, published_round_4
):
    smtp_server.stop()
    page = cancel_late(jansen_client, published_round_4)
    assert page.status_code == 200 and "Ronde 4" in page.content.decode()
    game = published_round_4.games.get(Q(white__member=jansen) | Q(black__member=jansen))
    opponent = (game.black if game.white.member == jansen else game.white).member.email
    for minutes in range(0, 65, 5):  # an hour down, a pass every five minutes
        with time_machine.travel(at(21) + timedelta(minutes=minutes), tick=False):
            run_pass(at(21) + timedelta(minutes=minutes))
    assert smtp_server.mailbox.arrived == []
    assert not OutgoingMail.objects.filter(state="failed").exists()
    smtp_server.start()
    for minutes in range(65, 200, 5):
        with time_machine.travel(at(21) + timedelta(minutes=minutes), tick=False):
            run_pass(at(21) + timedelta(minutes=minutes))
    [forfeit] = [m for m in smtp_server.mailbox.to(opponent) if "kan niet komen" in m["Subject"]]
    assert "Jansen" in forfeit["Subject"]
    assert "reglementair" in forfeit.get_body(("plain",)).get_content()
    assert not OutgoingMail.objects.exclude(state="sent").exists()


def test_a_refused_recipient_fails_at_once_and_the_others_arrive(smtp_server, db):
    smtp_server.mailbox.refused = {"weg@example.org"}
    send(
        [
            Letter(Kind.ARBITER, address, f"Bericht aan {address}", ["Tekst."])
            for address in ("een@example.org", "weg@example.org", "twee@example.org")
        ]
    )
    assert outbox.deliver(timezone.now()) == 2
    assert sorted(a.recipients[0] for a in smtp_server.mailbox.arrived) == [
        "een@example.org",
        "twee@example.org",
    ]
    refused = OutgoingMail.objects.get(recipient="weg@example.org")
    assert refused.state == "failed" and "550" in refused.last_error


def test_a_server_that_stops_between_two_passes_loses_nothing(smtp_server, db):
    mail.send_mail("Eerste", "tekst", None, ["een@example.org"])
    now = timezone.now()
    outbox.deliver(now)
    smtp_server.stop()
    mail.send_mail("Tweede", "tekst", None, ["twee@example.org"])
    outbox.deliver(now + timedelta(minutes=1))
    assert OutgoingMail.objects.get(subject="Tweede").tries == 1
    smtp_server.start()
    outbox.deliver(now + timedelta(minutes=3))
    assert [a.message["Subject"] for a in smtp_server.mailbox.arrived] == ["Eerste", "Tweede"]


def test_a_line_break_in_a_members_name_neither_fails_the_page_nor_the_mail(
    smtp_server, jansen_client, jansen, published_round_4
):
    jansen.name = "Jan\nJansen"
    jansen.save()
    page = cancel_late(jansen_client, published_round_4)
    assert page.status_code == 200
    outbox.deliver(at(21))
    subjects = [a.message["Subject"] for a in smtp_server.mailbox.arrived]
    assert "DSC: Jan Jansen kan niet komen, ronde 4 op donderdag 24 september" in subjects


def test_a_message_that_cannot_be_written_fails_alone_and_the_rest_goes_out(smtp_server, db):
    mail.send_mail("Kapot\nonderwerp", "tekst", None, ["een@example.org"])
    mail.send_mail("Heel", "tekst", None, ["twee@example.org"])
    assert outbox.deliver(timezone.now()) == 1
    assert [a.message["Subject"] for a in smtp_server.mailbox.arrived] == ["Heel"]
    broken = OutgoingMail.objects.get(recipient="een@example.org")
    assert broken.state == "failed" and "BadHeaderError" in broken.last_error


# Issue 35: exactly once against slow and refusing servers. The command timeout is made short
# (COMMANDS) so that a slow reply is slower than it without a long test; a try that fails before
# the end of the message (on a busy machine a command may take that long) is safe to repeat, so
# these tests deliver pass after pass until the row is no longer waiting, as the worker would.
COMMANDS = 1.0


def deliver_until_settled(start, passes=outbox.MAX_TRIES):
    """Passes an hour apart (past every back-off) until no row waits; the last pass's moment."""
    moment = start
    for number in range(passes):
        moment = start + timedelta(hours=number)
        outbox.deliver(moment)
        if not OutgoingMail.objects.filter(state="waiting").exists():
            break
    return moment


def test_a_server_that_answers_the_message_late_gets_it_once_and_the_row_is_sent(
    smtp_server, settings, db
):
    """A queueing relay behind a slow scanner keeps the message and answers the end of it only
    after more than the command timeout: the worker waits (RFC 5321 4.5.3.2.6: ten minutes)."""
    settings.EMAIL_TIMEOUT = COMMANDS
    settings.EMAIL_DATA_REPLY_TIMEOUT = STARTUP
    smtp_server.mailbox.after_data["traag@example.org"] = Slow(3 * COMMANDS)
    mail.send_mail("Indeling", "tekst", None, ["traag@example.org"])
    deliver_until_settled(timezone.now())
    row = OutgoingMail.objects.get()
    assert (row.state, smtp_server.mailbox.gave_up) == ("sent", [])
    assert list(smtp_server.mailbox.copies().values()) == [1]


@pytest.mark.parametrize("trouble", [SILENT, HANG_UP])
def test_a_message_sent_whole_but_never_answered_is_maybe_delivered_and_never_sent_again(
    smtp_server, settings, db, trouble
):
    """The server kept the message and then said nothing (within the reply's allowance), or hung
    up: it may have taken it. The row says so and waits for the arbiter; the next passes leave
    it alone and send the rest."""
    settings.EMAIL_TIMEOUT = COMMANDS
    settings.EMAIL_DATA_REPLY_TIMEOUT = COMMANDS
    smtp_server.mailbox.after_data["stil@example.org"] = trouble
    mail.send_mail("Eerste", "tekst", None, ["stil@example.org"])
    mail.send_mail("Tweede", "tekst", None, ["lid@example.org"])
    last = deliver_until_settled(timezone.now())
    for hours in range(1, 12):
        outbox.deliver(last + timedelta(hours=hours))
    row = OutgoingMail.objects.get(recipient="stil@example.org")
    assert (row.state, row.sent_at) == ("maybe", None)
    assert "after the whole message was sent" in row.last_error
    assert OutgoingMail.objects.get(recipient="lid@example.org").state == "sent"
    assert sorted(smtp_server.mailbox.copies().values()) == [1, 1]


@pytest.mark.parametrize(
    ("stage", "reply"),
    [
        ("after_data", "550 5.7.1 Message refused"),
        ("after_data", "554 5.7.1 Message refused as spam"),
        ("at_data_command", "554 5.7.1 No mail accepted from you"),
    ],
)
def test_a_message_refused_at_data_fails_at_once_and_the_next_goes_out_in_the_same_pass(
    smtp_server, db, stage, reply
):
    getattr(smtp_server.mailbox, stage)["spam@example.org"] = reply
    mail.send_mail("Eerste", "tekst", None, ["spam@example.org"])
    mail.send_mail("Tweede", "tekst", None, ["lid@example.org"])
    assert outbox.deliver(timezone.now()) == 1
    refused = OutgoingMail.objects.get(recipient="spam@example.org")
    assert (refused.state, refused.tries) == ("failed", 1)
    assert reply[:3] in refused.last_error and reply[10:] in refused.last_error
    assert [a.recipients for a in smtp_server.mailbox.arrived] == [["lid@example.org"]]


@pytest.mark.parametrize("stage", ["after_data", "at_data_command"])
def test_a_message_deferred_at_data_is_tried_again_later_and_the_next_goes_out(
    smtp_server, db, stage
):
    getattr(smtp_server.mailbox, stage)["later@example.org"] = "451 4.7.1 Try again later"
    mail.send_mail("Eerste", "tekst", None, ["later@example.org"])
    mail.send_mail("Tweede", "tekst", None, ["lid@example.org"])
    now = timezone.now()
    assert outbox.deliver(now) == 1
    deferred = OutgoingMail.objects.get(recipient="later@example.org")
    assert (deferred.state, deferred.tries) == ("waiting", 1) and "451" in deferred.last_error
    assert deferred.next_try_at == now + timedelta(minutes=1)
    getattr(smtp_server.mailbox, stage).clear()
    assert outbox.deliver(now + timedelta(minutes=1)) == 1
    assert set(OutgoingMail.objects.values_list("state", flat=True)) == {"sent"}
    assert sorted(smtp_server.mailbox.copies().values()) == [1, 1]


def test_a_server_closing_down_at_data_stops_the_pass_and_loses_nothing(smtp_server, db):
    """421 (the server closes the connection): the message is tried again, the rest waits."""
    smtp_server.mailbox.at_data_command["een@example.org"] = "421 4.3.2 Shutting down"
    mail.send_mail("Eerste", "tekst", None, ["een@example.org"])
    mail.send_mail("Tweede", "tekst", None, ["twee@example.org"])
    now = timezone.now()
    assert outbox.deliver(now) == 0
    rows = OutgoingMail.objects.order_by("pk")
    assert [(row.state, row.tries) for row in rows] == [("waiting", 1), ("waiting", 0)]
    smtp_server.mailbox.at_data_command.clear()
    assert outbox.deliver(now + timedelta(minutes=1)) == 2
    assert sorted(smtp_server.mailbox.copies().values()) == [1, 1]


@pytest.mark.parametrize("stage", ["mid_data", "at_data_command"])
def test_a_connection_lost_before_the_message_ended_is_tried_again_and_arrives_once(
    smtp_server, db, stage
):
    """The server hangs up at the DATA command, or while a message too large for the kernel's
    buffers is still being sent (its final dot never left): it cannot have taken it."""
    body = "tekst"
    if stage == "mid_data":
        body = "Regel met tekst.\n" * (larger_than_the_kernel_buffers() // 17 + 1)
        smtp_server.mailbox.mid_data.add("groot@example.org")
    else:
        smtp_server.mailbox.at_data_command["groot@example.org"] = HANG_UP
    mail.send_mail("Groot", body, None, ["groot@example.org"])
    now = timezone.now()
    assert outbox.deliver(now) == 0
    row = OutgoingMail.objects.get()
    assert (row.state, row.tries) == ("waiting", 1), row.last_error
    assert smtp_server.mailbox.arrived == []
    smtp_server.mailbox.mid_data.clear()
    smtp_server.mailbox.at_data_command.clear()
    assert outbox.deliver(now + timedelta(minutes=1)) == 1
    assert list(smtp_server.mailbox.copies().values()) == [1]
