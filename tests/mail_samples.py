"""One e-mail of every kind the site sends, made by the site's own code on the worked example
(round 4 published, Jansen cancels late) and delivered by the worker to a real SMTP server
(tests/smtp.py): what a member's mail program and a spam filter get."""

from __future__ import annotations

import logging

import pytest
from django.test import RequestFactory
from django.utils import timezone

from absences import mail as absence_mail
from clubweek import pairing_mail, ranking_mail, reminder_mail
from members import accounts
from members import mail as member_mail
from members.models import Member
from operations import outbox
from operations.letters import Kind
from operations.models import OutgoingMail
from tests.factories import cancel_late
from tests.smtp import Arrived, smtp_server

__all__ = ["smtp_server"]


def make_one_of_each(client, jansen, round_4) -> None:
    competition = round_4.competition
    me = competition.participants.get(member=jansen)
    Member.objects.filter(pk=jansen.pk).update(mail_ranking=True, mail_reminder=True)
    jansen.refresh_from_db()
    reminder_mail.reminder(round_4)  # before Jansen cancels
    pairing_mail.pairing(round_4)
    pairing_mail.waiting_for_results(round_4, ["Ronde 3 mist nog twee uitslagen."])
    client.force_login(jansen.user)
    cancel_late(client, round_4)  # a forfeit, and the confirmation
    absence_mail.draft_discarded(round_4)
    absence_mail.auto_cancelled(me)
    round_3 = competition.rounds.get(number=3)
    ranking_mail.new_ranking(round_3)
    ranking = competition.rankings.get(after_round=3)
    ranking.correction = "de uitslag van bord 2 was verkeerd ingevoerd"
    ranking_mail.correction(ranking)
    newcomer = Member.objects.create(name="Anne de Graaf", email="anne@example.org")
    accounts.invite([newcomer], timezone.now())
    member_mail.confirm_new_address(
        jansen, "jansen@nieuw.example.org", "https://dsc.example.org/x", timezone.now()
    )
    member_mail.password_reset(jansen, "MQ", "token-123")
    request = RequestFactory().get("/ranglijst/")
    try:
        raise ZeroDivisionError("division by zero")
    except ZeroDivisionError:
        logging.getLogger("django.request").error(
            "Internal Server Error: /ranglijst/", exc_info=True, extra={"request": request}
        )


@pytest.fixture
def one_of_each(smtp_server, settings, client, jansen, published_round_4) -> dict[str, Arrived]:
    """The first e-mail of every kind as it arrived, by kind (`operations.letters.Kind`)."""
    settings.ADMINS = [("Beheer", "beheer@example.org")]
    settings.SITE_URL = "https://dsc.example.org"
    settings.DEBUG = False
    make_one_of_each(client, jansen, published_round_4)
    assert outbox.deliver(timezone.now()) == OutgoingMail.objects.count()
    kinds = {row.message["headers"]["Message-ID"]: row.kind for row in OutgoingMail.objects.all()}
    found: dict[str, Arrived] = {}
    for arrived in smtp_server.mailbox.arrived:
        found.setdefault(kinds[arrived.message["Message-ID"]], arrived)
    assert sorted(found) == sorted(Kind), (
        f"a kind of e-mail is missing from the samples: {sorted(found)}"
    )
    return found
