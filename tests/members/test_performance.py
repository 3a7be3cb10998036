"""W − We and the best-team-player table with its tie-breaks (rules section 8)."""

import random
from decimal import Decimal

import pytest
from django.urls import reverse

from members import performance, services
from members.models import ExternalGame, Member, Team, TeamMatch, TeamPlayerLot
from members.performance import ExternalResult
from members.performance import best_team_player_table as table_with_minimum


def best_team_player_table(results, lots):
    """DSC's table: at least 5 games (rule e, written out, not read from the club)."""
    return table_with_minimum(results, lots, 5)


def test_we_is_the_logistic_expectation_and_w_minus_we_has_two_decimals():
    assert performance.expected_score(1800, 1800) == 0.5
    # D = 200: 1 / (1 + 10^-0.5) = 0.7597
    assert round(performance.expected_score(2000, 1800), 4) == 0.7597
    assert performance.w_minus_we("1/2", 2000, 1800) == Decimal("-0.26")
    assert performance.w_minus_we("1", 1800, 2000) == Decimal("0.76")
    assert performance.w_minus_we("0", 1800, 1800) == Decimal("-0.50")


def results(member, w_we, colours="wwwww", scores="11111"):
    return [
        ExternalResult(
            member,
            "white" if c == "w" else "black",
            "1" if s == "1" else "1/2" if s == "r" else "0",
            Decimal(w_we),
        )
        for c, s in zip(colours, scores, strict=True)
    ]


def test_fewer_than_five_games_do_not_count():
    table = best_team_player_table(results(1, "0.5", "wwww", "1111"), {})
    assert table == []


def test_the_tie_breaks_in_the_clubs_order():
    table = best_team_player_table(
        [
            *results(1, "0.2"),  # 1.00: the most W−We
            *results(2, "0.1", "bbbbb"),  # 0.50, five blacks
            *results(3, "0.1", "wbwbw"),  # 0.50, one white more
            *results(4, "0.1", "wbwbwb", "000000")[:0],
            *results(4, "0.1", "wbwbw"),  # same as 3
        ],
        {},
    )
    assert [row.member_id for row in table][:2] == [1, 2]
    assert table[0].decided_by == ["w_minus_we"] and table[1].decided_by == ["colour_balance"]
    assert table[2].tied_with_next  # 3 and 4 are equal on every rule: lots needed


def test_fewer_games_then_percentage_then_lots():
    six = [*results(1, "0.1"), ExternalResult(1, "black", "0", Decimal("-0.1"))]  # 0.4 in 6
    table = best_team_player_table(
        [*six, *results(2, "0.08", "wwwww", "1r111"), *results(3, "0.08", "wwwww", "1rr11")], {}
    )
    # 2 and 3 have 0.40 in 5 games, 1 has 0.40 in 6 but one black: colours first.
    assert [row.member_id for row in table] == [1, 2, 3]
    assert table[0].decided_by == ["colour_balance"] and table[1].decided_by == ["percentage"]
    with_lots = best_team_player_table([*results(5, "0.1"), *results(6, "0.1")], {5: 2, 6: 1})
    assert [row.member_id for row in with_lots] == [6, 5] and with_lots[0].decided_by == ["lots"]


@pytest.fixture
def season_with_a_tie(db):
    team = Team.objects.create(season="2026-2027", name="DSC 1", league="KNSB")
    tied = [Member.objects.create(name=n) for n in ("Anne", "Jelle", "Sietse")]
    for number in range(5):
        match = TeamMatch.objects.create(
            team=team, date=f"2026-10-{number + 3:02d}", opponent="Sneek"
        )
        for board, member in enumerate(tied, start=1):
            ExternalGame.objects.create(
                match=match,
                board=board,
                member=member,
                colour="white",
                opponent_name="X",
                own_rating=1800,
                opponent_rating=1800,
                score="1",
            )
    return tied


def test_a_drawing_of_lots_is_recorded_once(season_with_a_tie):
    assert services.draw_lots("2026-2027", random.Random(1)) == 3
    lots = dict(TeamPlayerLot.objects.values_list("member__name", "lot"))
    assert sorted(lots.values()) == [1, 2, 3]
    assert services.draw_lots("2026-2027", random.Random(2)) == 0
    assert dict(TeamPlayerLot.objects.values_list("member__name", "lot")) == lots
    table = services.team_player_table("2026-2027")
    winner = min(lots, key=lots.get)
    assert Member.objects.get(pk=table[0].member_id).name == winner
    assert table[0].w_minus_we == Decimal("2.50")  # five wins at equal rating: 5 × 0.50


def test_the_published_w_minus_we_wins(season_with_a_tie):
    game = ExternalGame.objects.filter(member__name="Anne").first()
    game.published_w_we = Decimal("0.47")
    game.save()
    table = services.team_player_table("2026-2027")
    assert table[0].w_minus_we == Decimal("2.47") or table[-1].w_minus_we == Decimal("2.47")
    anne = next(row for row in table if row.member_id == game.member_id)
    assert anne.w_minus_we == Decimal("2.47") and anne.rank == 3


def test_the_public_table_and_the_lots_notice(client, season_with_a_tie):
    page = client.get(reverse("members:team-players")).content.decode()
    assert "Beste teamspeler 2026-2027" in page
    assert "Enkele spelers zijn op alle regels gelijk: de wedstrijdleider loot." in page
    assert page.count("<tr>") == 1 + 3
    services.draw_lots("2026-2027", random.Random(1))
    assert (
        "de wedstrijdleider loot"
        not in client.get(reverse("members:team-players")).content.decode()
    )


def test_a_board_without_own_rating_gets_the_members_rating_of_the_match_date(db):
    from datetime import date

    from members.models import ListedRating, RatingList

    member = Member.objects.create(name="Anne")
    for day, rating in ((date(2026, 6, 1), 1800), (date(2026, 11, 1), 1900)):
        ListedRating.objects.create(
            rating_list=RatingList.objects.create(date=day), member=member, rating=rating
        )
    team = Team.objects.create(season="2026-2027", name="DSC 1", league="KNSB")
    match = TeamMatch.objects.create(team=team, date=date(2026, 10, 10), opponent="Sneek")
    game = ExternalGame.objects.create(
        match=match,
        board=1,
        member=member,
        colour="white",
        opponent_name="X",
        opponent_rating=1800,
        score="1",
    )
    services.fill_own_ratings([game])
    game.refresh_from_db()
    assert game.own_rating == 1800 and game.w_minus_we == Decimal("0.50")
