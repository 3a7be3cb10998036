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

JUNE = date(2026, 6, 1)


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
    preview = lineup.preview_newcomer(example_competition, newcomer, 4, None)
    assert preview.start_points == 45 and preview.of_players == 11
    assert preview.group == ""  # the worked example has no groups
    lineup.add_newcomer(example_competition, newcomer, 4, preview.start_points)
    ranking_3 = example_competition.rankings.get(after_round=3)
    actual = ranking_3.standings.get(participant__member=newcomer).position
    assert preview.position == actual  # the preview shows what really happens


def test_a_newcomer_is_added_and_appears_in_the_next_ranking(example_competition):
    newcomer = Member.objects.create(name="Nieuweling", estimated_rating=1650)
    lineup.add_newcomer(example_competition, newcomer, 4, Fraction(43))
    participant = Participant.objects.get(member=newcomer)
    assert participant.joined_round == 4 and participant.start_points == 43
    ranking_3 = example_competition.rankings.get(after_round=3)
    assert ranking_3.standings.filter(participant=participant).exists()
    with pytest.raises(services.CompetitionError):
        lineup.add_newcomer(example_competition, newcomer, 4, Fraction(0))
    with pytest.raises(services.CompetitionError):
        lineup.preview_newcomer(example_competition, Member.objects.create(name="x"), 9, None)


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
