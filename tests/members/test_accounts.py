"""How members get in (issue 23, points 1 and 2): the arbiter's invitations, the invitation's
page, the login by username or address, the new password by e-mail."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from members import accounts
from members.models import Member

INVITE_ALL = reverse("arbiter:invite-all")
MEMBER_LIST = reverse("admin:members_member_changelist")


def link_in(message) -> str:
    [address] = re.findall(r"https?://\S+/welkom/\S+/", message.body)
    return address.split("://", 1)[1].split("/", 1)[1].join(["/", ""])


def members_with_addresses(count: int) -> list[Member]:
    return [
        Member.objects.create(name=f"Lid {number:02}", email=f"lid{number}@example.org")
        for number in range(1, count + 1)
    ]


def choose_password(client, message, password="een-goed-wachtwoord-17"):
    """Follow the invitation's link and choose a password; the final response."""
    page = client.get(link_in(message), follow=True)
    assert "Kies je wachtwoord" in page.content.decode()
    return client.post(
        page.redirect_chain[-1][0],
        {"new_password1": password, "new_password2": password},
        follow=True,
    )


def test_the_arbiter_invites_forty_members_in_one_action_one_email_each(arbiter_client, mailoutbox):
    forty = members_with_addresses(40)
    Member.objects.create(name="Zonder Adres")  # no address: not among "everyone"
    page = arbiter_client.get(INVITE_ALL).content.decode()
    assert "40 leden krijgen een uitnodiging per e-mail" in page
    response = arbiter_client.post(INVITE_ALL, follow=True)
    assert "40 uitnodigingen verstuurd." in response.content.decode()
    assert sorted(m.to[0] for m in mailoutbox) == sorted(m.email for m in forty)
    for member in Member.objects.filter(pk__in=[m.pk for m in forty]).select_related("user"):
        assert member.invited_at is not None
        assert not member.user.has_usable_password() and not member.user.is_staff
    listing = arbiter_client.get(MEMBER_LIST).content.decode()
    assert listing.count("uitgenodigd op") == 40 and "geen e-mailadres" in listing


def test_an_invited_member_chooses_a_password_and_the_list_says_since_when(
    arbiter_client, mailoutbox
):
    [member] = members_with_addresses(1)
    arbiter_client.post(reverse("arbiter:invite", args=[member.pk]))
    [message] = mailoutbox
    assert message.subject == "DSC: je account op de competitiesite"
    assert "Je gebruikersnaam is lid-01" in message.body
    done = choose_password(Client(), message)
    assert done.redirect_chain[-1][0] == "/afmelden/"
    assert "Welkom! Je wachtwoord is opgeslagen" in done.content.decode()
    member.refresh_from_db()
    assert member.activated_at is not None and member.user.has_usable_password()
    assert "actief sinds" in arbiter_client.get(MEMBER_LIST).content.decode()


def test_an_invitation_link_works_once(db, client, mailoutbox):
    [member] = members_with_addresses(1)
    accounts.invite([member], timezone.now())
    choose_password(client, mailoutbox[0])
    client.logout()
    again = client.get(link_in(mailoutbox[0]), follow=True).content.decode()
    assert "Deze uitnodigingslink werkt niet meer" in again


def test_a_newer_invitation_kills_the_older_link(db, client, mailoutbox):
    [member] = members_with_addresses(1)
    accounts.invite([member], timezone.now())
    accounts.invite([member], timezone.now() + timedelta(minutes=1))
    old, new = mailoutbox
    assert "werkt niet meer" in client.get(link_in(old), follow=True).content.decode()
    assert "Kies je wachtwoord" in client.get(link_in(new), follow=True).content.decode()


def test_an_invitation_expires_after_fourteen_days(db, client, mailoutbox):
    [member] = members_with_addresses(1)
    accounts.invite([member], timezone.now())
    # Django's tokens count in the machine's local time: a day either side of the bound.
    with time_machine.travel(timezone.now() + timedelta(days=13)):
        assert (
            "Kies je wachtwoord" in client.get(link_in(mailoutbox[0]), follow=True).content.decode()
        )
    client.session.flush()
    with time_machine.travel(timezone.now() + timedelta(days=15)):
        page = client.get(link_in(mailoutbox[0]), follow=True).content.decode()
    assert "werkt niet meer" in page


def test_a_tampered_invitation_link_is_refused(db, client, mailoutbox):
    [member] = members_with_addresses(1)
    accounts.invite([member], timezone.now())
    address = link_in(mailoutbox[0])
    tampered = address[:-3] + ("a" if address[-3] != "a" else "b") + address[-2:]
    assert "werkt niet meer" in client.get(tampered, follow=True).content.decode()


def test_a_password_reset_link_is_no_invitation(client, jansen, mailoutbox):
    client.post(reverse("password_reset"), {"email": "jansen@example.org"})
    accounts.answer_reset_requests(timezone.now())  # the worker's step
    reset = re.search(r"/accounts/reset/(\S+)/(\S+)/", mailoutbox[0].body)
    page = client.get(reverse("members:invitation", args=reset.groups()), follow=True)
    assert "werkt niet meer" in page.content.decode()


