"""Wat als (`/wat-als/`, competition/what_if.py): the ranking that would follow from chosen
results, and the likely pairing of the round after, computed on request and never stored.

The expected answers come from another path: the same results entered for real through
`services.enter_results` (and the round after paired by `services.make_pairing`, the arbiter's
"Indeling maken") inside a transaction that is rolled back, read from the stored rows; or, for
the pure function, the seed's worked example.
"""

import re
from datetime import datetime
from html import unescape
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.cache import caches
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from base import page_cache
from competition import services
from competition.amounts import format_amount
from competition.keizer.ranking import last_ranking
from competition.keizer.season import PairRequest
from competition.keizer.season import Result as R
from competition.models import Absence, Competition, Round
from competition.what_if import season_with_results
from members.models import Member
from tests.base.test_page_cache import logged_in
from tests.competition.keizer.conftest import amount
from tests.competition.keizer.test_worked_example import RANKINGS
from tests.demo import DEMO_NOW
from tests.factories import worked_example_season
from tests.rows import row_counts

AMSTERDAM = ZoneInfo("Europe/Amsterdam")
WHAT_IF = reverse("competition:what-if")
# Thursday 26 November 2026, 22:00: round 13 is played tonight; round 14 is published on Friday.
EVENING_13 = datetime(2026, 11, 26, 22, tzinfo=AMSTERDAM)
# Saturday 28 November: round 13 is final, round 14's pairing (Friday 20:00) is not made yet.
SATURDAY_AFTER_13 = datetime(2026, 11, 28, 12, tzinfo=AMSTERDAM)
# A choice for every board, cycling through every result a visitor can pick.
CHOICES = [R.WHITE_WINS, R.DRAW, R.BLACK_WINS, R.WHITE_WINS, R.BLACK_WINS_BY_FORFEIT, R.DRAW]


def demo_round(number: int) -> Round:
    return Round.objects.get(
        competition__season__name="2026-2027",
        competition__kind=Competition.Kind.CLASSICAL,
        number=number,
    )


def chosen(round_: Round) -> dict[int, str]:
    """A result for every board of the round: {board: result}."""
    boards = round_.games.order_by("board").values_list("board", flat=True)
    return {board: CHOICES[index % len(CHOICES)].value for index, board in enumerate(boards)}


def query(round_: Round, results: dict[int, str], **extra: str) -> dict[str, str]:
    return {"ronde": str(round_.number), **{f"bord-{b}": r for b, r in results.items()}, **extra}


def entered_for_real(round_: Round, results: dict[int, str]):
    """What entering these results stores, rolled back afterwards: the ranking after the round
    as (position, name, total, value) rows, and the pairing `make_pairing` then makes of the
    round after as (board, white, black) names, with the bye's name."""
    with transaction.atomic():
        games = dict(round_.games.values_list("board", "pk"))
        services.enter_results(round_, {games[board]: r for board, r in results.items()})
        ranking = round_.competition.rankings.get(after_round=round_.number)
        standings = [
            (s.position, s.participant.name, format_amount(s.total), s.value)
            for s in ranking.standings.select_related("participant__member").order_by("position")
        ]
        after = round_.competition.rounds.get(number=round_.number + 1)
        services.make_pairing(after)
        after.refresh_from_db()
        pairing = [
            (game.board, game.white.name, game.black.name)
            for game in after.games.select_related("white__member", "black__member")
        ]
        bye = after.bye.name if after.bye else ""
        transaction.set_rollback(True)
    return standings, pairing, bye


