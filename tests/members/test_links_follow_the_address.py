"""Links and resets follow the member's current address (issue 35, finding 6): a new password's
link lives 3 days and dies when the address changes; an invitation lives 14 days and dies with
the address too; the links without a password ("Ik kan niet komen", "Ik kom toch", "Uitslag
doorgeven", the one-click "uitzetten") sent to an earlier address stop working once it changed,
with a page that says what to do instead."""

import re
from datetime import datetime, timedelta
from urllib.parse import urlsplit

import pytest
import time_machine
from django.core import mail, signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from absences.models import Registration
from competition.models import ResultReport
from members import accounts, links, unsubscribe
from members.models import Member
from tests.moments import AMSTERDAM, EVENING_4, at

# A moment with no change of summer time in the 14 days after it (Django's tokens count in the
# machine's local time).
MADE = datetime(2026, 11, 2, 12, 0, tzinfo=AMSTERDAM)
NEW_ADDRESS = reverse("members:new-address")


def path_of(address: str) -> str:
    parts = urlsplit(address)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def moves(member_client, new_address: str) -> None:
    """The member changes their address on the profile and follows the confirmation."""
    response = member_client.post(NEW_ADDRESS, {"email": new_address})
    assert response.status_code == 302
    confirmation = re.search(r"https?://\S+/profiel/e-mail/bevestigen/\S+", last_body())[0]
    assert Client().post(path_of(confirmation)).status_code == 200


def last_body() -> str:
    """The newest e-mail's text (the tests ask for pytest-django's `mailoutbox`)."""
    return mail.outbox[-1].body


def reset_link(address: str) -> str:
    """A new password asked for `address` as a person does; the link the worker mails."""
    Client().post(reverse("password_reset"), {"email": address})
    accounts.answer_reset_requests(timezone.now())  # the worker's step
    return path_of(re.search(r"https?://\S+/accounts/reset/\S+/", last_body())[0])


def invitation_link() -> str:
    return path_of(re.search(r"https?://\S+/welkom/\S+/", last_body())[0])


def offers_a_new_password(path: str) -> bool:
    """Whether the link's page (followed as a fresh visitor) offers the form."""
    page = Client().get(path, follow=True).content.decode()
    offered = 'name="new_password1"' in page
    if not offered:
        assert "werkt niet meer" in page
    return offered


def test_a_reset_link_dies_when_the_address_changes(jansen_client, jansen, mailoutbox):
    link = reset_link("jansen@example.org")
    assert offers_a_new_password(link)
    moves(jansen_client, "jan.nieuw@example.org")
    assert not offers_a_new_password(link)
    page = Client().get(link, follow=True).content.decode()
    assert "of je e-mailadres is sindsdien gewijzigd" in page
    assert offers_a_new_password(reset_link("jan.nieuw@example.org"))  # the new address's works


def test_a_reset_link_lives_three_days(jansen, mailoutbox):
    with time_machine.travel(MADE, tick=False):
        link = reset_link("jansen@example.org")
    with time_machine.travel(MADE + timedelta(days=2, hours=23), tick=False):
        assert offers_a_new_password(link)
    with time_machine.travel(MADE + timedelta(days=3, minutes=1), tick=False):
        assert not offers_a_new_password(link)
    assert "werkt één keer, 3 dagen lang" in mailoutbox[-1].body  # as the e-mail says


def test_an_invitation_lives_fourteen_days_where_a_reset_link_lives_three(db, mailoutbox):
    member = Member.objects.create(name="Anne de Graaf", email="anne@example.org")
    with time_machine.travel(MADE, tick=False):
        accounts.invite([member], MADE)
        invitation = invitation_link()
        reset = reset_link("anne@example.org")  # an invited member may ask for one too
    assert "werkt één keer, 14 dagen lang" in mailoutbox[0].body
    with time_machine.travel(MADE + timedelta(days=13), tick=False):
        assert offers_a_new_password(invitation)
        assert not offers_a_new_password(reset)
    with time_machine.travel(MADE + timedelta(days=14, minutes=1), tick=False):
        assert not offers_a_new_password(invitation)


