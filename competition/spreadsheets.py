"""Plain CSV files for anyone's spreadsheet: a round's results and a ranking.

Written for a Dutch spreadsheet (Excel and LibreOffice in Dutch open it with a double click):
fields separated by `;`, numbers with a decimal comma, UTF-8 with a byte-order mark (without
it Excel reads the file as Windows-1252 and "Hylke Sânen" comes out garbled), lines ending
in CRLF. Amounts are numbers a spreadsheet can add: exact where two decimals hold them (40,
71,5, 18,8), else rounded to two decimals, a half up (15⅔ → 15,67).

What is in them is what the public pages show (names, results, points); never a relation
number, an e-mail address or a birth date. A name that a spreadsheet would take for a formula
(starting with =, +, -, @) is written with a leading apostrophe, which shows it as text.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from fractions import Fraction

from django.http import HttpResponse
from django.utils.text import capfirst, slugify
from django.utils.translation import gettext as _

from club.models import current as current_club
from competition.models import Competition, Game, Participant, Ranking, Round, Standing

DELIMITER = ";"
ENCODING = "utf-8-sig"  # UTF-8 with the byte-order mark
CONTENT_TYPE = "text/csv; charset=utf-8"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def number(amount: Fraction | int | str) -> str:
    """An amount as a Dutch spreadsheet reads a number: 40, 71,5, 18,8, 15,67 (two decimals,
    a half up, when two do not hold it exactly)."""
    hundredths = Fraction(amount) * 100
    rounded = (2 * hundredths.numerator + hundredths.denominator) // (2 * hundredths.denominator)
    whole, cents = divmod(abs(rounded), 100)
    sign = "-" if rounded < 0 else ""
    if not cents:
        return f"{sign}{whole}"
    return f"{sign}{whole},{cents:02d}".rstrip("0")


def text(value: str) -> str:
    """Text a spreadsheet shows as text, never runs as a formula."""
    return f"'{value}" if value.startswith(FORMULA_STARTS) else value


def csv_bytes(rows: Iterable[list[str]]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=DELIMITER, lineterminator="\r\n")
    writer.writerows(rows)
    return out.getvalue().encode(ENCODING)


def ranking_rows(ranking: Ranking) -> list[list[str]]:
    """Position, name, group, total, value and the points of each round as valued in this
    ranking, read from the stored snapshot."""
    header = [_("Position"), _("Name"), capfirst(_("group")), _("Total"), capfirst(_("value"))]
    header += [_("Round %(number)s") % {"number": n} for n in range(1, ranking.after_round + 1)]
    standings = (
        Standing.objects.filter(ranking=ranking)
        .select_related("participant__member")
        .order_by("position")
    )
    return [header] + [
        [
            str(s.position),
            text(s.participant.name),
            s.participant.group,
            number(s.total),
            str(s.value),
            *(number(points) for points in s.points),
        ]
        for s in standings
    ]


def round_rows(round_: Round) -> list[list[str]]:
    """Board, white, black and result of each game, and the bye, as the pairing page shows
    them (a result not in yet is empty)."""
    names = {
        pk: member_name or guest_name
        for pk, member_name, guest_name in Participant.objects.filter(
            competition_id=round_.competition_id
        ).values_list("pk", "member__name", "guest_name")
    }
    labels = dict(Game.Result.choices)
    rows = [[_("Board"), _("White"), _("Black"), _("Result")]]
    for board, white, black, result in round_.games.order_by("board").values_list(
        "board", "white_id", "black_id", "result"
    ):
        rows.append([str(board), text(names[white]), text(names[black]), labels.get(result, "")])
    if round_.bye_id:
        rows.append(["", text(names[round_.bye_id]), "", _("Bye")])
    return rows


def file_name(competition: Competition, what: str) -> str:
    """dsc-2026-2027-ranglijst-12.csv, dsc-2026-2027-rapid-ronde-4.csv: the club's short name
    first."""
    kind = f"-{competition.short_name}" if competition.short_name else ""
    return f"{download_prefix()}-{slugify(competition.season.name)}{kind}-{slugify(what)}.csv"


def download_prefix() -> str:
    """The first word of every file the site hands out: the club's short name ("dsc")."""
    return slugify(current_club().short_name) or "club"


def download(rows: list[list[str]], name: str) -> HttpResponse:
    response = HttpResponse(csv_bytes(rows), content_type=CONTENT_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
