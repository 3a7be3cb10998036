"""A member in a team match's line-up on the club evening or the day after is absent with
the team reason (2/3 of own value), unless seated in the round anyway (DSC rule f)."""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from competition import exchange, services
from competition.models import Absence, Competition, Round
from members.models import ExternalGame, Team, TeamMatch

AMSTERDAM = ZoneInfo("Europe/Amsterdam")
EVENING_4 = date(2026, 9, 24)


@pytest.fixture
def round_4(example_competition):
    return Round.objects.create(
        competition=example_competition,
        number=4,
        date=EVENING_4,
        publish_at=datetime(2026, 9, 18, 20, tzinfo=AMSTERDAM),
    )


def line_up(participant, day, board=1):
    team, _ = Team.objects.get_or_create(
        season="2026-2027", name="DSC 1", defaults={"league": "knsb"}
    )
    match, _ = TeamMatch.objects.get_or_create(
        team=team, date=day, defaults={"opponent": "Heerenveen"}
    )
    return ExternalGame.objects.create(
        match=match,
        board=board,
        member=participant.member,
        colour="white",
        opponent_name="X",
        score="1",
    )


def absent_from(round_):
    return {
        p for (r, p) in exchange.team_match_absences(round_.competition, [round_]) if r == round_.pk
    }


@pytest.mark.parametrize(("days_after", "absent"), [(0, True), (1, True), (2, False), (-1, False)])
def test_the_club_evening_or_the_day_after_counts(round_4, days_after, absent):
    jansen = round_4.competition.participants.get(member__name="Jansen")
    line_up(jansen, EVENING_4 + timedelta(days=days_after))
    assert (jansen.pk in absent_from(round_4)) is absent


def test_a_team_player_is_not_paired_and_scores_two_thirds(round_4, client):
    competition = round_4.competition
    jansen = competition.participants.get(member__name="Jansen")
    line_up(jansen, EVENING_4 + timedelta(days=1))
    services.make_pairing(round_4)
    seated = {p for g in round_4.games.all() for p in (g.white_id, g.black_id)} | {
        Round.objects.get(pk=round_4.pk).bye_id
    }
    assert jansen.pk not in seated and len(seated) == 9
    services.publish(round_4, round_4.publish_at)
    services.enter_results(round_4, {g.pk: "1/2-1/2" for g in round_4.games.all()})
    standing = competition.rankings.get(after_round=4).standings.get(participant=jansen)
    # Jansen was 3rd in ranking 3 (value 48): 2/3 of 48 is 32.
    assert standing.round_points[3] == 32 and standing.valuation_value == 48
    page = client.get(reverse("competition:player", args=[jansen.pk])).content.decode()
    assert (
        "teamwedstrijd: 2/3 × eigen waarde 48 → 32 punten (DSC 1 – Heerenveen (25-09-2026))" in page
    )


def test_a_player_seated_anyway_plays(round_4):
    services.make_pairing(round_4)
    seated = round_4.games.first().white
    line_up(seated, EVENING_4)
    assert seated.pk not in absent_from(round_4)
    assert exchange.season_for(round_4.competition, pair_round=round_4).pair.absent == {}


def test_the_team_reason_replaces_a_cancellation(round_4):
    jansen = round_4.competition.participants.get(member__name="Jansen")
    Absence.objects.create(round=round_4, participant=jansen, reason="excused")
    line_up(jansen, EVENING_4)
    absent = exchange.season_for(round_4.competition, pair_round=round_4).pair.absent
    assert absent[str(jansen.pk)].value == "team"


def test_the_rapid_competition_has_no_team_absences(round_4):
    competition = round_4.competition
    Competition.objects.filter(pk=competition.pk).update(kind="rapid")
    competition.refresh_from_db()
    jansen = competition.participants.get(member__name="Jansen")
    line_up(jansen, EVENING_4)
    assert exchange.team_match_absences(competition, [round_4]) == {}


def test_the_arbiter_sees_the_team_absence_on_the_round_page(arbiter_client, round_4):
    jansen = round_4.competition.participants.get(member__name="Jansen")
    line_up(jansen, EVENING_4 + timedelta(days=1))
    page = arbiter_client.get(reverse("admin:competition_round_change", args=[round_4.pk]))
    assert "Jansen: DSC 1 – Heerenveen (25-09-2026)" in page.content.decode()


def test_a_line_up_entered_after_the_round_recomputes_the_rankings(arbiter_client, db):
    from dataclasses import replace

    from competition.keizer.season import Absence as Reason
    from tests.factories import make_played_competition, worked_example_season

    season = worked_example_season(1)
    first = season.rounds[0]
    rounds = (
        replace(
            first,
            games=first.games[:4],
            absent={"de-wit": Reason.EXCUSED, "de-bruin": Reason.EXCUSED},
        ),
    )
    competition, pk = make_played_competition(replace(season, rounds=rounds))
    de_wit = competition.participants.get(pk=pk["de-wit"])
    team = Team.objects.create(season=competition.season.name, name="DSC 2", league="fsb")
    data = {
        "team": team.pk,
        "date": "2026-09-04",
        "opponent": "Sneek",
        "at_home": "on",
        "kind": "league",
        "games-TOTAL_FORMS": 1,
        "games-INITIAL_FORMS": 0,
        "games-MIN_NUM_FORMS": 0,
        "games-MAX_NUM_FORMS": 1000,
        "games-0-board": 1,
        "games-0-member": de_wit.member_id,
        "games-0-colour": "black",
        "games-0-opponent_name": "Y",
        "games-0-opponent_rating": "",
        "games-0-own_rating": "",
        "games-0-score": "1/2",
        "games-0-published_w_we": "",
    }
    response = arbiter_client.post(reverse("admin:members_teammatch_add"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    total = competition.rankings.get(after_round=1).standings.get(participant=de_wit).total
    assert total == 42 + 28  # own value plus 2/3 instead of 1/3
