"""The KNSB rating list: a pure parser (no database).

The KNSB publishes the list monthly as a zip holding one semicolon-separated CSV with the header
`Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S`, names as "Surname, First names" and CRLF
line ends. `parse` accepts the zip or the CSV itself and reports every malformed line with its
number and field; it never raises for bad content. No database; messages go through gettext.
"""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import dataclass

from django.utils.translation import gettext as _

HEADER = ["Relatienummer", "Naam", "Titel", "FED", "Rating", "Nv", "Geboren", "S"]
MIN_RATING, MAX_RATING = 100, 3500


@dataclass(frozen=True)
class ListedPlayer:
    line: int
    knsb_number: int
    name: str  # as the list writes it: "Zeeuw, Jan de"
    rating: int

    @property
    def display_name(self) -> str:
        """ "Zeeuw, Jan de" -> "Jan de Zeeuw"."""
        surname, _, given = self.name.partition(",")
        return f"{given.strip()} {surname.strip()}".strip()


@dataclass(frozen=True)
class LineError:
    line: int
    field: str
    problem: str

    def __str__(self) -> str:
        if self.field:
            return _("line %(line)s, field %(field)s: %(problem)s") % vars(self)
        return _("line %(line)s: %(problem)s") % vars(self)


@dataclass(frozen=True)
class RatingListFile:
    players: tuple[ListedPlayer, ...]
    errors: tuple[LineError, ...]

    @property
    def is_valid(self) -> bool:
        return not self.errors


def parse(content: bytes) -> RatingListFile:
    """Parse a rating list given as the KNSB's zip or as the CSV inside it."""
    try:
        text = _text(_csv_bytes(content))
    except ValueError as error:
        return RatingListFile((), (LineError(0, "", str(error)),))
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=";")
    header = next(rows, None)
    if header is None:
        return RatingListFile((), (LineError(1, "", _("the file is empty")),))
    if [column.strip() for column in header] != HEADER:
        expected = ";".join(HEADER)
        problem = _("the header is not %(header)s") % {"header": expected}
        return RatingListFile((), (LineError(1, "", problem),))
    players, errors, seen = [], [], {}
    for line, row in enumerate(rows, start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(HEADER):
            problem = _("%(count)s fields instead of %(expected)s")
            errors.append(
                LineError(line, "", problem % {"count": len(row), "expected": len(HEADER)})
            )
            continue
        fields = dict(zip(HEADER, (cell.strip() for cell in row), strict=True))
        player, problems = _player(line, fields)
        errors += problems
        if player is not None:
            if player.knsb_number in seen:
                problem = _("%(number)s is also on line %(other)s") % {
                    "number": player.knsb_number,
                    "other": seen[player.knsb_number],
                }
                errors.append(LineError(line, "Relatienummer", problem))
            else:
                seen[player.knsb_number] = line
                players.append(player)
    return RatingListFile(tuple(players), tuple(errors))


def _csv_bytes(content: bytes) -> bytes:
    if not content.startswith(b"PK\x03\x04"):
        return content
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            names = [n for n in archive.namelist() if n.lower().endswith((".csv", ".txt"))]
            if len(names) != 1:
                raise ValueError(_("the zip file must hold exactly one CSV file"))
            return archive.read(names[0])
    except zipfile.BadZipFile:
        raise ValueError(_("the zip file is damaged")) from None


def _text(content: bytes) -> str:
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return content.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ValueError(_("the file is not text"))  # pragma: no cover - cp1252 decodes nearly all


def _player(line: int, fields: dict[str, str]) -> tuple[ListedPlayer | None, list[LineError]]:
    problems = []
    number = fields["Relatienummer"]
    if not number.isascii() or not number.isdigit():
        problems.append(
            LineError(line, "Relatienummer", _("%(value)r is not a number") % {"value": number})
        )
    if not fields["Naam"]:
        problems.append(LineError(line, "Naam", _("the name is missing")))
    rating = fields["Rating"]
    if not rating.isascii() or not rating.isdigit():
        problems.append(
            LineError(line, "Rating", _("%(value)r is not a rating") % {"value": rating})
        )
    elif not MIN_RATING <= int(rating) <= MAX_RATING:
        problems.append(
            LineError(
                line,
                "Rating",
                _("%(value)s is not between %(low)s and %(high)s")
                % {"value": rating, "low": MIN_RATING, "high": MAX_RATING},
            )
        )
    if problems:
        return None, problems
    return ListedPlayer(line, int(number), fields["Naam"], int(rating)), []
