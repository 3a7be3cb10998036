"""CSV downloads of a ranking and of a round, for a Dutch spreadsheet: read back with the csv
module as Excel-NL reads them (`;`, a decimal comma, UTF-8 with a byte-order mark)."""

import csv
import gzip
import io
from datetime import UTC, datetime
from fractions import Fraction

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competition import services
from competition.keizer.season import Result
from competition.models import Absence, Competition, Participant
from competition.spreadsheets import number
from tests.factories import make_round_1_with_two_cancelled
from tests.moments import at


def read(response) -> list[list[str]]:
    """The rows as a Dutch spreadsheet reads the file."""
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response.content.startswith(b"\xef\xbb\xbf")  # the byte-order mark
    text = response.content.decode("utf-8-sig")
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))


def amount(cell: str) -> Fraction:
    """A spreadsheet's number with a decimal comma."""
    return Fraction(cell.replace(",", "."))


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (Fraction(40), "40"),
        (Fraction(143, 2), "71,5"),  # 71½
        (Fraction(94, 5), "18,8"),  # 18⅘: exact in one decimal
        (Fraction(47, 3), "15,67"),  # 15⅔
        (Fraction(241, 6), "40,17"),  # 40⅙
        (Fraction(1, 6), "0,17"),
        (Fraction(1, 8), "0,13"),  # 0.125: a half up
        (Fraction(0), "0"),
        (Fraction(-1, 2), "-0,5"),
    ],
)
def test_amounts_are_numbers_with_a_decimal_comma(value, written):
    assert number(value) == written


def test_the_standings_as_csv_are_the_seeds_ranking_3(client, example_competition):
    url = reverse("competition:standings-csv", args=[3])
    response = client.get(url)
    assert response["Content-Disposition"] == (
        'attachment; filename="dsc-2026-2027-ranglijst-3.csv"'
    )
    rows = read(response)
    assert rows[0] == [
        "Plaats",
        "Naam",
        "Groep",
        "Totaal",
        "Waarde",
        "Ronde 1",
        "Ronde 2",
        "Ronde 3",
    ]
    # Ranking 3 of the seed: every round valued with ranking 2 (de Zeeuw 42 + 48 + 24½ = 114½
    # plus his value 50 there); the value column is the new position's.
    assert rows[1] == ["1", "de Zeeuw", "", "164,5", "50", "42", "48", "24,5"]
    assert rows[5] == ["5", "de Vries", "", "106,5", "46", "0", "20,5", "44"]
    assert rows[10] == ["10", "Bakker", "", "67,5", "41", "23,5", "0", "0"]
    assert len(rows) == 11
    # A spreadsheet adds them up: the totals of the seed's ranking 3 together.
    assert sum(amount(row[3]) for row in rows[1:]) == Fraction(2247, 2)


def test_a_third_of_a_value_is_written_to_two_decimals(client, db):
    make_round_1_with_two_cancelled()
    rows = read(client.get(reverse("competition:standings-csv", args=[1])))
    # Ranking 1 after a round without board 5: de Wit and de Bruin cancelled in time, a third
    # of their values 42 and 41 (14 and 13⅔), which puts them 7th (56) and 8th (54⅔).
    assert rows[7] == ["7", "de Wit", "", "56", "44", "14"]
    assert rows[8] == ["8", "de Bruin", "", "54,67", "43", "13,67"]


def test_a_round_as_csv_has_the_boards_and_their_results(client, db):
    competition, _ = make_round_1_with_two_cancelled()
    round_1 = competition.rounds.get(number=1)
    game = round_1.games.get(board=1)
    services.enter_results(round_1, {game.pk: Result.WHITE_WINS_BY_FORFEIT.value})
    response = client.get(reverse("competition:round-csv", args=[1]))
    assert response["Content-Disposition"] == 'attachment; filename="dsc-2026-2027-ronde-1.csv"'
    assert read(response) == [
        ["Bord", "Wit", "Zwart", "Uitslag"],
        ["1", "Jansen", "Pietersen", "1-0 (reglementair)"],
        ["2", "Bakker", "Slager", "½-½"],
        ["3", "de Vries", "de Zeeuw", "0-1"],
        ["4", "de Jonge", "de Oude", "½-½"],
    ]


