"""Issue 37, finding 3: what-if on a phone. A board without a result counts as a draw (the
answer checked against the Keizer rules by hand), each select shows a short result (the
empty one named in full for a screen reader), and a logged-in member's own board comes
first, marked, in their own copy of the page only."""

import re
from datetime import datetime
from html import unescape
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db.models import Q
from django.test import Client

from competition import services
from competition.keizer.season import Result as R
from competition.models import Round
from members.models import Member
from tests.base.test_page_cache import logged_in
from tests.competition.test_what_if import WHAT_IF, demo_round, shown_ranking
from tests.demo import DEMO_NOW
from tests.factories import FIRST_EVENING, make_played_competition, worked_example_season

AMSTERDAM = ZoneInfo("Europe/Amsterdam")
# Friday 28 August 2026, 20:00: round 1 (Thursday 3 September) is published.
PUBLISHED = datetime(2026, 8, 28, 20, tzinfo=AMSTERDAM)


@pytest.fixture
def round_1(db):
    """The worked example's ten players before their first round (ranking 0: Jansen 50,
    Pietersen 49, Bakker 48, Slager 47, de Vries 46, de Zeeuw 45, de Jonge 44, de Oude 43,
    de Wit 42, de Bruin 41), round 1 paired by the engine and published, no result in."""
    with time_machine.travel(PUBLISHED, tick=False):
        competition, _keys = make_played_competition(worked_example_season(0))
        round_ = Round.objects.create(
            competition=competition, number=1, date=FIRST_EVENING, publish_at=PUBLISHED
        )
        services.make_pairing(round_)
        services.publish(round_, PUBLISHED)
    return round_


def pairs(round_: Round) -> dict[int, tuple[str, str]]:
    return {
        game.board: (game.white.name, game.black.name)
        for game in round_.games.select_related("white__member", "black__member")
    }


def test_a_board_without_a_result_counts_as_a_draw(client, round_1):
    boards = pairs(round_1)
    assert [sorted(pair) for _board, pair in sorted(boards.items())] == [
        ["Jansen", "Pietersen"],
        ["Bakker", "Slager"],
        ["de Vries", "de Zeeuw"],
        ["de Jonge", "de Oude"],
        ["de Bruin", "de Wit"],
    ]
    # Only board 1 chosen: Jansen beats Pietersen, whichever colour he has.
    jansen_wins = R.WHITE_WINS if boards[1][0] == "Jansen" else R.BLACK_WINS
    with time_machine.travel(PUBLISHED, tick=False):
        html = client.get(WHAT_IF, {"ronde": "1", "bord-1": jansen_wins.value}).content.decode()
    # By hand, with the values of ranking 0: own value plus the opponent's whole value for a
    # win, half of it for a draw (every other board), nothing for a loss; sorted by total, and
    # each new position's value from 50 down.
    assert shown_ranking(html) == [
        (1, "Jansen", "99", 50),  # 50 + 49
        (2, "Bakker", "71½", 49),  # 48 + 47/2
        (3, "Slager", "71", 48),  # 47 + 48/2
        (4, "de Vries", "68½", 47),  # 46 + 45/2
        (5, "de Zeeuw", "68", 46),  # 45 + 46/2
        (6, "de Jonge", "65½", 45),  # 44 + 43/2
        (7, "de Oude", "65", 44),  # 43 + 44/2
        (8, "de Wit", "62½", 43),  # 42 + 41/2
        (9, "de Bruin", "62", 42),  # 41 + 42/2
        (10, "Pietersen", "49", 41),  # 49 + 0
    ]
    note = unescape(re.sub(r"\s+", " ", html))
    assert "Borden 2, 3, 4, 5 hebben geen uitslag: die tellen als remise." in note
    assert "een bord zonder uitslag, –, telt als remise" in note


