"""A member's secret calendar link (issue 13, point 5): shown on their own profile only,
renewable there (the old link then stops working), never on any other page."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from members.models import Member

PROFILE = reverse("members:profile")
RENEW = reverse("members:renew-calendar-link")


def feed_of(token: str) -> str:
    return reverse("clubweek:member-calendar", args=[token])


def test_the_profile_shows_the_members_own_link_to_subscribe_and_to_copy(jansen_client, jansen):
    page = jansen_client.get(PROFILE).content.decode()
    token = jansen.calendar_token
    assert len(token) >= 43  # 32 random bytes, URL-safe
    assert f">http://127.0.0.1:8000/kalender/{token}.ics</textarea>" in page
    assert f'href="webcal://127.0.0.1:8000/kalender/{token}.ics"' in page
    assert "Nieuwe link maken" in page and "In je agenda" in page
    others = Member.objects.exclude(pk=jansen.pk).values_list("calendar_token", flat=True)
    assert len(set(others)) == len(others) and token not in others
    assert not any(other in page for other in others)


def test_renewing_the_link_makes_the_old_one_stop_working(jansen_client, jansen, round_4):
    old = jansen.calendar_token
    assert jansen_client.get(feed_of(old)).status_code == 200
    response = jansen_client.post(RENEW, follow=True)
    assert response.redirect_chain[-1][0] == PROFILE + "#kalender"
    page = response.content.decode()
    assert "Je nieuwe agendalink staat hieronder; de oude werkt niet meer." in page
    jansen.refresh_from_db()
    new = jansen.calendar_token
    assert new != old and f"/kalender/{new}.ics" in page and old not in page
    assert Client().get(feed_of(old)).status_code == 404
    assert Client().get(feed_of(new)).status_code == 200


def test_only_the_member_renews_their_own_link_and_only_by_posting(
    client, jansen, example_competition
):
    before = dict(Member.objects.values_list("pk", "calendar_token"))
    response = client.post(RENEW)  # a visitor
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(jansen.user)
    assert client.get(RENEW).status_code == 405  # a link followed renews nothing
    other = example_competition.participants.get(member__name="Pietersen").member
    client.post(RENEW, {"member": other.pk, "pk": other.pk})
    after = dict(Member.objects.values_list("pk", "calendar_token"))
    assert after[jansen.pk] != before[jansen.pk]
    assert {pk: t for pk, t in after.items() if pk != jansen.pk} == {
        pk: t for pk, t in before.items() if pk != jansen.pk
    }


def test_no_other_page_shows_a_calendar_token(client, round_4, jansen):
    tokens = list(Member.objects.values_list("calendar_token", flat=True))
    player = round_4.competition.participants.get(member=jansen)
    urls = [
        reverse("competition:home"),
        reverse("competition:standings"),
        reverse("competition:pairing"),
        reverse("competition:player", args=[player.pk]),
        reverse("competition:prizes"),
        reverse("clubweek:club-calendar"),
    ]
    for url in urls:
        assert not any(token in Client().get(url).content.decode() for token in tokens), url
    client.force_login(jansen.user)
    for url in [*urls, reverse("absences:mine")]:
        assert not any(token in client.get(url).content.decode() for token in tokens), url


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_every_existing_member_a_token_of_their_own():
    executor = MigrationExecutor(connection)
    executor.migrate([("members", "0003_member_mail_choices")])
    apps = executor.loader.project_state([("members", "0003_member_mail_choices")]).apps
    for name in ("Anne", "Bert", "Cor"):
        apps.get_model("members", "Member").objects.create(name=name)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    tokens = list(Member.objects.values_list("calendar_token", flat=True))
    assert len(tokens) == 3 and len(set(tokens)) == 3
    assert all(len(token) >= 43 for token in tokens)
    assert Member.objects.create(name="Dirk").calendar_token not in tokens