@pytest.mark.parametrize("problem", ["no address", "shared address", "active"])
def test_an_invitation_that_cannot_go_out_names_the_member_and_sends_nothing(
    arbiter_client, jansen, mailoutbox, problem
):
    good = Member.objects.create(name="Goed Lid", email="goed@example.org")
    if problem == "no address":
        bad = Member.objects.create(name="Zonder Adres")
        said = "Zonder Adres heeft geen e-mailadres"
    elif problem == "shared address":
        bad = Member.objects.create(name="Gedeeld Adres", email="GOED@example.org")
        said = "Gedeeld Adres heeft hetzelfde e-mailadres als Goed Lid"
    else:
        bad = jansen
        said = "Jansen heeft al een account"
    chosen = f"?leden={good.pk},{bad.pk}"
    assert said in arbiter_client.get(INVITE_ALL + chosen).content.decode()
    response = arbiter_client.post(INVITE_ALL, {"leden": f"{good.pk},{bad.pk}"}, follow=True)
    page = response.content.decode()
    assert "Er is niets verstuurd:" in page and said in page
    assert mailoutbox == []
    assert Member.objects.get(pk=good.pk).invited_at is None
    assert not User.objects.filter(username="goed-lid").exists()


def test_the_member_lists_action_leads_to_the_named_invitation(arbiter_client, mailoutbox):
    first, _second, third = members_with_addresses(3)
    response = arbiter_client.post(
        MEMBER_LIST, {"action": "invite", "_selected_action": [first.pk, third.pk]}
    )
    assert response.status_code == 302
    page = arbiter_client.get(response["Location"]).content.decode()
    assert "Lid 01" in page and "Lid 03" in page and "Lid 02" not in page
    arbiter_client.post(INVITE_ALL, {"leden": f"{first.pk},{third.pk}"})
    assert sorted(m.to[0] for m in mailoutbox) == [first.email, third.email]


def test_the_arbiter_cannot_link_or_grant_accounts(arbiter_client, arbiter, jansen):
    """Only a superuser links an existing account or grants staff rights."""
    assert arbiter_client.get("/beheer/auth/user/").status_code == 403
    staff = User.objects.create_user("bestuur", is_staff=True)
    member = Member.objects.create(name="Nieuw Lid", email="nieuw@example.org")
    change = reverse("admin:members_member_change", args=[member.pk])
    arbiter_client.post(
        change,
        {
            "name": "Nieuw Lid",
            "email": "nieuw@example.org",
            "is_active": "on",
            "user": staff.pk,
            "sex": "",
            "mail_pairing": "on",
        },
    )
    member.refresh_from_db()
    assert member.user is None


def logs_in(client, login: str, password: str) -> bool:
    """Through the login page, as a person does; whether the session is then logged in."""
    client.logout()
    client.post(reverse("login"), {"username": login, "password": password})
    return "_auth_user_id" in client.session


def test_a_member_logs_in_with_the_address_or_the_username_in_any_case(client, jansen):
    for login in ("jansen@example.org", "JANSEN@Example.org", "Jansen", "jansen"):
        assert logs_in(client, login, "jansen-password"), login
    assert not logs_in(client, "jansen@example.org", "wrong")
    page = client.get(reverse("login")).content.decode()
    assert "Gebruikersnaam of e-mailadres" in page and "Nog geen account?" in page


def test_a_shared_address_logs_nobody_in(client, jansen):
    Member.objects.create(
        name="Huisgenoot",
        email="jansen@example.org",
        user=User.objects.create_user("huisgenoot", password="x-y-z-12345"),
    )
    assert not logs_in(client, "jansen@example.org", "jansen-password")
    assert logs_in(client, "jansen", "jansen-password")


def test_the_lockout_counts_every_way_of_typing_the_account(client, jansen, settings):
    for login in ("jansen", "JANSEN", "jansen@example.org", "Jansen@example.org", "jansen"):
        client.post(reverse("login"), {"username": login, "password": "wrong"})
    locked = client.post(reverse("login"), {"username": "jansen", "password": "jansen-password"})
    assert locked.status_code == settings.AXES_HTTP_RESPONSE_CODE
    assert "Te veel mislukte pogingen" in locked.content.decode()


@pytest.mark.parametrize("selection", ["x", "0", "-1,", "' OR 1=1 --"])
def test_a_selection_that_names_no_member_invites_nobody(arbiter_client, mailoutbox, selection):
    """A damaged `leden` (a mangled link, a hand-edited address) is refused with a message;
    it never widens to "everyone without a login", shown or posted."""
    members_with_addresses(2)
    for response in (
        arbiter_client.get(INVITE_ALL, {"leden": selection}, follow=True),
        arbiter_client.post(INVITE_ALL, {"leden": selection}, follow=True),
    ):
        assert "De keuze noemt geen lid: er is niets verstuurd." in response.content.decode()
    assert mailoutbox == []
    assert not Member.objects.filter(invited_at__isnull=False).exists()