def test_a_published_round_without_results_and_its_bye(client, round_4):
    de_wit = round_4.competition.participants.get(member__name="de Wit")
    services.record_absence(round_4, de_wit, Absence.Reason.EXCUSED)
    services.make_pairing(round_4)
    services.publish(round_4, at(20))
    rows = read(client.get(reverse("competition:round-csv", args=[4])))
    # Nine present: the bye goes to the lowest in ranking 3, Bakker; no result is in yet.
    assert [row[0] for row in rows[1:]] == ["1", "2", "3", "4", ""]
    assert all(row[3] == "" for row in rows[1:5])
    assert rows[5] == ["", "Bakker", "", "Vrij (oneven)"]


def test_a_draft_or_a_round_that_does_not_exist_is_no_file(arbiter_client, paired_round_4):
    for number_ in (4, 99):
        assert (
            arbiter_client.get(reverse("competition:round-csv", args=[number_])).status_code == 404
        )
    assert arbiter_client.get(reverse("competition:standings-csv", args=[9])).status_code == 404


def test_a_name_a_spreadsheet_would_run_is_written_as_text(client, example_competition):
    rapid = Competition.objects.create(season=example_competition.season, kind="rapid")
    Participant.objects.create(competition=rapid, guest_name="=HYPERLINK(1)", initial_position=1)
    Participant.objects.create(competition=rapid, guest_name="@Piet", initial_position=2)
    services.recompute_rankings(rapid)
    url = reverse("competition:rapid-standings-csv", args=[0])
    response = client.get(url)
    assert response["Content-Disposition"] == (
        'attachment; filename="dsc-2026-2027-rapid-ranglijst-0.csv"'
    )
    assert [row[1] for row in read(response)[1:]] == ["'=HYPERLINK(1)", "'@Piet"]


def test_an_earlier_season_is_chosen_with_seizoen(client, example_competition):
    url = reverse("competition:standings-csv", args=[3]) + "?seizoen=2026-2027"
    assert read(client.get(url))[1][1] == "de Zeeuw"
    assert (
        client.get(reverse("competition:standings-csv", args=[3]) + "?seizoen=1900").status_code
        == 404
    )


def test_the_pages_link_the_files_of_their_season(client, example_competition):
    standings = client.get(reverse("competition:standings")).content.decode()
    assert 'href="/ranglijst/3.csv?seizoen=2026-2027" download' in standings
    earlier = client.get(reverse("competition:standings-round", args=[2])).content.decode()
    assert 'href="/ranglijst/2.csv?seizoen=2026-2027"' in earlier
    pairing = client.get(reverse("competition:pairing")).content.decode()
    for number_ in (1, 2, 3):
        assert f'href="/indeling/{number_}.csv?seizoen=2026-2027" download' in pairing
    assert "Ronde 3 als CSV (spreadsheet)" in pairing


def test_a_draft_has_no_link(arbiter_client, paired_round_4):
    with time_machine.travel(at(10), tick=False):
        pairing = arbiter_client.get(reverse("competition:pairing")).content.decode()
    assert "Concept" in pairing and "/indeling/4.csv" not in pairing


def test_a_visitor_gets_the_file_from_the_page_cache_as_a_file(example_competition):
    visitor = Client()
    url = reverse("competition:standings-csv", args=[3])
    now = datetime.now(UTC).replace(second=0, microsecond=0)
    with time_machine.travel(now, tick=False):
        first = visitor.get(url)
        with CaptureQueriesContext(connection) as queries:
            again = visitor.get(url)
            zipped = visitor.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert not queries.captured_queries  # served from the cache
    for response in (again, zipped):
        assert response["Content-Type"] == "text/csv; charset=utf-8"
        assert response["Content-Disposition"] == first["Content-Disposition"]
    assert again.content == first.content
    assert zipped["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.content) == first.content
