"""Closing a season is never one click (issue 24, finding 1): a page lists what is left
undone, an unfinished season closes only with a reason, and a closed season reopens with one;
both reasons stand in the season's history."""

import time_machine
from django.urls import reverse

from competition.models import Season
from tests.moments import at


def close(client, season, **fields):
    return client.post(reverse("arbiter:close-season", args=[season.pk]), fields, follow=True)


@time_machine.travel(at(12), tick=False)
def test_an_unfinished_season_is_closed_only_with_a_reason(arbiter_client, round_4):
    season = round_4.competition.season
    page = arbiter_client.get(reverse("arbiter:close-season", args=[season.pk])).content.decode()
    assert "Het seizoen is niet af:" in page
    assert "1 ronde nog niet gespeeld: 4" in page
    refused = close(arbiter_client, season, confirm="1", reason=" ").content.decode()
    assert "Seizoen 2026-2027 is niet af: 1 ronde(s) nog te spelen" in refused
    assert not Season.objects.get(pk=season.pk).is_closed
    close(arbiter_client, season, confirm="1", reason="De club stopt met de interne competitie.")
    season.refresh_from_db()
    assert season.is_closed
    assert season.history.order_by("-history_id").first().history_change_reason == (
        "De club stopt met de interne competitie."
    )


def test_a_finished_season_closes_without_a_reason(arbiter_client, example_competition):
    season = example_competition.season
    page = arbiter_client.get(reverse("arbiter:close-season", args=[season.pk])).content.decode()
    assert "Elke ronde is gespeeld en niets wacht op een beslissing." in page
    close(arbiter_client, season, confirm="1")
    season.refresh_from_db()
    assert season.is_closed
    assert (
        season.history.order_by("-history_id").first().history_change_reason
        == "Afgesloten na de laatste ronde"
    )


def test_the_season_list_offers_no_one_click_close(arbiter_client, example_competition):
    listing = arbiter_client.get(reverse("admin:competition_season_changelist"))
    page = listing.content.decode()
    assert 'name="action"' not in page  # no list action
    assert reverse("arbiter:close-season", args=[example_competition.season.pk]) in page
    # The old one-click action is gone: posting it changes nothing.
    arbiter_client.post(
        reverse("admin:competition_season_changelist"),
        {"action": "close", "_selected_action": [example_competition.season.pk]},
    )
    assert not Season.objects.get(pk=example_competition.season.pk).is_closed


def test_a_closed_season_reopens_with_a_reason(arbiter_client, example_competition):
    season = example_competition.season
    close(arbiter_client, season, confirm="1")
    reopen = reverse("arbiter:reopen-season", args=[season.pk])
    refused = arbiter_client.post(reopen, {"confirm": "1", "reason": ""}, follow=True)
    assert "Geef een reden om het seizoen te heropenen." in refused.content.decode()
    assert Season.objects.get(pk=season.pk).is_closed
    arbiter_client.post(reopen, {"confirm": "1", "reason": "Uitslag ronde 3 bord 2 klopte niet."})
    season.refresh_from_db()
    assert not season.is_closed
    assert (
        season.history.order_by("-history_id").first().history_change_reason
        == "Uitslag ronde 3 bord 2 klopte niet."
    )
    listing = arbiter_client.get(reverse("admin:competition_season_changelist")).content.decode()
    assert reverse("arbiter:close-season", args=[season.pk]) in listing


def test_only_who_may_change_seasons_closes_one(client, django_user_model, example_competition):
    clerk = django_user_model.objects.create_user("clerk", password="x-y-z-12345", is_staff=True)
    client.force_login(clerk)
    response = client.post(
        reverse("arbiter:close-season", args=[example_competition.season.pk]), {"confirm": "1"}
    )
    assert response.status_code == 403
    assert not Season.objects.get(pk=example_competition.season.pk).is_closed