def cells(html: str, table_class: str) -> list[list[str]]:
    """The text of every body row of the table with this class, cell by cell."""
    table = html.split(f'class="table table-sm table-striped {table_class}"', 1)
    if len(table) == 1:
        table = html.split(f'class="table table-sm {table_class}"', 1)
    body = table[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [
        [
            unescape(re.sub(r"<[^>]+>", "", cell)).strip()
            for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)
        ]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


def shown_ranking(html: str) -> list[tuple]:
    return [
        (int(position), name, total, int(value))
        for position, name, total, value, _movement in cells(html, "what-if-ranking")
    ]


def shown_pairing(html: str) -> list[tuple]:
    return [(int(board), white, black) for board, white, black in cells(html, "what-if-pairing")]


def shown_bye(html: str) -> str:
    after = html.split('class="table table-sm what-if-pairing"', 1)[1]
    found = re.search(r"Vrij \(oneven\): ([^<]+)</p>", after)
    return unescape(found.group(1)) if found else ""


def selected(html: str, board: int) -> str:
    """The value the select of a board shows ("" for none)."""
    select = html.split(f'name="bord-{board}"', 1)[1].split("</select>", 1)[0]
    found = re.search(r'<option value="([^"]*)" selected[ >]', select)
    return found.group(1) if found else ""


# -- the pure function -------------------------------------------------------------------------


def test_the_season_with_round_3s_results_ranks_as_the_seed_does():
    two_rounds, three_rounds = worked_example_season(2), worked_example_season(3)
    round_3 = three_rounds.rounds[2]
    asked = season_with_results(two_rounds, 3, round_3)
    assert asked.rounds == three_rounds.rounds
    seed = [row.split() for row in RANKINGS[3].replace("\n", " ").split("|")]
    ranking = last_ranking(asked)
    assert [(s.player_id, s.value, s.total) for s in ranking.standings] == [
        (player, int(value), amount(total)) for player, value, total in seed
    ]


def test_a_round_that_counts_already_is_replaced_and_later_rounds_left_out():
    three_rounds = worked_example_season(3)
    first, second, third = three_rounds.rounds
    other = second._replace(games=tuple(g._replace(result=R.DRAW) for g in second.games))
    request = PairRequest()
    asked = season_with_results(three_rounds, 2, other, request)
    assert asked.rounds == (first, other) and asked.pair is request
    assert season_with_results(three_rounds, 3, third).rounds == three_rounds.rounds
    with pytest.raises(ValueError):
        season_with_results(three_rounds, 5, third)


# -- the page ----------------------------------------------------------------------------------


@time_machine.travel(DEMO_NOW, tick=False)
def test_the_what_if_ranking_and_pairing_are_what_entering_the_results_would_give(client, demo):
    round_13 = demo_round(13)
    results = chosen(round_13)
    # Two members cancelled round 14 in time already: the likely pairing leaves them out.
    leader = round_13.competition.rankings.get(after_round=12).standings.get(position=1)
    for standing in (leader, leader.ranking.standings.get(position=7)):
        services.record_absence(demo_round(14), standing.participant, Absence.Reason.EXCUSED)
    before = row_counts()
    response = client.get(WHAT_IF, query(round_13, results))
    assert row_counts() == before  # nothing stored
    assert response.status_code == 200
    html = response.content.decode()
    standings, pairing, bye = entered_for_real(round_13, results)
    assert shown_ranking(html) == standings
    assert len(standings) == 40
    assert shown_pairing(html) == pairing and len(pairing) == 19
    assert leader.participant.name not in {name for _board, *names in pairing for name in names}
    assert "met de afmeldingen die er nu zijn (2)" in html
    assert shown_bye(html) == bye
    assert "Waarschijnlijke indeling ronde 14" in html
    # Each board's select shows the chosen result.
    assert all(selected(html, board) == result for board, result in results.items())


@time_machine.travel(DEMO_NOW, tick=False)
def test_the_change_is_against_the_current_ranking(client, demo):
    round_13 = demo_round(13)
    now = {
        s.participant.name: s.position
        for s in round_13.competition.rankings.get(after_round=12).standings.select_related(
            "participant__member"
        )
    }
    html = client.get(WHAT_IF, query(round_13, chosen(round_13))).content.decode()
    rows = cells(html, "what-if-ranking")
    for position, name, _total, _value, movement in rows:
        change = now[name] - int(position)
        assert movement == ("–" if change == 0 else f"▲{change}" if change > 0 else f"▼{-change}")
    assert any(row[4] != "–" for row in rows)
    assert "ten opzichte van de huidige ranglijst (ranglijst 12)" in html


@time_machine.travel(DEMO_NOW, tick=False)
def test_entered_results_are_filled_in_and_the_rest_can_be_drawn(client, demo):
    round_13 = demo_round(13)
    games = dict(round_13.games.values_list("board", "pk"))
    services.enter_results(round_13, {games[1]: R.BLACK_WINS.value, games[2]: R.DRAW.value})
    html = client.get(WHAT_IF).content.decode()
    assert selected(html, 1) == R.BLACK_WINS.value and selected(html, 2) == R.DRAW.value
    assert selected(html, 3) == ""
    # Every other board counts as a draw (issue 37), and the page says which.
    drawn = {board: R.DRAW.value for board in games} | {1: R.BLACK_WINS.value}
    standings, _pairing, _bye = entered_for_real(round_13, drawn)
    assert shown_ranking(html) == standings
    assert "Borden 3, 4, 5, 6, " in html and "hebben geen uitslag: die tellen als remise" in html

    # `leeg` in an address (its button is gone): the empty boards shown filled, the same answer.
    html = client.get(WHAT_IF, {"ronde": "13", "leeg": R.DRAW.value}).content.decode()
    assert all(selected(html, board) == result for board, result in drawn.items())
    assert shown_ranking(html) == standings
    assert "hebben geen uitslag" not in html

    # An entered result can be changed in the what-if; the stored one stays.
    changed = drawn | {1: R.WHITE_WINS.value}
    html = client.get(WHAT_IF, query(round_13, changed)).content.decode()
    assert shown_ranking(html) == entered_for_real(round_13, changed)[0]
    assert round_13.games.get(board=1).result == R.BLACK_WINS.value


def test_tonights_round_can_be_changed_after_every_result_is_in(client, demo):
    round_13 = demo_round(13)
    results = chosen(round_13)
    with time_machine.travel(EVENING_13, tick=False):
        games = dict(round_13.games.values_list("board", "pk"))
        services.enter_results(round_13, {games[b]: r for b, r in results.items()})
        html = client.get(WHAT_IF).content.decode()
        # The stored results are filled in: the answer is the stored ranking, nobody moves.
        assert all(selected(html, board) == result for board, result in results.items())
        stored = entered_for_real(round_13, results)[0]
        assert shown_ranking(html) == stored
        assert {row[4] for row in cells(html, "what-if-ranking")} == {"–"}
        other = results | {1: R.BLACK_WINS.value, 2: R.WHITE_WINS.value}
        html = client.get(WHAT_IF, query(round_13, other)).content.decode()
        standings, pairing, _bye = entered_for_real(round_13, other)
        assert shown_ranking(html) == standings != stored
        assert shown_pairing(html) == pairing
    with time_machine.travel(SATURDAY_AFTER_13, tick=False):
        # Round 13 is history; round 14's pairing is not published yet: nothing to choose.
        response = client.get(WHAT_IF)
        assert response.status_code == 200
        page = response.content.decode()
        assert "geen gepubliceerde indeling" in page and "<select" not in page
        for url in (reverse("competition:home"), reverse("competition:pairing")):
            assert WHAT_IF not in client.get(url).content.decode(), url


@time_machine.travel(DEMO_NOW, tick=False)
def test_the_home_and_pairing_pages_lead_to_it_beside_the_published_round(client, demo):
    for url in (reverse("competition:home"), reverse("competition:pairing")):
        page = client.get(url).content.decode()
        round_13 = page.index("Ronde 13") if "Ronde 13" in page else page.index("ronde 13")
        link = page.index(f'href="{WHAT_IF}"')
        assert round_13 < link < page.index("Ronde 14", round_13), url
    assert WHAT_IF not in client.get(reverse("competition:rapid-pairing")).content.decode()


# Addresses nobody's form makes, and what the page says to each.
BAD_INPUT = [
    ({"bord-1": "2-0"}, "Bord 1: onbekende uitslag &#x27;2-0&#x27;."),
    ({"bord-21": R.DRAW.value}, "Ronde 13 heeft geen bord &#x27;21&#x27;."),
    ({"bord-x1": R.DRAW.value}, "Ronde 13 heeft geen bord &#x27;x1&#x27;."),
    ({"ronde": "12"}, "gekozen voor ronde 12; de ronde om uitslagen voor te kiezen is ronde 13"),
    ({"ronde": "dertien"}, "De ronde moet een getal zijn."),
    ({"leeg": "1-1"}, "Onbekende uitslag &#x27;1-1&#x27; voor de lege borden."),
]


@time_machine.travel(DEMO_NOW, tick=False)
def test_bad_input_is_told_in_dutch_with_the_form_as_stored(client, demo):
    round_13 = demo_round(13)
    games = dict(round_13.games.values_list("board", "pk"))
    services.enter_results(round_13, {games[2]: R.DRAW.value})
    before = row_counts()
    for extra, message in BAD_INPUT:
        response = client.get(WHAT_IF, query(round_13, {1: R.WHITE_WINS.value}) | extra)
        assert response.status_code == 400, extra
        html = response.content.decode()
        assert message in html, extra
        assert "Deze keuze kan niet worden berekend" in html
        # The form as stored: board 2's entered draw, board 1 (chosen in the address) empty.
        assert selected(html, 2) == R.DRAW.value and selected(html, 1) == "", extra
        assert "what-if-ranking" not in html
    assert row_counts() == before


def asked(client: Client, data: dict[str, str]) -> tuple[str, int]:
    """The page's text and how many SQL queries answering it took (0: from the page cache)."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(WHAT_IF, data)
    return response.content.decode(), len(queries)


def stored(cache: str) -> int:
    return sum(":page" in key for key in caches[cache]._cache)


@time_machine.travel(DEMO_NOW, tick=False)
def test_the_same_question_on_the_same_data_is_answered_once(demo):
    """Issue 28: a what-if is kept under its question (the round, each board's result), so
    the same choice again, in any order of the address and with anything else in it, is served
    from the page cache; the answers are kept apart from the pages'."""
    round_13 = demo_round(13)
    choice = query(round_13, chosen(round_13))
    pages, answers = stored(page_cache.PAGES), stored(page_cache.QUESTIONS)
    first, queries = asked(Client(), choice)
    assert queries and "what-if-ranking" in first
    reordered = dict(reversed(list(choice.items()))) | {"utm_source": "mail"}
    assert asked(Client(), reordered) == (first, 0)  # another visitor, the same question
    assert stored(page_cache.PAGES) == pages  # the pages' cache holds no answers
    assert stored(page_cache.QUESTIONS) == answers + 1


@time_machine.travel(DEMO_NOW, tick=False)
def test_another_choice_or_changed_data_is_computed_afresh(demo):
    round_13 = demo_round(13)
    choice = chosen(round_13)
    first, reading = asked(Client(), query(round_13, choice))
    other = choice | {1: R.BLACK_WINS.value if choice[1] != R.BLACK_WINS.value else R.DRAW.value}
    answer, queries = asked(Client(), query(round_13, other))
    assert selected(answer, 1) == other[1] != selected(first, 1)
    assert 0 < queries < reading  # computed, from the season as the first question read it
    # A result entered for real: the same question is answered from the new data.
    games = dict(round_13.games.values_list("board", "pk"))
    services.enter_results(round_13, {games[2]: R.DRAW.value})
    opened, queries = asked(Client(), {"ronde": "13"})
    assert queries and selected(opened, 2) == R.DRAW.value


@time_machine.travel(DEMO_NOW, tick=False)
def test_a_refused_question_is_never_kept(demo):
    round_13 = demo_round(13)
    bad = query(round_13, {1: "2-0"})
    for _ in range(2):
        page, queries = asked(Client(), bad)
        assert queries and "Deze keuze kan niet worden berekend" in page


@time_machine.travel(DEMO_NOW, tick=False)
def test_a_member_gets_their_own_answer_and_a_visitor_never_theirs(demo):
    round_13 = demo_round(13)
    choice = query(round_13, chosen(round_13))
    visitor_page, _ = asked(Client(), choice)
    member = logged_in(Member.objects.get(name="Jan de Zeeuw").user)
    own, queries = asked(member, choice)
    assert queries and "Uitloggen" in own and "Uitloggen" not in visitor_page
    assert asked(member, choice) == (own, 0)  # stored, the live login remembered
    assert asked(Client(), choice) == (visitor_page, 0)


@time_machine.travel(DEMO_NOW, tick=False)
def test_an_address_spelled_otherwise_never_gets_another_questions_answer(demo):
    """The page cache reads an address as the form does: a name written in %-codes is that
    name, and of a name given twice the last value counts. Otherwise one visitor's choice
    could be stored as another question's answer and given to everyone who asks that."""
    plain, _ = asked(Client(), {"ronde": "13"})
    assert selected(plain, 1) == ""

    def page(query_string: str) -> str:
        return Client().get(f"{WHAT_IF}?{query_string}").content.decode()

    assert selected(page("ronde=13&bord%2D1=0-1"), 1) == "0-1"
    assert selected(page("ronde=13&bord-1=1-0&bord-1=0-1"), 1) == "0-1"
    assert selected(page("ronde=13&bord-1=0-1&bord-1=1-0"), 1) == "1-0"
    assert selected(page("ronde=13&bord-1=1-0&bord%2D1=0-1"), 1) == "0-1"
    assert asked(Client(), {"ronde": "13"}) == (plain, 0)
