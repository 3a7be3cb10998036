"""Creating a season (dates proposed, holidays skipped, settings copied, ranking 0 and groups)
and closing one (final standings frozen, still browsable)."""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from club.models import current as current_club
from competition import seasons, services
from competition.models import Competition, Game, Season
from members.models import ListedRating, Member, RatingList

AMSTERDAM = ZoneInfo("Europe/Amsterdam")


def test_28_weekly_dates_are_proposed(db):
    dates = seasons.proposed_dates(date(2027, 9, 2))
    assert len(dates) == 28 and dates[1] == date(2027, 9, 9) and dates[-1] == date(2028, 3, 9)


def test_the_club_proposes_its_own_number_of_evenings_on_its_own_weekday(arbiter_client):
    club = current_club()
    club.rounds_proposed, club.evening_weekday = 30, 1  # Tuesdays, as the arbiter sets them
    club.save()
    page = arbiter_client.get(reverse("arbiter:new-season")).content.decode()
    assert "er worden 30 wekelijkse data voorgesteld" in page
    tuesday = next(
        day
        for day in (timezone.localdate() + timedelta(days=n) for n in range(7))
        if day.isoweekday() == 2  # Tuesday
    )
    assert f'value="{tuesday:%d-%m-%Y}"' in page  # the first evening proposed: a Tuesday
    assert len(seasons.proposed_dates(date(2027, 8, 31))) == 30


def test_the_arbiter_creates_a_season_skipping_the_christmas_holiday(
    arbiter_client, example_competition
):
    Competition.objects.filter(pk=example_competition.pk).update(top_value=60)
    june = RatingList.objects.create(date=date(2027, 6, 1))
    for rating, member in enumerate(Member.objects.all()):
        ListedRating.objects.create(rating_list=june, member=member, rating=1500 + 10 * rating)
    url = reverse("arbiter:new-season")
    first = arbiter_client.post(
        url,
        {"name": "2027-2028", "first_evening": "2-9-2027", "evenings": "", "rating_list": june.pk},
    )
    proposal = first.context["form"]["evenings"].value().splitlines()
    assert len(proposal) == 28 and proposal[0] == "02-09-2027"
    evenings = [d for d in proposal if d not in ("23-12-2027", "30-12-2027")]
    evenings += ["16-03-2028", "23-03-2028"]
    response = arbiter_client.post(
        url,
        {
            "name": "2027-2028",
            "first_evening": "2-9-2027",
            "evenings": "\n".join(evenings),
            "rating_list": june.pk,
        },
    )
    assert response.status_code == 302
    competition = Competition.objects.get(season__name="2027-2028")
    assert competition.top_value == 60  # copied from last season
    assert competition.rounds.count() == 28
    assert not competition.rounds.filter(date=date(2027, 12, 23)).exists()
    assert competition.rounds.get(number=17).date == date(2028, 1, 6)
    assert competition.rounds.get(number=1).publish_at == datetime(
        2027, 8, 27, 20, tzinfo=AMSTERDAM
    )
    assert competition.participants.count() == 10
    assert set(competition.participants.values_list("group", flat=True)) == set("ABCD")
    first_player = competition.participants.order_by("initial_position").first()
    strongest = ListedRating.objects.filter(rating_list=june).order_by("-rating").first().member
    assert first_player.member == strongest  # ranking 0 follows the June list


def test_a_bad_date_is_named(arbiter_client, db):
    response = arbiter_client.post(
        reverse("arbiter:new-season"),
        {"name": "2027-2028", "first_evening": "2-9-2027", "evenings": "2-9-2027\n31-2-2028"},
    )
    assert (
        "Regel 2: &#x27;31-2-2028&#x27; is geen datum zoals 3-9-2027." in response.content.decode()
    )
    assert not Season.objects.filter(name="2027-2028").exists()


def test_a_closed_season_is_final_and_still_browsable(
    arbiter_client, client, example_competition, round_4
):
    arbiter_client.post(
        reverse("arbiter:close-season", args=[example_competition.season.pk]),
        {"confirm": "1", "reason": "De competitie stopt na ronde 3."},
    )
    example_competition.refresh_from_db()
    assert example_competition.season.is_closed
    game = Game.objects.get(round__number=1, board=1)
    with pytest.raises(services.CompetitionError) as refused:
        services.enter_results(game.round, {game.pk: "0-1"})
    assert refused.value.messages[0] == "Seizoen 2026-2027 is afgesloten; de stand is definitief."
    assert Game.objects.get(pk=game.pk).result == "1-0"
    with pytest.raises(services.CompetitionError):
        services.make_pairing(round_4)
    page = client.get(reverse("competition:standings") + "?seizoen=2026-2027").content.decode()
    assert "Ranglijst 3, na ronde 3." in page
    prizes = client.get(reverse("competition:prizes")).content.decode()
    assert "Voorlopig" not in prizes and "de Zeeuw — plaats 1" in prizes
