"""Passwords (issue 35, finding 8): Django's validators on every way of choosing one, with the
help under the field in Dutch. "1" and "dsc12345" were accepted everywhere."""

import getpass
import re

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from members import accounts
from members.models import Member

TOO_SHORT = "Dit wachtwoord is te kort: het moet minstens 10 tekens hebben."
HELP = (
    "Je wachtwoord heeft minstens 10 tekens.",
    "Het is geen veelgebruikt wachtwoord.",
    "Het lijkt niet op je naam, gebruikersnaam of e-mailadres.",
    "Het bestaat niet alleen uit cijfers.",
)
GOOD = "paard-toren-loper-42"


@pytest.fixture
def superuser_client(db):
    """The site's technical administrator: the admin's user forms are theirs."""
    client = Client()
    client.force_login(User.objects.create_superuser("beheer", password="beheer-wachtwoord-1"))
    return client


@pytest.fixture
def anne(db):
    """Anne de Graaf, invited: no password yet."""
    member = Member.objects.create(name="Anne de Graaf", email="anne@example.org")
    accounts.invite([member], timezone.now())
    member.refresh_from_db()
    return member


def page_behind(link: str) -> tuple[Client, str, str]:
    """Follow a link from an e-mail to the page with the form: its client, URL and text."""
    client = Client()
    page = client.get(link, follow=True)
    return client, page.redirect_chain[-1][0], page.content.decode()


def link_in(message, pattern: str) -> str:
    return re.search(rf"https?://\S+({pattern}\S+/)", message.body)[1]


def invitation_form(anne, mailoutbox):
    client, url, page = page_behind(link_in(mailoutbox[-1], "/welkom/"))
    return client, url, page, ("new_password1", "new_password2")


def reset_form(anne, mailoutbox):
    Client().post(reverse("password_reset"), {"email": anne.email})
    accounts.answer_reset_requests(timezone.now())  # the worker's step
    client, url, page = page_behind(link_in(mailoutbox[-1], "/accounts/reset/"))
    return client, url, page, ("new_password1", "new_password2")


def profile_form(anne, mailoutbox):
    anne.user.set_password("het-oude-wachtwoord-7")
    anne.user.save()
    client = Client()
    client.force_login(anne.user)
    url = reverse("members:password")
    return client, url, client.get(url).content.decode(), ("new_password1", "new_password2")


FORMS = {"invitation": invitation_form, "reset": reset_form, "profile": profile_form}


def post(client, url, fields, password, old="het-oude-wachtwoord-7"):
    return client.post(url, {fields[0]: password, fields[1]: password, "old_password": old})


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("password", ["1", "dsc12345"])
def test_a_member_cannot_choose_a_short_password_and_is_told_why_in_dutch(
    anne, mailoutbox, form, password
):
    client, url, page, fields = FORMS[form](anne, mailoutbox)
    for rule in HELP:  # the help under the field, before anything is typed
        assert rule in page, (form, rule)
    before = User.objects.get(pk=anne.user_id).password
    response = post(client, url, fields, password)
    assert response.status_code == 200
    assert TOO_SHORT in response.content.decode()
    assert User.objects.get(pk=anne.user_id).password == before
    assert post(client, url, fields, GOOD).status_code == 302  # a good one is taken
    assert User.objects.get(pk=anne.user_id).check_password(GOOD)


@pytest.mark.parametrize("form", FORMS)
def test_a_password_like_the_members_name_is_refused(anne, mailoutbox, form):
    """The name lives on the member, not on the account: it counts all the same."""
    anne.user.username = "lid-7"  # nothing like the name
    anne.user.save()
    client, url, _page, fields = FORMS[form](anne, mailoutbox)
    response = post(client, url, fields, "annedegraaf")
    assert "Dit wachtwoord lijkt te veel op je naam." in response.content.decode()
    response = post(client, url, fields, "anne@example")
    assert "Dit wachtwoord lijkt te veel op je e-mailadres." in response.content.decode()


def test_common_and_numeric_passwords_are_refused_on_the_profile(anne, mailoutbox):
    client, url, _page, fields = profile_form(anne, mailoutbox)
    common = post(client, url, fields, "qwertyuiop").content.decode()
    assert "Dit wachtwoord is te algemeen." in common
    digits = post(client, url, fields, "0612345678").content.decode()
    assert "Dit wachtwoord bevat alleen cijfers." in digits


@pytest.mark.parametrize("password", ["1", "dsc12345"])
def test_the_admin_cannot_give_an_account_a_short_password(superuser_client, anne, password):
    add = reverse("admin:auth_user_add")
    assert HELP[0] in superuser_client.get(add).content.decode()
    created = superuser_client.post(
        add,
        {
            "username": "nieuw",
            "password1": password,
            "password2": password,
            "usable_password": "true",
        },
    )
    assert TOO_SHORT in created.content.decode()
    assert not User.objects.filter(username="nieuw").exists()
    change = reverse("admin:auth_user_password_change", args=[anne.user_id])
    assert HELP[0] in superuser_client.get(change).content.decode()
    changed = superuser_client.post(
        change, {"password1": password, "password2": password, "usable_password": "true"}
    )
    assert TOO_SHORT in changed.content.decode()
    assert not User.objects.get(pk=anne.user_id).has_usable_password()


def test_changepassword_refuses_a_short_password(db, monkeypatch, capsys):
    User.objects.create_user("wedstrijdleider", password="het-oude-wachtwoord-7")
    monkeypatch.setattr(getpass, "getpass", lambda prompt="": "dsc12345")
    with pytest.raises(CommandError):
        call_command("changepassword", "wedstrijdleider")
    assert TOO_SHORT in capsys.readouterr().err
    assert User.objects.get(username="wedstrijdleider").check_password("het-oude-wachtwoord-7")


class Terminal:
    """A standard input that is a terminal, as createsuperuser asks for."""

    def isatty(self):
        return True


def test_createsuperuser_refuses_a_short_password_unless_told_to_bypass(db, monkeypatch, capsys):
    typed = iter(["dsc12345", "dsc12345", GOOD, GOOD])
    monkeypatch.setattr(getpass, "getpass", lambda prompt="": next(typed))
    answers = iter(["beheer2", "", "n"])  # username, address, "bypass the validation?": no
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    call_command("createsuperuser", interactive=True, stdin=Terminal())
    assert TOO_SHORT in capsys.readouterr().err
    assert User.objects.get(username="beheer2").check_password(GOOD)
