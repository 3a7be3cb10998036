"""A closed season offers no cancellation (issue 35, finding 11): `/afmelden/` and the links
without a password say the season is closed, with its date and the arbiter's reason, and show
no form, preview or Bevestigen; a form sent from an older page changes nothing. Reopening
brings the form back."""

import re

import time_machine
from django.urls import reverse

from absences.models import Registration
from competition import seasons
from competition.models import Absence, Season
from members import links
from tests.absences.test_links import path_of
from tests.moments import at

URL = reverse("absences:mine")
CLOSED_AT = at(10)  # Friday morning, before round 4's deadline
SAID = (
    "Seizoen 2026-2027 is afgesloten op vrijdag 18 september 2026. "
    "Reden: Te weinig spelers. "
    "De stand is definitief: er worden geen rondes meer gespeeld."
)


def text(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def close(season) -> None:
    with time_machine.travel(CLOSED_AT, tick=False):
        seasons.close_season(season, CLOSED_AT, "Te weinig spelers")


def test_the_cancellation_page_says_the_season_is_closed_and_offers_no_form(jansen_client, round_4):
    form = {"rounds": [round_4.pk], "action": "cancel", "reason": "regular"}
    with time_machine.travel(at(12), tick=False):
        preview = jansen_client.post(URL, form).content.decode()  # a preview while still open
    token = re.search(r'name="preview" value="([^"]+)"', preview)[1]

    close(round_4.competition.season)
    with time_machine.travel(at(12), tick=False):
        page = jansen_client.get(URL)
        shown = jansen_client.post(URL, form)  # "Laat zien wat er gebeurt" from an old page
        confirmed = jansen_client.post(URL, {**form, "preview": token, "confirm": "1"})
    assert SAID in text(page)
    body = page.content.decode()
    assert 'name="rounds"' not in body and "Laat zien wat er gebeurt" not in body
    for refused in (shown, confirmed):
        assert refused.status_code == 409
        assert SAID in text(refused)
        assert "Dit gaat er gebeuren" not in text(refused) and 'name="confirm"' not in (
            refused.content.decode()
        )
    assert not Absence.objects.exists() and not Registration.objects.exists()

    seasons.reopen_season(Season.objects.get(), "Per ongeluk afgesloten")
    with time_machine.travel(at(12), tick=False):
        again = jansen_client.get(URL).content.decode()
    assert 'name="rounds"' in again and "afgesloten" not in again


def test_the_arbiter_acting_for_a_member_is_told_the_same(arbiter_client, jansen, round_4):
    close(round_4.competition.season)
    with time_machine.travel(at(12), tick=False):
        page = arbiter_client.get(f"{URL}?lid={jansen.pk}")
    assert SAID in text(page) and 'name="rounds"' not in page.content.decode()


def test_a_link_without_a_password_says_the_season_is_closed(client, jansen, round_4):
    close(round_4.competition.season)
    for purpose in (links.CANCEL, links.REGISTER):
        path = links.address("absences:by-link", jansen, round_4.pk, purpose)
        with time_machine.travel(at(12), tick=False):
            page = client.get(path_of(path))
        assert page.status_code == 410
        assert SAID in text(page)
        assert 'name="confirm"' not in page.content.decode()
