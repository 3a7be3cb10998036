"""The evening kit on paper (competition/printing.py and the print pages): what goes on which
sheet, that the public addresses print only published rounds (and are kept for visitors), and
that the arbiter prints a draft from the round page behind the login, never cached.

The PDFs themselves (page counts, every board and name on paper) are checked in
tests/browser/test_printing.py."""

from datetime import UTC, datetime

import pytest
import time_machine
from django.contrib.auth.models import User
from django.urls import reverse

from competition import services
from competition.models import Competition
from competition.printing import balanced, filled, poster_layout
from tests.base.test_page_cache import cached
from tests.moments import at


def runs(sheets) -> list[int]:
    return [len(run) for run in sheets]


def test_boards_are_spread_evenly_over_as_few_sheets_of_25_as_they_need():
    assert runs(balanced(range(20), 25)) == [20]
    assert runs(balanced(range(25), 25)) == [25]
    assert runs(balanced(range(26), 25)) == [13, 13]  # not 25 and a lonely 1
    assert runs(balanced(range(27), 25)) == [14, 13]
    assert runs(balanced(range(51), 25)) == [17, 17, 17]
    assert balanced(range(1, 27), 25)[1][0] == 14  # in board order: sheet 2 starts at 14
    assert balanced([], 25) == [[]]


def test_result_slips_fill_every_sheet_but_the_last_in_board_order():
    assert runs(filled(range(1, 21), 8)) == [8, 8, 4]
    assert filled(range(1, 21), 8)[1] == [9, 10, 11, 12, 13, 14, 15, 16]
    assert runs(filled(range(16), 8)) == [8, 8]
    assert filled([], 8) == [[]]


def test_the_poster_holds_40_players_on_one_sheet_and_150_on_two_in_two_columns():
    forty = poster_layout(list(range(1, 41)))
    assert [runs(sheet.items) for sheet in forty] == [[20, 20]]
    assert forty[0].items[1][0] == 21  # the second column continues where the first ends
    assert forty[0].size == "large"
    many = poster_layout(list(range(1, 151)))
    assert [runs(sheet.items) for sheet in many] == [[38, 37], [38, 37]]
    assert many[1].items[0][0] == 76 and (many[1].number, many[1].of) == (2, 2)
    assert [sheet.size for sheet in many] == ["small", "small"]
    assert [runs(sheet.items) for sheet in poster_layout(list(range(80)))] == [[40, 40]]
    assert poster_layout(list(range(60)))[0].size == "medium"  # columns of 30
    assert [runs(sheet.items) for sheet in poster_layout(list(range(81)))] == [[21, 20], [20, 20]]


def print_url(name: str, round_number: int, competition) -> str:
    return f"{reverse(name, args=[round_number])}?seizoen={competition.season.name}"


def names_of(round_) -> list[tuple[int, str, str]]:
    return [
        (game.board, game.white.name, game.black.name)
        for game in round_.games.select_related("white__member", "black__member")
    ]


def test_a_published_round_prints_every_board_with_both_names_and_a_slip_each(
    client, example_competition
):
    round_3 = example_competition.rounds.get(number=3)
    boards = names_of(round_3)
    assert len(boards) == 5
    wall = client.get(print_url("competition:pairing-print", 3, example_competition))
    assert wall.status_code == 200
    page = wall.content.decode()
    assert "Indeling ronde 3" in page and "donderdag 17 september 2026" in page
    for board, white, black in boards:
        assert f'<td class="board">{board}</td><td>{white}</td><td>{black}</td>' in page
    assert "Concept" not in page  # published

    slips = client.get(print_url("competition:slips-print", 3, example_competition))
    page = slips.content.decode()
    assert page.count('<article class="slip">') == 5
    for board, white, black in boards:
        assert f"Bord {board}</span>" in page
        assert f"<dt>Wit</dt><dd>{white}</dd>" in page and f"<dt>Zwart</dt><dd>{black}</dd>" in page
    # Round 3 is played: its slips say the result instead of boxes to tick.
    assert page.count('class="slip-known"') == 5


def test_the_public_print_addresses_show_no_draft_not_even_to_the_arbiter(
    client, arbiter_client, paired_round_4
):
    competition = paired_round_4.competition
    for name in ("competition:pairing-print", "competition:slips-print"):
        assert client.get(print_url(name, 4, competition)).status_code == 404
        assert arbiter_client.get(print_url(name, 4, competition)).status_code == 404
        assert client.get(print_url(name, 9, competition)).status_code == 404  # no round 9
    elsewhere = f"{reverse('competition:pairing-print', args=[3])}?seizoen=1999-2000"
    assert client.get(elsewhere).status_code == 404


