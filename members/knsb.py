"""The KNSB rating list: a pure parser (no database).

The KNSB publishes the list monthly as a zip holding one semicolon-separated CSV with the header
`Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S`, names as "Surname, First names" and CRLF
line ends. `parse` accepts the zip or the CSV itself and reports every malformed line with its
number and field; it never raises for bad content. No database; messages go through gettext.
"""

from __future__ import annotations

import csv
import io
import struct
import zipfile
import zlib
from dataclasses import dataclass
from typing import BinaryIO

from django.utils.translation import gettext as _

HEADER = ["Relatienummer", "Naam", "Titel", "FED", "Rating", "Nv", "Geboren", "S"]
MIN_RATING, MAX_RATING = 100, 3500
# A real list is a zip of about 0.5 MB holding a CSV of about 2 MB: these bounds refuse a
# "zip bomb" (or any stray large file) quickly, before it takes memory or minutes.
MAX_FILE_BYTES = 10_000_000  # the upload or file given: the zip or the CSV
MAX_CSV_BYTES = 20_000_000  # the CSV unpacked from the zip (20 MB take about 270 MB)
_CHUNK_BYTES = 1_000_000
# Everything the zip module and zlib raise on a damaged or unusual archive.
_DAMAGED_ZIP = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    zlib.error,
    EOFError,
    NotImplementedError,  # a compression method it cannot unpack
    RuntimeError,  # an encrypted member
    OSError,
    struct.error,
    ValueError,
)


class _Refused(ValueError):
    """A file the parser will not read, with the reason for the person who gave it."""


@dataclass(frozen=True)
class ListedPlayer:
    line: int
    knsb_number: int
    name: str  # as the list writes it: "Zeeuw, Jan de"
    rating: int


@dataclass(frozen=True)
class LineError:
    line: int
    field: str
    problem: str

    def __str__(self) -> str:
        if not self.line:  # about the whole file
            return self.problem
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

    @property
    def refused(self) -> str | None:
        """Why the file as a whole was not read (too large, damaged, not a list), or None."""
        return next((str(error) for error in self.errors if not error.line), None)


def too_large_problem(size: int) -> str | None:
    """Why a file of `size` bytes is not read at all, or None (check before reading it)."""
    if size > MAX_FILE_BYTES:
        return _("the file is larger than %(limit)s MB; a KNSB rating list is a few MB") % {
            "limit": MAX_FILE_BYTES // 1_000_000
        }
    return None


def parse(content: bytes) -> RatingListFile:
    """Parse a rating list given as the KNSB's zip or as the CSV inside it."""
    try:
        text = _text(_csv_bytes(content))
        return _parse_text(text)
    except _Refused as error:
        return RatingListFile((), (LineError(0, "", str(error)),))


def _parse_text(text: str) -> RatingListFile:
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=";")
    try:
        return _parse_rows(rows)
    except csv.Error as error:  # a quoted field that never ends, longer than csv allows
        problem = _("the file is not a list of fields: %(error)s") % {"error": error}
        return RatingListFile((), (LineError(rows.line_num or 1, "", problem),))


def _parse_rows(rows) -> RatingListFile:
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
    problem = too_large_problem(len(content))
    if problem:
        raise _Refused(problem)
    if not content.startswith(b"PK\x03\x04"):
        return content
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            return _only_member(archive)
    except _Refused:
        raise
    except _DAMAGED_ZIP:
        raise _Refused(_("the zip file is damaged")) from None


def _only_member(archive: zipfile.ZipFile) -> bytes:
    """The one CSV in the archive, read in chunks and never beyond MAX_CSV_BYTES, whatever
    size the archive claims for it."""
    files = [info for info in archive.infolist() if not info.is_dir()]
    if len(files) != 1 or not files[0].filename.lower().endswith((".csv", ".txt")):
        raise _Refused(_("the zip file must hold exactly one CSV file"))
    too_large = _("the CSV in the zip file is larger than %(limit)s MB") % {
        "limit": MAX_CSV_BYTES // 1_000_000
    }
    if files[0].file_size > MAX_CSV_BYTES:
        raise _Refused(too_large)
    with archive.open(files[0]) as member:
        content = read_at_most(member, MAX_CSV_BYTES, too_large)
    if content.startswith(b"PK\x03\x04"):
        raise _Refused(_("the zip file must hold the CSV itself, not another zip file"))
    return content


def read_at_most(stream: BinaryIO, limit: int, problem: str) -> bytes:
    """The stream's bytes, read in chunks and refused with `problem` past `limit` bytes."""
    chunks, size = [], 0
    while chunk := stream.read(_CHUNK_BYTES):
        size += len(chunk)
        if size > limit:
            raise _Refused(problem)
        chunks.append(chunk)
    return b"".join(chunks)


def _text(content: bytes) -> str:
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return content.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise _Refused(_("the file is not text"))  # pragma: no cover - cp1252 decodes nearly all


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