def test_a_chosen_result_overrules_the_draw(client, round_1):
    """The member says otherwise by choosing: board 2 won by whoever is white there."""
    boards = pairs(round_1)
    jansen_wins = R.WHITE_WINS if boards[1][0] == "Jansen" else R.BLACK_WINS
    with time_machine.travel(PUBLISHED, tick=False):
        html = client.get(
            WHAT_IF, {"ronde": "1", "bord-1": jansen_wins.value, "bord-2": R.WHITE_WINS.value}
        ).content.decode()
    winner, loser = boards[2]
    totals = {name: total for _position, name, total, _value in shown_ranking(html)}
    # Bakker 48, Slager 47: the winner gets the other's whole value, the loser nothing.
    expected = {
        "Bakker": {"Bakker": "95", "Slager": "47"},
        "Slager": {"Slager": "95", "Bakker": "48"},
    }
    assert {winner: totals[winner], loser: totals[loser]} == expected[winner]
    assert "Borden 3, 4, 5 hebben geen uitslag" in unescape(html)


def board_selects(html: str) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """Per board's select: its label and its options as (value, text shown, full name)."""
    found = []
    for select_id, body in re.findall(
        r'<select name="bord-\d+" id="([^"]+)"[^>]*>(.*?)</select>', html, re.S
    ):
        label = re.search(rf'<label[^>]*for="{select_id}">([^<]+)</label>', html).group(1)
        options = [
            (value, unescape(shown), unescape(name or shown))
            for value, name, shown in re.findall(
                r'<option value="([^"]*)"(?: selected)?(?: aria-label="([^"]*)")?>([^<]*)</option>',
                body,
            )
        ]
        found.append((label, options))
    return found


@time_machine.travel(DEMO_NOW, tick=False)
def test_each_select_shows_a_short_result_and_names_it_in_full(client, demo):
    html = client.get(WHAT_IF).content.decode()
    selects = board_selects(html)
    assert len(selects) == demo_round(13).games.count() == 20
    for number, (label, options) in enumerate(
        sorted(selects, key=lambda s: int(s[0].split()[-1])), 1
    ):
        assert label == f"Uitslag bord {number}"
        assert options == [
            ("", "–", "nog geen uitslag: telt als remise"),
            ("1-0", "1-0", "1-0"),
            ("1/2-1/2", "½-½", "½-½"),
            ("0-1", "0-1", "0-1"),
            # Named as shown: WCAG 2.5.3 (axe's label-content-name-mismatch) wants the shown
            # text in the name, and "reg." is read as written.
            ("1-0F", "1-0 reg.", "1-0 reg."),
            ("0-1F", "0-1 reg.", "0-1 reg."),
            ("0-0F", "0-0 reg.", "0-0 reg."),
        ]


def own_marks(html: str) -> tuple[list[str], int]:
    """The boards in the order the page lists them, and how many rows are marked as own."""
    boards = html.split('class="table table-sm align-middle what-if-boards"', 1)[1]
    boards = boards.split("</tbody>", 1)[0]
    order = re.findall(r"<tr[^>]*>\s*<td>(\d+)</td>", boards)
    return order, html.count('class="what-if-own"')


@time_machine.travel(DEMO_NOW, tick=False)
def test_a_members_own_board_comes_first_and_marked_in_their_copy_only(demo):
    jan = Member.objects.get(name="Jan de Zeeuw")
    round_13 = demo_round(13)
    own = round_13.games.get(Q(white__member=jan) | Q(black__member=jan))
    assert own.board != 1
    member = logged_in(jan.user)
    page = member.get(WHAT_IF).content.decode()
    order, marked = own_marks(page)
    assert order[0] == str(own.board)
    assert sorted(order, key=int) == [str(n) for n in range(1, 21)]
    assert marked == 2  # the board and Jan's line in the ranking that would follow
    assert 'Jan de Zeeuw <span class="what-if-you">(jij)</span>' in page
    # A visitor after him gets the boards in order, nobody marked (the page cache keeps the
    # member's copy apart).
    for _ in range(2):
        visitor = Client().get(WHAT_IF).content.decode()
        order, marked = own_marks(visitor)
        assert order == [str(n) for n in range(1, 21)] and marked == 0
        assert "(jij)" not in visitor
