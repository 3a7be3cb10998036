"""The rapid competition: its own settings, standings and pairing pages; guests may play,
only members can be rapid champion; the arbiter pairs it on the evening."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse

from clubweek import worker
from competition import services
from competition.models import Competition, Round
from tests.factories import make_season

AMSTERDAM = ZoneInfo("Europe/Amsterdam")
EVENING = date(2026, 10, 6)


@pytest.fixture
def rapid(db):
    from members.models import Member

    competition = Competition.objects.create(
        season=make_season(), kind="rapid", top_value=10, full_revaluation_from_round=None
    )
    competition.participants.create(guest_name="Gast Oosterhuis", initial_position=1)
    for position, name in enumerate(["Anne", "Jelle", "Sietse"], start=2):
        competition.participants.create(
            member=Member.objects.create(name=name), initial_position=position
        )
    services.recompute_rankings(competition)
    for number in (1, 2):  # two rounds on one evening
        round_ = Round.objects.create(
            competition=competition,
            number=number,
            date=EVENING,
            publish_at=datetime(2026, 10, 6, 19, 45, tzinfo=AMSTERDAM),
        )
        services.make_pairing(round_)
        services.publish(round_, round_.publish_at)
        services.enter_results(round_, {g.pk: "1-0" for g in round_.games.all()})
    return competition


def test_the_rapid_has_its_own_standings_with_guests(client, rapid):
    page = client.get(reverse("competition:rapid-standings")).content.decode()
    assert "Rapidranglijst 2026-2027" in page and "Gast Oosterhuis" in page
    assert "Ranglijst 2, na ronde 2." in page
    first = rapid.rankings.get(after_round=2).standings.get(position=1)
    assert first.value == 10  # the rapid's own top value
    pairing = client.get(reverse("competition:rapid-pairing")).content.decode()
    assert "Rapid: indeling en uitslagen" in pairing


def test_the_rapid_champion_is_the_highest_member(client, rapid):
    Competition.objects.create(season=rapid.season, kind="classical")
    ranking = rapid.rankings.get(after_round=2)
    top = ranking.standings.select_related("participant__member").order_by("position")
    highest_member = next(s for s in top if s.participant.member_id)
    page = client.get(reverse("competition:prizes")).content.decode()
    rapid_line = page.split('id="rapid-champion">')[1].split("</dd>")[0]
    assert rapid_line.startswith(highest_member.participant.name)


def test_the_worker_leaves_the_rapid_to_the_arbiter(rapid):
    round_3 = Round.objects.create(
        competition=rapid,
        number=3,
        date=EVENING,
        publish_at=datetime(2026, 10, 6, 19, 45, tzinfo=AMSTERDAM),
    )
    moment = datetime(2026, 10, 6, 21, tzinfo=AMSTERDAM)
    with time_machine.travel(moment, tick=False):
        worker.run_pass(moment)
    round_3.refresh_from_db()
    assert not round_3.is_published and not round_3.games.exists()


def test_the_rapid_pairing_shows_every_round_of_the_evening(client, rapid):
    # On the evening, both rounds are published: the second must not wait for tomorrow.
    with time_machine.travel(datetime(2026, 10, 6, 21, tzinfo=AMSTERDAM), tick=False):
        page = client.get(reverse("competition:rapid-pairing")).content.decode()
    for number in (1, 2):
        assert f"Ronde {number}, dinsdag 6 oktober 2026" in page
