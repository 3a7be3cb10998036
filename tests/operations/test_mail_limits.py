"""No storms to one address (issue 25, point 5): password resets and invitations to one
address, at most three an hour; the reset form answers the same either way, the arbiter is told
why an invitation waits."""

from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from members import accounts
from members.models import Member
from operations.models import OutgoingMail


@pytest.fixture
def through_the_outbox(settings):
    settings.EMAIL_BACKEND = "operations.outbox.OutboxBackend"


def resets_to(address: str) -> int:
    return OutgoingMail.objects.filter(kind="password-reset", recipient=address).count()


def test_twenty_reset_requests_send_three_mails_and_answer_the_same_each_time(
    through_the_outbox, client, jansen
):
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        answers = {
            (r.status_code, r["Location"])
            for r in (
                client.post(reverse("password_reset"), {"email": "jansen@example.org"})
                for _ in range(20)
            )
        }
    assert answers == {(302, reverse("password_reset_done"))}
    assert resets_to("jansen@example.org") == 3
    with time_machine.travel(start + timedelta(minutes=61), tick=False):
        client.post(reverse("password_reset"), {"email": "JANSEN@example.org"})
    assert resets_to("jansen@example.org") == 4  # an hour later, one more may go


def test_a_fourth_invitation_within_the_hour_is_refused_with_the_reason_and_changes_nothing(
    through_the_outbox, db
):
    member = Member.objects.create(name="Anne de Graaf", email="anne@example.org")
    now = timezone.now()

    def invite(minutes: int) -> int:
        with time_machine.travel(now + timedelta(minutes=minutes), tick=False):
            return accounts.invite([member], now + timedelta(minutes=minutes))

    for minute in range(3):
        assert invite(minute) == 1
    member.refresh_from_db()
    invited_at = member.invited_at
    with pytest.raises(accounts.InvitationRefused) as refused:
        invite(10)
    assert refused.value.messages == [
        "Anne de Graaf is het afgelopen uur al 3 keer uitgenodigd: probeer het later opnieuw."
    ]
    member.refresh_from_db()
    assert member.invited_at == invited_at
    assert invite(61) == 1
