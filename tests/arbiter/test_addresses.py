"""The arbiter's pages under /beheer/ (arbiter/urls.py): each address opens its page, and every
address these pages had in the admin still leads there, with the same request (arbiters keep
bookmarks, and a form opened before the move still sends)."""

import pytest
from django.urls import reverse

from competition.models import Round

# Old address (as the admin wrote it), new address; {round}, {game}, {absence}, {competition}.
MOVED = [
    ("/beheer/competition/round/add/", "/beheer/ronde/nieuw/"),
    ("/beheer/competition/round/{round}/change/", "/beheer/ronde/{round}/"),
    ("/beheer/competition/round/{round}/pair/", "/beheer/ronde/{round}/indelen/"),
    ("/beheer/competition/round/{round}/publish/", "/beheer/ronde/{round}/publiceren/"),
    ("/beheer/competition/round/{round}/results/", "/beheer/ronde/{round}/uitslagen/"),
    ("/beheer/competition/round/{round}/print/", "/beheer/ronde/{round}/afdrukken/"),
    ("/beheer/competition/round/{round}/slips/", "/beheer/ronde/{round}/uitslagbriefjes/"),
    ("/beheer/competition/game/{game}/decide/", "/beheer/partij/{game}/beslissen/"),
    (
        "/beheer/competition/absence/{absence}/team-claim/",
        "/beheer/afwezigheid/{absence}/teamwedstrijd/",
    ),
    ("/beheer/competition/season/new/", "/beheer/seizoen/nieuw/"),
    (
        "/beheer/competition/competition/{competition}/rapid-evening/",
        "/beheer/competitie/{competition}/rapidavond/",
    ),
    (
        "/beheer/competition/competition/{competition}/ranking-zero/",
        "/beheer/competitie/{competition}/ranglijst-0/",
    ),
    (
        "/beheer/competition/competition/{competition}/newcomer/",
        "/beheer/competitie/{competition}/nieuwe-speler/",
    ),
    (
        "/beheer/competition/competition/{competition}/season-file/",
        "/beheer/competitie/{competition}/seizoensbestand/",
    ),
    (
        "/beheer/competition/competition/{competition}/trf/",
        "/beheer/competitie/{competition}/trf/",
    ),
]
KEYS = {"round": 12, "game": 34, "absence": 56, "competition": 78}


@pytest.mark.parametrize(("old", "new"), MOVED)
def test_every_old_address_moved_permanently_keeping_the_method_and_the_query(client, old, new):
    """308: the browser repeats the request there as it was, a POST as a POST."""
    old, new = old.format(**KEYS), new.format(**KEYS)
    for send in (client.get, client.post):
        response = send(old)
        assert (response.status_code, response["Location"]) == (308, new)
    assert client.get(f"{old}?datum=2026-10-06")["Location"] == f"{new}?datum=2026-10-06"


def test_the_new_addresses_are_the_arbiters_pages_and_the_admins_stay():
    assert reverse("arbiter:week") == reverse("admin:index") == "/beheer/"
    assert reverse("arbiter:round", args=[7]) == "/beheer/ronde/7/"
    assert reverse("admin:competition_round_changelist") == "/beheer/competition/round/"
    assert reverse("admin:competition_round_history", args=[7]) == (
        "/beheer/competition/round/7/history/"
    )


def test_an_old_bookmark_of_the_round_page_opens_it(arbiter_client, round_4):
    response = arbiter_client.get(
        reverse("admin:competition_round_change", args=[round_4.pk]), follow=True
    )
    assert response.redirect_chain == [(reverse("arbiter:round", args=[round_4.pk]), 308)]
    assert "Ronde 4 (24-09-2026)" in response.content.decode()


def test_a_form_sent_to_an_old_address_is_done_at_the_new_one(arbiter_client, round_4):
    """The pairing button of a page opened before the move: the pairing is made once."""
    response = arbiter_client.post(f"/beheer/competition/round/{round_4.pk}/pair/", follow=True)
    assert response.redirect_chain[0] == (f"/beheer/ronde/{round_4.pk}/indelen/", 308)
    assert "De indeling is gemaakt" in response.content.decode()
    assert Round.objects.get(pk=round_4.pk).games.count() == 5


@pytest.mark.parametrize(
    "url",
    [
        "/beheer/ronde/{round}/",
        "/beheer/ronde/{round}/uitslagen/",
        "/beheer/ronde/{round}/afdrukken/",
        "/beheer/competitie/{competition}/nieuwe-speler/",
        "/beheer/seizoen/nieuw/",
    ],
)
def test_a_visitor_is_sent_to_the_admins_login_and_a_member_is_refused(
    client, jansen, round_4, url
):
    url = url.format(round=round_4.pk, competition=round_4.competition_id)
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/beheer/login/")
    jansen.user.is_staff = True  # staff, but without the arbiter's permissions
    jansen.user.save()
    client.force_login(jansen.user)
    assert client.get(url).status_code == 403
