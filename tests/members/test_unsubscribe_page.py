"""The page behind an e-mail's unsubscribe link, for a member without an account: it sent them
to their profile, behind a login they cannot pass (issue 37). They turn the e-mails on again
on the page itself; a member with an account is still sent to the profile."""

from django.contrib.auth.models import User

from members import unsubscribe
from members.models import Member


def path_of(url: str) -> str:
    return url.split("://", 1)[1].split("/", 1)[1].join(["/", ""])


def test_a_member_without_an_account_turns_the_mail_on_again_on_the_page(db, client):
    member = Member.objects.create(name="Zonder Account", email="zonder@example.org")
    page = path_of(unsubscribe.address(member, "mail_ranking"))
    done = client.post(page).content.decode()
    member.refresh_from_db()
    assert member.mail_ranking is False
    assert "/profiel/" not in done and "Weer aanzetten" in done
    again = client.post(page, {"again": "on"}).content.decode()
    member.refresh_from_db()
    assert member.mail_ranking is True
    assert "deze e-mails krijg je weer" in again


def test_a_member_with_an_account_is_sent_to_the_profile(db, client):
    member = Member.objects.create(
        name="Met Account", email="met@example.org", user=User.objects.create_user("met")
    )
    done = client.post(path_of(unsubscribe.address(member, "mail_ranking"))).content.decode()
    assert 'href="/profiel/"' in done and "Weer aanzetten" not in done
