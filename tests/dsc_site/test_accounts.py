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
