"""E-mail that did not arrive, on the arbiter's start page (issue 25, point 1): while the mail
server does not take the mail, a warning; an e-mail that failed for good, with the reason and
a button that sends it again. An e-mail that may have arrived (issue 35: sent whole, the reply
never came) with what that means, sent again or left as sent as the arbiter chooses."""

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from operations import outbox
from operations.models import OutgoingMail
from tests.smtp import HANG_UP, smtp_server

__all__ = ["smtp_server"]

START = reverse("admin:index")


@pytest.fixture
def through_the_outbox(settings):
    settings.EMAIL_BACKEND = "operations.outbox.OutboxBackend"
    settings.EMAIL_DELIVERY_BACKEND = "tests.operations.test_outbox.RefusesOne"
    return settings


def test_a_failed_email_shows_its_reason_and_is_sent_again_from_the_start_page(
    through_the_outbox, arbiter_client, round_4, mailoutbox
):
    mail.send_mail("DSC: je indeling", "Bord 3", None, ["weg@example.org"])
    outbox.deliver(timezone.now())
    page = arbiter_client.get(START).content.decode()
    assert "E-mails die niet aankwamen" in page
    assert "weg@example.org: DSC: je indeling" in page and "no user" in page
    row = OutgoingMail.objects.get()
    assert f'action="{reverse("arbiter:send-mail-again", args=[row.pk])}"' in page

    done = arbiter_client.post(reverse("arbiter:send-mail-again", args=[row.pk]), follow=True)
    assert "De e-mail aan weg@example.org gaat opnieuw weg" in done.content.decode()
    row.refresh_from_db()
    assert (row.state, row.tries) == ("waiting", 0)
    assert "E-mails die niet aankwamen" not in done.content.decode()
    through_the_outbox.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert outbox.deliver(timezone.now()) == 1
    assert [m.to for m in mailoutbox] == [["weg@example.org"]]


def test_mail_the_server_does_not_take_is_a_warning_on_the_start_page(
    settings, arbiter_client, round_4
):
    settings.EMAIL_BACKEND = "operations.outbox.OutboxBackend"
    settings.EMAIL_DELIVERY_BACKEND = "tests.operations.test_outbox.ServerAway"
    mail.send_mail("Een", "tekst", None, ["een@example.org"])
    mail.send_mail("Twee", "tekst", None, ["twee@example.org"])
    outbox.deliver(timezone.now())
    page = arbiter_client.get(START).content.decode()
    assert "2 e-mails wachten sinds" in page and "de mailserver neemt ze niet aan" in page


def test_only_the_arbiter_sends_an_email_again(through_the_outbox, client, django_user_model):
    mail.send_mail("Een", "tekst", None, ["weg@example.org"])
    outbox.deliver(timezone.now())
    row = OutgoingMail.objects.get()
    staff = django_user_model.objects.create_user("bestuur", password="x", is_staff=True)
    client.force_login(staff)
    assert client.post(reverse("arbiter:send-mail-again", args=[row.pk])).status_code == 403
    row.refresh_from_db()
    assert row.state == "failed"


@pytest.fixture
def maybe_delivered(smtp_server, round_4):
    """An e-mail the server kept and then hung up on without a reply: it may have arrived."""
    smtp_server.mailbox.after_data["stil@example.org"] = HANG_UP
    mail.send_mail("DSC: je indeling", "Bord 3", None, ["stil@example.org"])
    outbox.deliver(timezone.now())
    smtp_server.mailbox.after_data.clear()
    return OutgoingMail.objects.get()


def test_a_mail_that_may_have_arrived_is_shown_with_what_it_means_and_both_choices(
    maybe_delivered, arbiter_client
):
    page = arbiter_client.get(START).content.decode()
    assert "E-mails die mogelijk zijn aangekomen" in page
    assert "Waarschijnlijk is hij aangekomen; hij wordt niet vanzelf opnieuw verstuurd" in page
    assert "hij kan dan twee keer aankomen" in page
    assert "stil@example.org: DSC: je indeling" in page and "ReplyLost" in page
    assert "E-mails die niet aankwamen" not in page
    for name in ("send-mail-again", "leave-mail-as-sent"):
        assert f'action="{reverse(f"arbiter:{name}", args=[maybe_delivered.pk])}"' in page


def test_a_mail_that_may_have_arrived_is_sent_again_only_when_the_arbiter_asks(
    maybe_delivered, arbiter_client, smtp_server
):
    later = timezone.now() + timedelta(hours=1)
    assert outbox.deliver(later) == 0  # never by itself
    done = arbiter_client.post(
        reverse("arbiter:send-mail-again", args=[maybe_delivered.pk]), follow=True
    )
    assert "De e-mail aan stil@example.org gaat opnieuw weg" in done.content.decode()
    assert "E-mails die mogelijk zijn aangekomen" not in done.content.decode()
    assert outbox.deliver(later) == 1
    assert list(smtp_server.mailbox.copies().values()) == [2]  # the one chosen duplicate


def test_a_mail_that_may_have_arrived_is_left_as_sent_when_the_arbiter_says_so(
    maybe_delivered, arbiter_client, smtp_server
):
    done = arbiter_client.post(
        reverse("arbiter:leave-mail-as-sent", args=[maybe_delivered.pk]), follow=True
    )
    page = done.content.decode()
    assert "De e-mail aan stil@example.org wordt niet opnieuw verstuurd." in page
    assert "E-mails die mogelijk zijn aangekomen" not in page
    maybe_delivered.refresh_from_db()
    assert maybe_delivered.state == "sent"
    assert outbox.deliver(timezone.now() + timedelta(hours=1)) == 0
    assert list(smtp_server.mailbox.copies().values()) == [1]
    again = arbiter_client.post(
        reverse("arbiter:leave-mail-as-sent", args=[maybe_delivered.pk]), follow=True
    )
    assert "Die e-mail wacht niet meer op een besluit." in again.content.decode()