def test_the_arbiter_prints_a_draft_from_the_round_page_marked_and_never_cached(
    arbiter_client, paired_round_4
):
    change = arbiter_client.get(reverse("arbiter:round", args=[paired_round_4.pk])).content.decode()
    wall_url = reverse("arbiter:print-pairing", args=[paired_round_4.pk])
    slips_url = reverse("arbiter:print-slips", args=[paired_round_4.pk])
    assert f'href="{wall_url}"' in change and "Indeling afdrukken" in change
    assert f'href="{slips_url}"' in change and "Uitslagbriefjes afdrukken" in change
    for url in (wall_url, slips_url):
        response = arbiter_client.get(url)
        assert response.status_code == 200
        page = response.content.decode()
        assert "Concept: nog niet gepubliceerd" in page or "concept</strong>" in page
        for _board, white, black in names_of(paired_round_4):
            assert white in page and black in page
        assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    assert "Concept: nog niet gepubliceerd" in arbiter_client.get(wall_url).content.decode()


def test_only_the_arbiter_may_print_a_draft(client, jansen_client, paired_round_4, db):
    url = reverse("arbiter:print-pairing", args=[paired_round_4.pk])
    for outsider in (client, jansen_client):  # a visitor, a member: to the admin's login
        response = outsider.get(url)
        assert response.status_code == 302 and "/beheer/login/" in response["Location"]
    # Staff who may not change rounds do not see drafts anywhere (`views.sees_drafts`).
    clerk = User.objects.create_user("clerk", password="x", is_staff=True)
    client.force_login(clerk)
    assert client.get(url).status_code == 403


def test_a_visitors_print_pages_are_kept_in_the_page_cache(client, example_competition):
    now = datetime.now(UTC).replace(second=0, microsecond=0)  # a stored page lives a minute
    with time_machine.travel(now, tick=False):
        for url in (
            print_url("competition:pairing-print", 3, example_competition),
            print_url("competition:slips-print", 3, example_competition),
            f"{reverse('competition:standings-print')}?seizoen={example_competition.season.name}",
        ):
            assert "DSC Drachten" in cached(client, url)


@time_machine.travel(at(21), tick=False)  # Friday 21:00: round 4 is published, played Thursday
def test_the_pairing_page_links_the_print_pages_of_a_published_round_to_come(
    client, paired_round_4
):
    competition = paired_round_4.competition
    season = f"?seizoen={competition.season.name}"
    pairing = f"{reverse('competition:pairing')}{season}"
    assert "/indeling/4/afdrukken/" not in client.get(pairing).content.decode()  # a draft
    services.publish(paired_round_4, at(20))
    page = client.get(pairing).content.decode()
    assert f'href="/indeling/4/afdrukken/{season}"' in page
    assert f'href="/indeling/4/uitslagbriefjes/{season}"' in page
    standings = client.get(f"{reverse('competition:standings')}{season}").content.decode()
    assert f'href="/ranglijst/3/afdrukken/{season}"' in standings


@pytest.mark.parametrize("kind", ["standings-print", "standings-round-print"])
def test_the_poster_shows_every_player_of_the_ranking_with_total_and_value(
    client, example_competition, kind
):
    args = [] if kind == "standings-print" else [3]
    url = f"{reverse('competition:' + kind, args=args)}?seizoen={example_competition.season.name}"
    page = client.get(url).content.decode()
    ranking = example_competition.rankings.get(after_round=3)
    standings = ranking.standings.select_related("participant__member").order_by("position")
    assert len(standings) == 10
    for standing in standings:
        assert f'<td class="pos">{standing.position}</td><th scope="row" class="name">' in page
        assert standing.participant.name in page
    # The seed's ranking 3, worked out by hand (as in test_spreadsheets): total, then value.
    for position, name, total, value in [
        (1, "de Zeeuw", "164½", 50),
        (5, "de Vries", "106½", 46),
        (10, "Bakker", "67½", 41),
    ]:
        row = page.split(f'<td class="pos">{position}</td>')[1].split("</tr>")[0]
        assert name in row
        assert f'<td class="number total">{total}</td><td class="number">{value}</td>' in row
    assert "na ronde 3, donderdag 17 september 2026" in page
    missing = f"{reverse('competition:standings-round-print', args=[7])}?seizoen=2026-2027"
    assert client.get(missing).status_code == 404


def test_the_rapid_competition_prints_its_own_rounds_and_poster(client, demo):
    rapid = Competition.objects.get(season__name="2026-2027", kind="rapid")
    round_9 = rapid.rounds.get(number=9)
    page = client.get(print_url("competition:rapid-pairing-print", 9, rapid)).content.decode()
    assert "DSC Drachten · rapidcompetitie 2026-2027" in page
    for board, white, black in names_of(round_9):
        assert f'<td class="board">{board}</td><td>{white}</td><td>{black}</td>' in page
    assert 'href="/rapid/indeling/?seizoen=2026-2027"' in page  # back to the rapid pairing
    slips = client.get(print_url("competition:rapid-slips-print", 9, rapid)).content.decode()
    assert slips.count('<article class="slip">') == round_9.games.count()
    poster = client.get(
        f"{reverse('competition:rapid-standings-print')}?seizoen=2026-2027"
    ).content.decode()
    latest = rapid.rankings.order_by("-after_round").first()
    for standing in latest.standings.select_related("participant__member"):
        assert f'<td class="pos">{standing.position}</td>' in poster
        assert standing.participant.name in poster
    assert ">Gr.</th>" not in poster  # the rapid competition has no groups
