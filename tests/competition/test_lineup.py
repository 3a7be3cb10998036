"""Ranking 0 and groups at season start; newcomers with suggested start points."""

import html
from datetime import date
from fractions import Fraction

import pytest
from django.urls import reverse

from competition import lineup, services
from competition.models import Participant
from members.models import ListedRating, Member, RatingList
from tests.factories import (
    make_competition,
    make_played_competition,
    make_season,
    worked_example_season,
)
from tests.moments import at

JUNE = date(2026, 6, 1)
NOW = at(12)  # Friday 18 September: ranking 3 is final, round 4 is not paired yet


@pytest.fixture
def june_list(db):
    return RatingList.objects.create(date=JUNE)


def member(name, rating=None, on=None, estimate=None):
    m = Member.objects.create(name=name, estimated_rating=estimate)
    if rating is not None:
        ListedRating.objects.create(rating_list=on, member=m, rating=rating)
    return m


def test_ranking_zero_follows_the_june_list_with_estimates_and_groups(june_list):
    july = RatingList.objects.create(date=date(2026, 7, 1))
    players = [
        member("Bakker", 1800, june_list),
        member("Jansen", 2000, june_list),
        member("Visser", 1500, june_list),
        member("Smit", estimate=1900),
        member("de Boer", 1700, june_list),
    ]
    ListedRating.objects.create(rating_list=july, member=players[2], rating=2300)
    competition = make_competition()
    lineup.fill_initial_ranking(competition, players, rating_list=june_list)
    rows = list(
        competition.participants.order_by("initial_position").values_list("member__name", "group")
    )
    # June list, not July (Visser 1500 there); Smit's estimate counts; 5 players: 2,1,1,1.
    assert rows == [
        ("Jansen", "A"),
        ("Smit", "A"),
        ("Bakker", "B"),
        ("de Boer", "C"),
        ("Visser", "D"),
    ]
    assert competition.rankings.get(after_round=0).standings.count() == 5


def test_ranking_zero_can_follow_last_seasons_final_ranking(june_list):
    previous, _ = make_played_competition(worked_example_season(), date(2025, 9, 4))
    final_order = list(
        previous.rankings.get(after_round=3)
        .standings.order_by("position")
        .values_list("participant__member__name", flat=True)
    )
    members = list(Member.objects.filter(participations__competition=previous))
    for rating, m in enumerate(members):
        ListedRating.objects.create(rating_list=june_list, member=m, rating=1500 + rating)
    newcomer = member("Nieuw", 2400, june_list)
    competition = make_competition(make_season(date(2026, 9, 3)))
    lineup.fill_initial_ranking(competition, [*members, newcomer], june_list, previous=previous)
    order = list(
        competition.participants.order_by("initial_position").values_list("member__name", flat=True)
    )
    assert order == [*final_order, "Nieuw"]  # members not in last season follow
    assert competition.participants.get(member=newcomer).group == "A"  # groups by rating


def test_ranking_zero_cannot_change_after_a_pairing(example_competition):
    with pytest.raises(services.CompetitionError):
        lineup.fill_initial_ranking(example_competition, list(Member.objects.all()))
    assert example_competition.participants.count() == 10


def test_the_suggested_start_points_put_the_newcomer_among_similar_ratings(example_competition):
    rated = RatingList.objects.create(date=JUNE)
    # Ratings in the order of ranking 2 (the reference for a newcomer joining round 4).
    for rating, standing in zip(
        range(2000, 1000, -100),
        example_competition.rankings.get(after_round=2).standings.order_by("position"),
        strict=False,
    ):
        ListedRating.objects.create(
            rating_list=rated, member=standing.participant.member, rating=rating
        )
    newcomer = Member.objects.create(name="Nieuweling", estimated_rating=1650)
    points = lineup.suggest_start_points(example_competition, newcomer, 4)
    # Ranking 2: de Jonge is 5th with 1600 (the strongest at or below 1650), total 90; the
    # value of 5th place is 46, so X > 90 - 46: 45. Not above Slager (4th: 47 + 45 = 92, his
    # total is 92) nor Jansen (3rd: 48 + 45 = 93 = 93).
    assert points == 45
    preview = lineup.preview_newcomer(example_competition, newcomer, 4, None, NOW)
    assert preview.start_points == 45 and preview.of_players == 11
    assert preview.group == ""  # the worked example has no groups
    lineup.add_newcomer(example_competition, newcomer, 4, preview.start_points, NOW)
    ranking_3 = example_competition.rankings.get(after_round=3)
    actual = ranking_3.standings.get(participant__member=newcomer).position
    assert preview.position == actual  # the preview shows what really happens


