"""Members' accounts: logging in, and a new password by e-mail."""

from django.urls import reverse


def test_a_member_resets_their_password_by_email(client, jansen, mailoutbox):
    jansen.user.email = "jansen@example.org"
    jansen.user.save()
    response = client.post(reverse("password_reset"), {"email": "jansen@example.org"})
    assert response.status_code == 302
    [message] = mailoutbox
    assert message.to == ["jansen@example.org"]
    link = next(line for line in message.body.splitlines() if "/accounts/reset/" in line)
    page = client.get(link.strip().replace("http://testserver", ""), follow=True)
    assert "Kies een nieuw wachtwoord" in page.content.decode()


def test_the_new_password_email_is_dutch_and_names_the_account(client, jansen, mailoutbox):
    jansen.user.email = "jansen@example.org"
    jansen.user.save()
    client.post(reverse("password_reset"), {"email": "jansen@example.org"})
    [message] = mailoutbox
    assert message.subject == "Een nieuw wachtwoord voor de site van DSC Drachten"
    assert "nieuw wachtwoord aan voor het account jansen" in message.body
    assert "heft ook een blokkade op" in message.body
    assert "you" not in message.body  # Django's own text mixes in English
