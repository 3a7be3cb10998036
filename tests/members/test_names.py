"""Names are text (issue 26, point 6): a line break, a right-to-left override or a zero-width
space in a name is refused where names enter, with a clear message, and nothing is stored; a
name with accents, an apostrophe or a hyphen is welcome."""

import pytest
from django.urls import reverse

from competition.models import Season
from members.models import Member
from tests.members.test_private_details import change_form

UNSEEN = {
    "line break": "Jan\nJansen",
    "right-to-left override": "Jan\u202eJansen",
    "zero-width space": "Jan\u200bJansen",
}


@pytest.mark.parametrize("name", list(UNSEEN.values()), ids=list(UNSEEN))
def test_the_member_admin_refuses_a_name_with_an_unseen_character(arbiter_client, jansen, name):
    url = reverse("admin:members_member_change", args=[jansen.pk])
    response = arbiter_client.post(url, change_form(jansen, name=name))
    assert response.status_code == 200  # the form again, with the message
    page = response.content.decode()
    assert "Een naam mag geen onzichtbare tekens of stuurtekens bevatten" in page
    jansen.refresh_from_db()
    assert jansen.name == "Jansen"


def test_a_name_with_accents_an_apostrophe_and_a_hyphen_is_kept(arbiter_client, jansen):
    url = reverse("admin:members_member_change", args=[jansen.pk])
    arbiter_client.post(url, change_form(jansen, name="Åsa d'Hondt-Ørsted"))
    assert Member.objects.get(pk=jansen.pk).name == "Åsa d'Hondt-Ørsted"


def test_a_new_season_named_with_a_hidden_character_is_refused(arbiter_client, example_competition):
    response = arbiter_client.post(
        reverse("arbiter:new-season"),
        {"name": "2027\u202e-2028", "first_evening": "2027-09-02", "evenings": "30"},
    )
    assert "Een naam mag geen onzichtbare tekens of stuurtekens bevatten" in (
        response.content.decode()
    )
    assert not Season.objects.filter(name__startswith="2027").exists()
