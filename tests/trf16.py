"""An independent reader of FIDE's TRF-16 by its columns, for the tests of the export.

The layout is FIDE's "Format of TRF (Tournament Report File)" (handbook C.04 Annex 2, TRF16,
approved 2015). Player section, positions counted from 1 as the document counts them:

     1- 3  001             49-52  rating              81-84  points (11.5)
     5- 8  starting rank   54-56  federation          86-89  rank
       10  sex (m/w)       58-68  FIDE number         92-95  round 1: opponent's starting rank
    11-13  title           70-79  birth date              97  colour (w, b, -)
    15-47  name                   (YYYY/MM/DD)            99  result
                                                    102-109 round 2, … every 10 columns

Line 132 holds round r's date (YY/MM/DD) in the columns of round r's cell (92-99, 102-109, …).
Results: 1 = 0 played, + - forfeit, U pairing-allocated bye, H half-point bye, F full-point
bye, Z zero-point bye. Nothing here comes from the `trf` package or from the export.
"""

from __future__ import annotations

from dataclasses import dataclass

BLANK_COLUMNS = (4, 9, 14, 48, 53, 57, 69, 80, 85, 90, 91)  # between the fields
FIRST_ROUND = 92
ROUND_WIDTH = 10


def column(line: str, first: int, last: int | None = None) -> str:
    """Positions first..last of a line (1-based, inclusive, as TRF-16 numbers them)."""
    return line[first - 1 : (last or first)]


@dataclass(frozen=True)
class Cell:
    opponent: int  # 0: no opponent (a bye, or not paired)
    colour: str
    result: str


@dataclass(frozen=True)
class PlayerLine:
    start_rank: int
    sex: str
    title: str
    name: str
    rating: str
    federation: str
    player_id: str
    birth_date: str
    points: str
    rank: str
    rounds: tuple[Cell, ...]


def read_player(line: str) -> PlayerLine:
    assert column(line, 1, 3) == "001", line
    for position in BLANK_COLUMNS:
        assert column(line, position) in ("", " "), f"column {position} of {line!r}"
    rounds = []
    start = FIRST_ROUND
    while len(line) >= start:
        cell = column(line, start, start + 7)
        assert len(cell) == 8 and cell[4] == " " and cell[6] == " ", f"round cell {cell!r}"
        assert column(line, start + 8, start + 9) in ("", "  "), f"after the cell {cell!r}"
        rounds.append(Cell(int(cell[:4]), cell[5], cell[7]))
        start += ROUND_WIDTH
    return PlayerLine(
        start_rank=int(column(line, 5, 8)),
        sex=column(line, 10),
        title=column(line, 11, 13).strip(),
        name=column(line, 15, 47).strip(),
        rating=column(line, 49, 52).strip(),
        federation=column(line, 54, 56),
        player_id=column(line, 58, 68).strip(),
        birth_date=column(line, 70, 79).strip(),
        points=column(line, 81, 84).strip(),
        rank=column(line, 86, 89).strip(),
        rounds=tuple(rounds),
    )


def headers(text: str) -> dict[str, str]:
    """Each tournament line (012 … 132) by its code: what follows position 4."""
    return {line[:3]: line[4:] for line in text.splitlines() if line[:3] != "001" and line}


def players(text: str) -> list[PlayerLine]:
    return [read_player(line) for line in text.splitlines() if line.startswith("001")]


def round_dates(text: str) -> list[str]:
    line = next(line for line in text.splitlines() if line.startswith("132"))
    assert line[3 : FIRST_ROUND - 1].strip() == "", "nothing before column 92"
    dates = []
    start = FIRST_ROUND
    while len(line) >= start:
        dates.append(column(line, start, start + 7))
        assert column(line, start + 8, start + 9) in ("", "  ")
        start += ROUND_WIDTH
    return dates
