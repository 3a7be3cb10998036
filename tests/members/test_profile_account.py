"""`/profiel/` (issue 23, point 3): a member changes their password, and their e-mail address
by a link to the new address (the old one stays until it is followed, and is told)."""

import re
from datetime import timedelta
from urllib.parse import urlsplit

import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from members.models import Member

PROFILE = reverse("members:profile")
NEW_ADDRESS = reverse("members:new-address")


def confirmation_path(message) -> str:
    address = re.search(r"https?://\S+/profiel/e-mail/bevestigen/\S+", message.body).group(0)
    parts = urlsplit(address)
    return f"{parts.path}?{parts.query}"


def test_a_member_changes_their_password(jansen_client, jansen):
    page = jansen_client.get(PROFILE).content.decode()
    assert "Mijn wachtwoord wijzigen" in page
    response = jansen_client.post(
        reverse("members:password"),
        {
            "old_password": "jansen-password",
            "new_password1": "een-ander-wachtwoord-3",
            "new_password2": "een-ander-wachtwoord-3",
        },
        follow=True,
    )
    assert "Je nieuwe wachtwoord is opgeslagen." in response.content.decode()
    jansen.user.refresh_from_db()
    assert jansen.user.check_password("een-ander-wachtwoord-3")
    assert jansen_client.get(PROFILE).status_code == 200  # still logged in


def test_a_wrong_current_password_changes_nothing(jansen_client, jansen):
    response = jansen_client.post(
        reverse("members:password"),
        {"old_password": "wrong", "new_password1": "x-y-z-98765", "new_password2": "x-y-z-98765"},
    )
    assert response.status_code == 200
    jansen.user.refresh_from_db()
    assert jansen.user.check_password("jansen-password")


def test_a_new_address_is_confirmed_by_its_link_and_the_old_one_is_told(
    jansen_client, jansen, mailoutbox
):
    response = jansen_client.post(NEW_ADDRESS, {"email": "jan.nieuw@example.org"}, follow=True)
    assert "We hebben een link gestuurd naar jan.nieuw@example.org" in response.content.decode()
    [confirmation] = mailoutbox
    assert confirmation.to == ["jan.nieuw@example.org"]
    jansen.refresh_from_db()
    assert jansen.email == "jansen@example.org"  # until the link is followed
    path = confirmation_path(confirmation)
    page = Client().get(path).content.decode()  # opening it (a mail scanner) changes nothing
    assert "jan.nieuw@example.org" in page
    jansen.refresh_from_db()
    assert jansen.email == "jansen@example.org"
    done = Client().post(path).content.decode()
    assert "Gedaan: je e-mails gaan nu naar jan.nieuw@example.org" in done
    jansen.refresh_from_db()
    assert jansen.email == "jan.nieuw@example.org"
    notice = mailoutbox[-1]
    assert notice.to == ["jansen@example.org"] and "jan.nieuw@example.org" in notice.body
    again = Client().post(path)  # the link works once
    assert again.status_code == 400
    assert "al gebruikt" in again.content.decode()


def test_an_address_another_member_has_is_refused(jansen_client, jansen, mailoutbox):
    other = Member.objects.exclude(pk=jansen.pk).exclude(email="").first()
    response = jansen_client.post(NEW_ADDRESS, {"email": other.email.upper()}, follow=True)
    assert "Een ander lid heeft dit adres" in response.content.decode()
    assert mailoutbox == []


def test_an_address_taken_before_the_link_is_followed_is_refused(jansen_client, jansen, mailoutbox):
    jansen_client.post(NEW_ADDRESS, {"email": "gedeeld@example.org"})
    Member.objects.create(name="Sneller", email="gedeeld@example.org")
    response = Client().post(confirmation_path(mailoutbox[0]))
    assert response.status_code == 400
    assert "Een ander lid heeft dit adres" in response.content.decode()
    jansen.refresh_from_db()
    assert jansen.email == "jansen@example.org"


def test_an_old_or_tampered_confirmation_link_is_refused(jansen_client, jansen, mailoutbox):
    jansen_client.post(NEW_ADDRESS, {"email": "jan.nieuw@example.org"})
    path = confirmation_path(mailoutbox[0])
    with time_machine.travel(timezone.now() + timedelta(days=4)):
        old = Client().post(path)
    tampered = Client().post(path[:-3])
    for response in (old, tampered):
        assert response.status_code == 400
        assert "Deze link klopt niet of is ouder dan 3 dagen." in response.content.decode()
    jansen.refresh_from_db()
    assert jansen.email == "jansen@example.org"


def test_the_friday_reminder_is_a_choice_off_by_default(jansen_client, jansen):
    assert not jansen.mail_reminder
    page = jansen_client.get(PROFILE).content.decode()
    assert "Een herinnering op vrijdagochtend" in page
    jansen_client.post(PROFILE, {"mail_pairing": "on", "mail_reminder": "on"})
    jansen.refresh_from_db()
    assert jansen.mail_reminder
