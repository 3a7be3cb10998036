"""The admin's messages after a save name the row without Django's Dutch article, which was "De"
for every model: "De lid … is met succes toegevoegd" (issue 37)."""

import re

from django.urls import reverse

from members.models import Member


def said(page: str) -> str:
    """The admin's messages as read: their text without the link to the row."""
    return " ".join(
        re.sub(r"<[^>]+>", "", line) for line in re.findall(r'<li class="success">(.*?)</li>', page)
    )


def added(arbiter_client, data: dict, submit: str = "_save") -> str:
    response = arbiter_client.post(
        reverse("admin:members_member_add"),
        {"is_active": "on", "sex": "", "mail_pairing": "on", **data, submit: "1"},
        follow=True,
    )
    assert response.status_code == 200
    return said(response.content.decode())


def test_a_member_added_and_changed_is_named_without_a_wrong_article(arbiter_client):
    page = added(arbiter_client, {"name": "Nieuw Lid", "email": "nieuw@example.org"})
    assert "Toegevoegd: lid “Nieuw Lid”." in page
    assert "De lid" not in page
    member = Member.objects.get(name="Nieuw Lid")
    page = arbiter_client.post(
        reverse("admin:members_member_change", args=[member.pk]),
        {
            "name": "Nieuw Lid",
            "email": "nieuw@example.org",
            "is_active": "on",
            "sex": "",
            "_continue": "1",
        },
        follow=True,
    ).content.decode()
    page = said(page)
    assert "Opgeslagen: lid “Nieuw Lid”. Hieronder kun je verder bewerken." in page


def test_add_another_says_so_in_the_sites_own_words(arbiter_client):
    page = added(arbiter_client, {"name": "Ander Lid"}, submit="_addanother")
    assert "Toegevoegd: lid “Ander Lid”. Hieronder kun je nog een lid toevoegen." in page
