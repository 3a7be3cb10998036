"""Members' accounts: logging in, and a new password by e-mail."""

from django.urls import reverse
from django.utils import timezone

from members import accounts


def test_a_member_resets_their_password_by_email(client, jansen, mailoutbox):
    """The address lives on the member (members.accounts); the account has none."""
    assert jansen.user.email == ""
    response = client.post(reverse("password_reset"), {"email": "jansen@example.org"})
    accounts.answer_reset_requests(timezone.now())  # the worker's step
    assert response.status_code == 302
    [message] = mailoutbox
    assert message.to == ["jansen@example.org"]
    link = next(line for line in message.body.splitlines() if "/accounts/reset/" in line)
    page = client.get(link.strip().replace("http://testserver", ""), follow=True)
    assert "Kies een nieuw wachtwoord" in page.content.decode()


def test_a_new_password_by_email_logs_the_member_in_at_once(client, jansen, mailoutbox):
    """As the invitation does (issue 37): no second trip through the login page."""
    client.post(reverse("password_reset"), {"email": "jansen@example.org"})
    accounts.answer_reset_requests(timezone.now())  # the worker's step
    link = next(line for line in mailoutbox[0].body.splitlines() if "/accounts/reset/" in line)
    form = client.get(link.strip().replace("http://testserver", ""), follow=True)
    password = "een-nieuw-wachtwoord-9"
    page = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": password, "new_password2": password},
        follow=True,
    )
    assert page.redirect_chain[-1][0] == "/"
    assert int(client.session["_auth_user_id"]) == jansen.user.pk
    assert "Je nieuwe wachtwoord is opgeslagen en je bent ingelogd." in page.content.decode()


def test_the_new_password_email_is_dutch_and_names_the_account(client, jansen, mailoutbox):
    client.post(reverse("password_reset"), {"email": "jansen@example.org"})
    accounts.answer_reset_requests(timezone.now())  # the worker's step
    [message] = mailoutbox
    assert message.subject == "DSC: een nieuw wachtwoord voor de competitiesite"
    assert "nieuw wachtwoord aan voor het account jansen" in message.body
    assert "heft ook een blokkade op" in message.body
    assert "you" not in message.body  # Django's own text mixes in English


def test_a_reset_for_an_unknown_address_answers_the_same_and_sends_nothing(
    client, jansen, mailoutbox
):
    known = client.post(reverse("password_reset"), {"email": "jansen@example.org"})
    accounts.answer_reset_requests(timezone.now())  # the worker's step
    unknown = client.post(reverse("password_reset"), {"email": "niemand@example.org"})
    accounts.answer_reset_requests(timezone.now())  # the worker's step
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert [m.to for m in mailoutbox] == [["jansen@example.org"]]


def test_a_reset_reaches_an_invited_member_and_makes_the_account_active(db, client, mailoutbox):
    from django.utils import timezone

    from members import accounts
    from members.models import Member

    member = Member.objects.create(name="Nieuw Lid", email="nieuw@example.org")
    accounts.invite([member], timezone.now())
    client.post(reverse("password_reset"), {"email": "NIEUW@example.org"})
    accounts.answer_reset_requests(timezone.now())  # the worker's step
    reset = mailoutbox[-1]
    assert reset.to == ["nieuw@example.org"]
    link = next(line for line in reset.body.splitlines() if "/accounts/reset/" in line)
    page = client.get(link.strip().replace("http://testserver", ""), follow=True)
    password = "een-nieuw-wachtwoord-9"
    client.post(page.redirect_chain[-1][0], {"new_password1": password, "new_password2": password})
    member.refresh_from_db()
    assert member.activated_at is not None and member.user.check_password(password)
