"""Members' accounts (password reset by e-mail) and a double submit racing itself."""

import threading

import pytest
from django.db import connection
from django.urls import reverse

from absences import services
from absences.models import Registration
from competition.models import Absence

from .conftest import at


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


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs concurrent connections with row locks: runs on PostgreSQL (CI)",
)
@pytest.mark.django_db(transaction=True)
def test_two_identical_submits_at_the_same_moment_make_one_record(jansen, round_4):
    barrier = threading.Barrier(2)
    errors = []

    def submit():
        try:
            barrier.wait()
            services.apply(
                jansen, [round_4], "cancel", "regular", at(12), jansen.user, False, at(12)
            )
        except Exception as error:  # surfaced below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert Registration.objects.count() == 1 and Absence.objects.count() == 1
