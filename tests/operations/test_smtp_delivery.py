"""The outbox against a real SMTP server (aiosmtpd on a loopback port, tests/smtp.py): the
server stopped for an hour while a member cancels late, started again; a recipient refused;
what arrived is read back as bytes, as a member's mail program reads it."""

from datetime import timedelta

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
from tests.smtp import smtp_server

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
    assert "DSC: Jan Jansen kan niet komen, ronde 4 op 24-09-2026" in subjects


def test_a_message_that_cannot_be_written_fails_alone_and_the_rest_goes_out(smtp_server, db):
    mail.send_mail("Kapot\nonderwerp", "tekst", None, ["een@example.org"])
    mail.send_mail("Heel", "tekst", None, ["twee@example.org"])
    assert outbox.deliver(timezone.now()) == 1
    assert [a.message["Subject"] for a in smtp_server.mailbox.arrived] == ["Heel"]
    broken = OutgoingMail.objects.get(recipient="een@example.org")
    assert broken.state == "failed" and "BadHeaderError" in broken.last_error