def test_a_newcomer_is_added_and_appears_in_the_next_ranking(example_competition):
    newcomer = Member.objects.create(name="Nieuweling", estimated_rating=1650)
    lineup.add_newcomer(example_competition, newcomer, 4, Fraction(43), NOW)
    participant = Participant.objects.get(member=newcomer)
    assert participant.joined_round == 4 and participant.start_points == 43
    ranking_3 = example_competition.rankings.get(after_round=3)
    assert ranking_3.standings.filter(participant=participant).exists()
    with pytest.raises(services.CompetitionError):
        lineup.add_newcomer(example_competition, newcomer, 4, Fraction(0), NOW)
    with pytest.raises(services.CompetitionError):
        lineup.preview_newcomer(example_competition, Member.objects.create(name="x"), 9, None, NOW)


def test_the_arbiter_previews_then_adds_a_newcomer(arbiter_client, example_competition):
    newcomer = Member.objects.create(name="Nieuweling", estimated_rating=1650)
    url = reverse("arbiter:newcomer", args=[example_competition.pk])
    page = arbiter_client.get(url).content.decode()
    assert 'value="4"' in page  # the next round to pair
    preview = arbiter_client.post(
        url, {"member": newcomer.pk, "joined_round": 4, "start_points": "60"}
    ).content.decode()
    # Nobody else has a rating here, so the suggestion aims above everyone: de Zeeuw leads
    # ranking 2 with 141 at value 50, so 92.
    assert "Met 60 startpunten (voorstel: 92) doet Nieuweling mee vanaf ronde 4" in preview
    assert "op plaats" in preview and "van 11 op ranglijst 3" in preview
    assert "<td>1650 (geschat)</td>" in preview  # an estimated rating is marked as such
    assert not Participant.objects.filter(member=newcomer).exists()
    arbiter_client.post(
        url, {"member": newcomer.pk, "joined_round": 4, "start_points": "60", "confirm": "1"}
    )
    assert Participant.objects.get(member=newcomer).start_points == 60


def final_record(competition):
    """Every stored ranking as (position, name, total) lines, with its correction mark."""
    return {
        ranking.after_round: (
            ranking.corrected_at,
            list(ranking.standings.values_list("position", "participant__member__name", "total")),
        )
        for ranking in competition.rankings.all()
    }


def test_a_newcomer_who_comes_while_round_4_is_paired_waits_for_its_results(published_round_4):
    """Issue 37: between a round's pairing and its results a newcomer was refused ("come back
    after the results"). Now they join round 5 at once and wait: rule 5 inserts them into
    ranking 3's order when round 4's results are in, so no published ranking ever lacked them
    and none changes."""
    competition = published_round_4.competition
    sunday = at(12, day=date(2026, 9, 20))
    newcomer = Member.objects.create(name="Nieuweling", estimated_rating=1650)
    assert lineup.joining_rounds(competition) == range(5, 6)
    with pytest.raises(services.CompetitionError, match="Ronde 4 is al ingedeeld"):
        lineup.preview_newcomer(competition, newcomer, 4, None, sunday)
    with pytest.raises(services.CompetitionError, match="uiterlijk vanaf ronde 5"):
        lineup.preview_newcomer(competition, newcomer, 6, None, sunday)
    preview = lineup.preview_newcomer(competition, newcomer, 5, Fraction(45), sunday)
    # Ranking 3 (by hand): totals 164½, 159, 140, 136, 106½, 92, 88, … at values 50, 49, 48,
    # …; the first place where value + 45 beats the total is 7th (44 + 45 = 89 > 88,
    # Pietersen), not 6th (45 + 45 = 90, Slager has 92).
    assert (preview.waits, preview.changes_published, preview.ranking) == (True, False, 3)
    assert (preview.position, preview.of_players) == (7, 11)
    assert [name for _place, name, _rating in preview.neighbours] == [
        "de Vries",
        "Slager",
        "Nieuweling",
        "Pietersen",
        "de Oude",
    ]
    record = final_record(competition)
    participant = lineup.add_newcomer(competition, newcomer, 5, Fraction(45), sunday)
    assert final_record(competition) == record  # nothing published changed
    assert participant not in {g.white for g in published_round_4.games.all()} | {
        g.black for g in published_round_4.games.all()
    }
    services.enter_results(published_round_4, {g.pk: "1-0" for g in published_round_4.games.all()})
    ranking_4 = competition.rankings.get(after_round=4)
    assert not competition.rankings.filter(corrected_at__isnull=False).exists()
    # Ranking 4 is valued with the order rule 5 made (full re-valuation starts at round 10):
    # the newcomer got the value of 7th place of 11, Pietersen that of 8th.
    valued = dict(ranking_4.standings.values_list("participant__member__name", "valuation_value"))
    assert (valued["Nieuweling"], valued["Pietersen"], valued["Slager"]) == (44, 43, 45)
    assert lineup.joining_rounds(competition) == range(5, 7)  # round 5 is not paired yet


