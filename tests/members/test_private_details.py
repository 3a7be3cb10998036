"""A member's birth date and sex: kept by the arbiter for the federation's rating report, never
shown on a public page or in a public download (docs/site.md, "Files for the federation")."""

from datetime import date

import pytest
import time_machine
from django.urls import reverse
from django.utils import dateformat, translation

from competition.models import Competition
from members.models import Member
from tests.demo import DEMO_NOW


def change_form(member: Member, **changes) -> dict:
    fields = {
        "name": member.name,
        "knsb_number": member.knsb_number or "",
        "email": member.email,
        "is_active": "on",
        "user": "",
        "estimated_rating": member.estimated_rating or "",
        "birth_date": "",
        "sex": "",
    }
    return {**fields, **changes}


def test_the_arbiter_keeps_birth_date_and_sex_in_the_member_admin(arbiter_client, jansen):
    url = reverse("admin:members_member_change", args=[jansen.pk])
    page = arbiter_client.get(url).content.decode()
    assert "Voor de bond (nooit op de site getoond)" in page
    assert "Geboortedatum" in page and "Geslacht" in page
    assert '<option value="female">vrouw</option>' in page
    response = arbiter_client.post(
        url, change_form(jansen, birth_date="09-04-1961", sex="male"), follow=True
    )
    assert response.status_code == 200
    jansen.refresh_from_db()
    assert (jansen.birth_date, jansen.sex) == (date(1961, 4, 9), Member.Sex.MALE)


@time_machine.travel(DEMO_NOW, tick=False)
def test_a_birth_date_in_the_future_is_refused_in_dutch_and_nothing_changes(arbiter_client, jansen):
    url = reverse("admin:members_member_change", args=[jansen.pk])
    response = arbiter_client.post(url, change_form(jansen, birth_date="23-11-2026", sex="male"))
    assert "Een geboortedatum kan niet in de toekomst liggen." in response.content.decode()
    jansen.refresh_from_db()
    assert (jansen.birth_date, jansen.sex) == (None, "")


def public_addresses(competition: Competition) -> list[str]:
    rapid = Competition.objects.get(season=competition.season, kind="rapid")
    players = [
        reverse("competition:player", args=[pk])
        for c in (competition, rapid)
        for pk in c.participants.values_list("pk", flat=True)
    ]
    return [
        reverse("competition:home"),
        reverse("competition:standings"),
        reverse("competition:pairing"),
        reverse("competition:rapid-standings"),
        reverse("competition:rapid-pairing"),
        reverse("competition:prizes"),
        reverse("competition:what-if"),
        reverse("members:team-players"),
        reverse("clubweek:club-calendar"),
        reverse("competition:standings-csv", args=[12]),
        reverse("competition:round-csv", args=[12]),
        reverse("competition:rapid-standings-csv", args=[9]),
        reverse("competition:rapid-round-csv", args=[9]),
        reverse("competition:pairing-print", args=[13]),
        reverse("competition:slips-print", args=[13]),
        reverse("competition:standings-print"),
        reverse("competition:rapid-pairing-print", args=[9]),
        reverse("competition:rapid-standings-print"),
        reverse("training:list"),
        *players,
    ]


@pytest.mark.parametrize("logged_in", [False, True])
def test_no_public_page_or_download_shows_a_birth_date_or_a_relation_number(
    client, demo, logged_in
):
    if logged_in:  # a member's own view of the public pages
        client.force_login(Member.objects.get(name="Jan de Zeeuw").user)
    competition = Competition.objects.get(season__name="2026-2027", kind="classical")
    members = list(Member.objects.exclude(birth_date=None))
    assert len(members) == 32 and Member.objects.exclude(sex="").count() == 32
    secrets = [str(m.knsb_number) for m in Member.objects.exclude(knsb_number=None)]
    with translation.override("nl"):
        for member in members:
            day = member.birth_date
            secrets += [
                day.isoformat(),
                day.strftime("%Y/%m/%d"),
                day.strftime("%d-%m-%Y"),
                dateformat.format(day, "j F Y"),  # 9 april 1961
            ]
    with time_machine.travel(DEMO_NOW, tick=False):
        for address in public_addresses(competition):
            response = client.get(address)
            assert response.status_code == 200, address
            body = response.content.decode("utf-8-sig")
            shown = [secret for secret in secrets if secret in body]
            assert shown == [], f"{address} shows {shown}"
