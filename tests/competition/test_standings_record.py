"""The richer standings (issue 13, point 4): games over the board, wins/draws/losses, the
score percentage and the member's rating beside each row; the logged-in member's own row is
highlighted, a visitor's page never is. Expected numbers are worked out by hand from the
worked example's results (tests/competition/keizer/data/worked_example.json)."""

import re
from collections import Counter, defaultdict
from datetime import date
from fractions import Fraction

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competition.keizer.record import record_of
from competition.keizer.scoring import Outcome
from competition.keizer.season import Result
from competition.models import Ranking
from competition.tables import APPEARANCES, format_percentage, games_records
from members.models import ListedRating, Member, RatingList
from tests.factories import make_played_competition, worked_example_season

STANDINGS = reverse("competition:standings")


@pytest.fixture
def with_a_forfeit(db):
    """The worked example's three rounds, but de Bruin won round 1 by default: de Wit did not
    come (0-1F). Ratings: KNSB lists of 1 and 15 September and 1 October; Bakker is only
    estimated, de Wit has no rating at all."""
    season = worked_example_season(3)
    first = season.rounds[0]
    board_5 = first.games[4]._replace(result=Result.BLACK_WINS_BY_FORFEIT)
    rounds = (first._replace(games=(*first.games[:4], board_5)), *season.rounds[1:])
    competition, _ = make_played_competition(season._replace(rounds=rounds))
    jansen = Member.objects.get(name="Jansen")
    for day, rating in (
        (date(2026, 9, 1), 1650),
        (date(2026, 9, 15), 1660),
        (date(2026, 10, 1), 1700),
    ):
        ListedRating.objects.create(
            rating_list=RatingList.objects.create(date=day), member=jansen, rating=rating
        )
    Member.objects.filter(name="Bakker").update(estimated_rating=1400)
    return competition


def rows(page: str) -> dict[str, list[str]]:
    """The standings' rows by player: the text of every td cell (the name is a th)."""
    body = page.split("<tbody>")[1].split("</tbody>")[0]
    found = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        name = re.search(r'class="name-text"[^>]*>([^<]+)</a>', row)[1]
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        found[name] = [re.sub(r"<[^>]+>", "", cell).strip() for cell in cells]
    return found


# The cells: position, total, group, value, then rating, games, +, =, −, %.
RATING, GAMES, WINS, DRAWS, LOSSES, PERCENT = range(4, 10)


def record(cells: list[str]) -> list[str]:
    return cells[RATING : PERCENT + 1]


def test_each_row_has_games_over_the_board_wins_draws_losses_percentage_and_rating(
    client, with_a_forfeit
):
    table = rows(client.get(STANDINGS).content.decode())
    # Jansen: won, lost, won: 2 of 3 = 66⅔ → 67 %; rated 1660 on 17 September (round 3).
    assert record(table["Jansen"]) == ["1660", "3", "2", "0", "1", "67%"]
    # de Bruin: the forfeit win is no game; won and drew: 1½ of 2 = 75 %. No rating.
    assert record(table["de Bruin"]) == ["", "2", "1", "1", "0", "75%"]
    # de Wit: lost by default (no game), drew twice: 1 of 2 = 50 %.
    assert record(table["de Wit"]) == ["", "2", "0", "2", "0", "50%"]
    # Bakker: drew, lost, lost: ½ of 3 = 16⅔ → 17 %; an estimate is marked.
    assert record(table["Bakker"]) == ["1400*", "3", "0", "1", "2", "17%"]
    # de Zeeuw: won, won, drew: 2½ of 3 = 83⅓ → 83 %.
    assert record(table["de Zeeuw"])[GAMES - RATING :] == ["3", "2", "1", "0", "83%"]


def test_an_earlier_ranking_counts_its_own_rounds_and_the_rating_of_its_evening(
    client, with_a_forfeit
):
    page = client.get(reverse("competition:standings-round", args=[1])).content.decode()
    table = rows(page)
    # After round 1 (3 September): Jansen won his one game, rated 1650 (the 1 September list).
    assert record(table["Jansen"]) == ["1650", "1", "1", "0", "0", "100%"]
    assert record(table["de Bruin"])[GAMES - RATING :] == ["0", "0", "0", "0", "–"]
    # Ranking 0: nobody has played; ratings of the season's first evening.
    table = rows(client.get(reverse("competition:standings-round", args=[0])).content.decode())
    assert record(table["Jansen"]) == ["1650", "0", "0", "0", "0", "–"]