def test_joining_right_after_a_final_ranking_says_it_changes_it(arbiter_client, round_4):
    """Friday noon: ranking 3 is final and round 4 not paired. Joining round 4 changes ranking
    3, and the preview says so and names the round that changes nothing."""
    newcomer = Member.objects.create(name="Nieuweling", estimated_rating=1650)
    competition = round_4.competition
    joins_4 = lineup.preview_newcomer(competition, newcomer, 4, Fraction(60), NOW)
    joins_5 = lineup.preview_newcomer(competition, newcomer, 5, Fraction(60), NOW)
    assert (joins_4.waits, joins_4.changes_published) == (False, True)
    assert (joins_5.waits, joins_5.changes_published) == (True, False)
    url = reverse("arbiter:newcomer", args=[competition.pk])
    page = html.unescape(
        arbiter_client.post(
            url, {"member": newcomer.pk, "joined_round": 4, "start_points": "60"}
        ).content.decode()
    )
    assert "Ranglijst 3 is definitief en gepubliceerd" in page and "Kies ronde 5" in page


def test_the_arbiter_makes_a_new_member_in_the_newcomer_form(arbiter_client, example_competition):
    """Issue 37: the member list was empty (everyone plays) with no word on what to do; a
    newcomer who is no member yet is made here, after the same preview."""
    url = reverse("arbiter:newcomer", args=[example_competition.pk])
    page = arbiter_client.get(url).content.decode()
    assert "— een nieuw lid: vul hieronder in —" in page and "naam nieuw lid" in page
    new = {"new_name": "Nieuweling", "new_email": "nieuw@example.org", "new_rating": "1650"}
    preview = arbiter_client.post(
        url, {**new, "joined_round": 4, "start_points": "60"}
    ).content.decode()
    assert "Met 60 startpunten (voorstel: 92) doet Nieuweling mee vanaf ronde 4" in preview
    assert "<td>1650 (geschat)</td>" in preview
    assert not Member.objects.filter(name="Nieuweling").exists()  # nothing stored yet
    arbiter_client.post(url, {**new, "joined_round": 4, "start_points": "60", "confirm": "1"})
    member = Member.objects.get(name="Nieuweling")
    assert (member.email, member.estimated_rating) == ("nieuw@example.org", 1650)
    assert Participant.objects.get(member=member).start_points == 60


def test_the_newcomer_form_says_what_is_missing_or_taken(arbiter_client, example_competition):
    url = reverse("arbiter:newcomer", args=[example_competition.pk])
    taken = Participant.objects.filter(competition=example_competition).first().member
    said = {
        "": "Kies een lid uit de lijst, of geef de naam van het nieuwe lid.",
        taken.name.upper(): f"Er is al een lid {taken.name.upper()}: kies dat uit de lijst.",
    }
    for name, message in said.items():
        page = arbiter_client.post(url, {"new_name": name, "joined_round": 4}).content.decode()
        assert html.unescape(message) in html.unescape(page)
    assert Member.objects.count() == Participant.objects.count()  # nobody made


def test_the_arbiter_fills_ranking_zero_in_the_admin(arbiter_client, june_list):
    players = [member("Bakker", 1800, june_list), member("Jansen", 2000, june_list)]
    competition = make_competition()
    url = reverse("arbiter:ranking-zero", args=[competition.pk])
    response = arbiter_client.post(
        url, {"rating_list": june_list.pk, "members": [m.pk for m in players]}
    )
    assert response.status_code == 302
    assert list(
        competition.participants.order_by("initial_position").values_list("member__name", flat=True)
    ) == ["Jansen", "Bakker"]
