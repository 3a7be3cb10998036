"""Login throttling: five wrong passwords lock an account out from one address for 30 minutes."""

from datetime import timedelta

import pytest
import time_machine
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from base.clients import client_ip
from members import accounts
from members.models import Member

SITE_LOGIN = "/accounts/login/"
ADMIN_LOGIN = "/beheer/login/"
LOCKED_OUT = "Te veel mislukte pogingen"


@pytest.fixture
def user(db):
    """An account of a member; the address lives on the member (members.accounts)."""
    account = User.objects.create_user("jansen", password="the-right-password")
    Member.objects.create(name="Jansen", email="jansen@example.org", user=account)
    return account


def log_in(client, url, username="jansen", password="wrong", address="192.0.2.10"):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)


def fail(client, url, times, **kwargs):
    for _ in range(times):
        response = log_in(client, url, **kwargs)
    return response


def logged_in(client):
    return "_auth_user_id" in client.session


@pytest.mark.parametrize("url", [SITE_LOGIN, ADMIN_LOGIN])
def test_thirty_wrong_passwords_then_the_right_one_are_refused(client, user, url):
    user.is_staff = True  # the admin login takes staff only
    user.save()
    fail(client, url, 30)
    response = log_in(client, url, password="the-right-password")
    assert response.status_code == 429
    page = response.content.decode()
    assert LOCKED_OUT in page
    assert "na 5 verkeerde wachtwoorden" in page.lower()
    assert reverse("password_reset") in page
    assert not logged_in(client)


def test_the_fifth_wrong_password_locks_and_four_do_not(client, user):
    assert fail(client, SITE_LOGIN, 4).status_code == 200  # the form again, with its error
    assert log_in(client, SITE_LOGIN, password="the-right-password").status_code == 302
    assert logged_in(client)
    client.logout()
    # The success wiped the count: five more are needed, and the fifth locks.
    assert fail(client, SITE_LOGIN, 4).status_code == 200
    assert log_in(client, SITE_LOGIN).status_code == 429


def test_another_account_from_the_same_address_is_not_locked(client, user):
    User.objects.create_user("bakker", password="bakkers-password")
    fail(client, SITE_LOGIN, 5)
    response = log_in(client, SITE_LOGIN, username="bakker", password="bakkers-password")
    assert response.status_code == 302
    assert logged_in(client)


def test_the_same_account_from_another_address_is_not_locked(client, user):
    fail(client, SITE_LOGIN, 5, address="192.0.2.10")
    response = log_in(client, SITE_LOGIN, password="the-right-password", address="198.51.100.7")
    assert response.status_code == 302
    assert logged_in(client)


def test_the_lockout_ends_after_thirty_minutes(client, user):
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        fail(client, SITE_LOGIN, 5)
    with time_machine.travel(start + timedelta(minutes=29), tick=False):
        assert log_in(client, SITE_LOGIN, password="the-right-password").status_code == 429
    # The refused try above started the 30 minutes again.
    with time_machine.travel(start + timedelta(minutes=29 + 31), tick=False):
        assert log_in(client, SITE_LOGIN, password="the-right-password").status_code == 302


def test_a_new_password_by_email_lifts_the_lockout(client, user, mailoutbox):
    fail(client, SITE_LOGIN, 5)
    client.post(reverse("password_reset"), {"email": "jansen@example.org"})
    accounts.answer_reset_requests(timezone.now())  # the worker's step
    [message] = mailoutbox
    link = next(line for line in message.body.splitlines() if "/accounts/reset/" in line)
    form = client.get(link.strip().replace("http://testserver", ""), follow=True)
    new_password = {"new_password1": "a-new-long-password", "new_password2": "a-new-long-password"}
    assert client.post(form.redirect_chain[-1][0], new_password).status_code == 302
    assert not AccessAttempt.objects.exists()
    assert log_in(client, SITE_LOGIN, password="a-new-long-password").status_code == 302


def test_the_arbiter_sees_the_lockout_in_dutch_and_lifts_it(client, user, arbiter):
    fail(client, SITE_LOGIN, 5)
    client.force_login(arbiter)
    page = client.get("/beheer/axes/accessattempt/").content.decode()
    assert "Inlogblokkades" in page
    assert "Geblokkeerd tot" in page
    assert "Blokkade opheffen" in page
    [attempt] = AccessAttempt.objects.all()
    response = client.post(
        "/beheer/axes/accessattempt/",
        {"action": "lift_lockouts", "_selected_action": [attempt.pk]},
        follow=True,
    )
    assert "1 blokkade opgeheven." in response.content.decode()
    client.logout()
    assert log_in(client, SITE_LOGIN, password="the-right-password").status_code == 302


def test_the_arbiters_start_page_lists_the_lockouts(client, arbiter):
    client.force_login(arbiter)
    assert "Inlogblokkades" in client.get("/beheer/").content.decode()


def request_from(remote_addr, forwarded_for=None):
    headers = {"REMOTE_ADDR": remote_addr}
    if forwarded_for is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded_for
    return RequestFactory().get("/", **headers)


def test_without_trusted_proxies_a_forwarded_for_header_is_ignored(settings):
    settings.TRUSTED_PROXIES = 0
    assert client_ip(request_from("192.0.2.10", "203.0.113.5")) == "192.0.2.10"


def test_behind_one_proxy_the_address_it_saw_counts_not_what_the_client_wrote(settings):
    settings.TRUSTED_PROXIES = 1
    # The client wrote 203.0.113.5 itself; the proxy appended the address it saw connecting.
    request = request_from("10.0.0.2", "203.0.113.5, 198.51.100.7")
    assert client_ip(request) == "198.51.100.7"


def test_a_forwarded_for_header_that_is_not_an_address_falls_back(settings):
    settings.TRUSTED_PROXIES = 1
    assert client_ip(request_from("10.0.0.2", "not-an-address")) == "10.0.0.2"
    assert client_ip(request_from("10.0.0.2")) == "10.0.0.2"


def test_a_spoofed_forwarded_for_does_not_escape_the_lockout(client, user, settings):
    settings.TRUSTED_PROXIES = 1
    for spoofed in range(5):
        client.post(
            SITE_LOGIN,
            {"username": "jansen", "password": "wrong"},
            REMOTE_ADDR="10.0.0.2",
            HTTP_X_FORWARDED_FOR=f"203.0.113.{spoofed}, 198.51.100.7",
        )
    response = client.post(
        SITE_LOGIN,
        {"username": "jansen", "password": "the-right-password"},
        REMOTE_ADDR="10.0.0.2",
        HTTP_X_FORWARDED_FOR="203.0.113.99, 198.51.100.7",
    )
    assert response.status_code == 429