def test_an_invitation_to_an_address_since_corrected_no_longer_works(db, mailoutbox):
    member = Member.objects.create(name="Anne de Graaf", email="anne@exmaple.org")
    accounts.invite([member], timezone.now())
    sent = invitation_link()
    Member.objects.filter(pk=member.pk).update(email="anne@example.org")  # the arbiter's fix
    assert not offers_a_new_password(sent)
    page = Client().get(sent, follow=True).content.decode()
    assert "of je e-mailadres is sindsdien gewijzigd" in page


def cancel_link(member, round_, purpose) -> str:
    return path_of(links.address("absences:by-link", member, round_.pk, purpose))


def says_the_link_is_outdated(response, instead: str) -> None:
    assert response.status_code == 410
    page = response.content.decode()
    assert "Deze link werkt niet meer" in page
    assert "Hij komt uit een e-mail aan een eerder e-mailadres" in page
    assert f'href="/accounts/login/?next={instead}"' in page  # the way in with a password
    assert 'href="mailto:wedstrijdleider@dscdrachten.nl"' in page  # or the arbiter


@pytest.mark.parametrize("purpose", [links.CANCEL, links.REGISTER])
def test_a_cancellation_link_from_before_an_address_change_is_refused_after_it(
    jansen_client, jansen, round_4, mailoutbox, purpose
):
    """ "Ik kan niet komen" (pairing, reminder) and "Ik kom toch" (the confirmation)."""
    old = cancel_link(jansen, round_4, purpose)
    moves(jansen_client, "jan.nieuw@example.org")
    jansen.refresh_from_db()
    with time_machine.travel(at(12), tick=False):
        says_the_link_is_outdated(Client().get(old), "/afmelden/")
        posted = Client().post(old, {"preview": "x", "confirm": "1"})
        assert posted.status_code == 410
        assert not Registration.objects.exists()
        # A link in an e-mail to the new address works.
        assert Client().get(cancel_link(jansen, round_4, purpose)).status_code == 200


def test_a_result_link_from_before_an_address_change_is_refused_after_it(
    jansen_client, jansen, published_round_4, mailoutbox
):
    old = path_of(
        links.address("competition:result-by-link", jansen, published_round_4.pk, links.RESULT)
    )
    moves(jansen_client, "jan.nieuw@example.org")
    with time_machine.travel(at(21, day=EVENING_4), tick=False):
        says_the_link_is_outdated(Client().get(old), "/")
        assert Client().post(old, {"result": "1-0"}).status_code == 410
    assert not ResultReport.objects.exists()


def test_a_link_signed_before_links_carried_the_address_works_for_30_days(client, jansen, round_4):
    """A code of ours without the address (e-mails of the version before) cannot be tied to an
    address: this week's pairing e-mail keeps working after the upgrade, and such a code
    counts as outdated once it is older than 30 days (read from its own signed time)."""
    with time_machine.travel(at(9), tick=False):
        code = signing.dumps([jansen.pk, round_4.pk, links.CANCEL], salt=links.SALT)
        turn_off = signing.dumps([jansen.pk, "mail_pairing"], salt=unsubscribe.SALT)
    with time_machine.travel(at(12), tick=False):
        works = client.get(reverse("absences:by-link") + "?code=" + code)
        assert works.status_code == 200 and "Bevestigen" in works.content.decode()
        assert client.get(reverse("members:unsubscribe") + "?code=" + turn_off).status_code == 200
    with time_machine.travel(at(9) + timedelta(days=30, minutes=1), tick=False):
        says_the_link_is_outdated(
            client.post(reverse("members:unsubscribe") + "?code=" + turn_off), "/profiel/"
        )


def test_a_turn_off_link_from_before_an_address_change_is_refused_after_it(
    jansen_client, jansen, mailoutbox
):
    old = path_of(unsubscribe.address(jansen, "mail_pairing"))
    assert jansen.mail_pairing
    moves(jansen_client, "jan.nieuw@example.org")
    says_the_link_is_outdated(Client().post(old), "/profiel/")
    jansen.refresh_from_db()
    assert jansen.mail_pairing
    assert Client().post(path_of(unsubscribe.address(jansen, "mail_pairing"))).status_code == 200
    jansen.refresh_from_db()
    assert not jansen.mail_pairing