def test_a_percentage_is_a_whole_percent_rounded_half_up():
    assert format_percentage(Fraction(1, 2) * 100 / 4) == "13%"  # 12½ → 13
    assert format_percentage(Fraction(100, 3)) == "33%"
    assert format_percentage(None) == "–"


def own_rows(page: str) -> list[str]:
    return re.findall(
        r'<tr class="own" aria-current="true">.*?class="name-text"[^>]*>([^<]+)<', page, re.S
    )


def test_the_logged_in_members_own_row_is_highlighted_and_a_visitors_page_never(
    example_competition, jansen, jansen_client
):
    visitor = Client()
    before = visitor.get(STANDINGS).content.decode()  # a visitor's copy, stored in the cache
    assert own_rows(before) == [] and "(jij)" not in before
    mine = jansen_client.get(STANDINGS).content.decode()
    assert own_rows(mine) == ["Jansen"]
    assert mine.count("(jij)") == 1
    # The visitor is given the stored copy again, without anybody's highlight.
    with CaptureQueriesContext(connection) as queries:
        after = visitor.get(STANDINGS).content.decode()
    assert not queries.captured_queries  # from the cache
    assert own_rows(after) == [] and after == before
    # Logged in again after a visitor's copy was stored: still rendered for the member.
    assert own_rows(jansen_client.get(STANDINGS).content.decode()) == ["Jansen"]


def test_the_start_pages_standings_mark_the_members_own_row_too(
    example_competition, jansen, jansen_client
):
    """Issue 37: the own row marked on every list, the start page's top of the standings too."""
    assert own_rows(jansen_client.get(reverse("competition:home")).content.decode()) == ["Jansen"]
    assert own_rows(Client().get(reverse("competition:home")).content.decode()) == []


def test_the_switch_for_the_rounds_is_there_and_every_round_cell_is_marked(
    client, example_competition
):
    page = client.get(STANDINGS).content.decode()
    assert 'id="show-rounds"' in page and 'for="show-rounds"' in page
    assert "Punten per ronde tonen" in page
    # Three rounds: three round headers and, per row of ten, three round cells.
    assert page.count('<th scope="col" class="rnd"') == 3
    assert page.count('<td class="rnd">') == 3 * 10


def test_the_records_read_from_the_stored_text_are_those_of_the_decoded_documents(demo):
    """`games_records` finds each entry's key and outcome in the appearances' JSON text; the
    documents decoded (the JSON field's own reading) give the same records, for every ranking
    of the demo (its byes, forfeits, absences and team matches)."""
    for ranking in Ranking.objects.filter(after_round__gte=1):
        counts = defaultdict(Counter)
        for parts in Ranking.objects.filter(
            competition_id=ranking.competition_id, after_round__range=(1, ranking.after_round)
        ).values_list("appearances", flat=True):
            for participant_id, part in parts.items():
                counts[int(participant_id)][Outcome(part[0])] += 1
        expected = {key: record_of(each) for key, each in counts.items()}
        assert games_records(ranking) == expected
        # The texts read by the caller (the standings page reads them with its rankings).
        texts = Ranking.objects.filter(
            competition_id=ranking.competition_id, after_round__range=(1, ranking.after_round)
        ).values_list(APPEARANCES, flat=True)
        assert games_records(ranking, list(texts)) == expected


def test_a_ranking_stored_anew_is_counted_anew(demo):
    """Each ranking's count is kept by its stored text: once a ranking's appearances are
    stored differently (a result corrected), its records are those of the new text, not the
    count kept of the old one; the other rankings' counts stay the same."""
    ranking = Ranking.objects.filter(after_round__gte=1).order_by("after_round").last()
    before = games_records(ranking)
    parts = ranking.appearances
    key, part = next((k, p) for k, p in parts.items() if p[0] == Outcome.WIN.value)
    parts[key] = [Outcome.LOSS.value, *part[1:]]
    Ranking.objects.filter(pk=ranking.pk).update(appearances=parts)
    after = games_records(ranking)
    participant = int(key)
    assert (after[participant].wins, after[participant].losses) == (
        before[participant].wins - 1,
        before[participant].losses + 1,
    )
    assert {k: v for k, v in after.items() if k != participant} == {
        k: v for k, v in before.items() if k != participant
    }
