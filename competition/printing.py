"""The club evening on paper: the pairing list for the wall, a result slip per board and the
standings poster (docs/site.md, "The evening kit, printed").

What goes on which sheet is decided here, not left to the browser's page breaks: each sheet is
sized in the print stylesheets to hold its share, so the number of pages follows from the
numbers below and a test can count them. Read from what is stored; nothing is computed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import ceil
from typing import TypeVar

from competition.models import Game, Ranking, Round
from competition.tables import StandingRow, standings_rows

BOARDS_PER_SHEET = 25  # the wall list: one A4 portrait page up to 25 boards
SLIPS_PER_SHEET = 8  # result slips: two columns of four on A4 portrait
POSTER_PER_SHEET = 80  # the standings poster: A4 landscape, two columns of at most 40
POSTER_COLUMNS = 2
# The poster's type size: the largest whose rows hold the page's longest column and whose name
# column holds the page's longest name on one line (a wrapped name makes its row twice as high:
# 40 names of 40 characters in "large" took a second sheet). Rows, characters, size.
POSTER_SIZES = (
    (20, 22, "large"),
    (30, 32, "medium"),
    (POSTER_PER_SHEET // POSTER_COLUMNS, 44, "small"),
)

T = TypeVar("T")


def balanced(items: Sequence[T], most: int) -> list[list[T]]:
    """The items in as few runs of at most `most` as possible, in order, as equal as possible
    (the longer runs first): 26 boards are two sheets of 13, not 25 and 1. None: one empty."""
    count = max(1, ceil(len(items) / most))
    size, longer = divmod(len(items), count)
    runs, start = [], 0
    for index in range(count):
        end = start + size + (1 if index < longer else 0)
        runs.append(list(items[start:end]))
        start = end
    return runs


def filled(items: Sequence[T], size: int) -> list[list[T]]:
    """The items in runs of exactly `size`, the last one what is left (slips to cut: every
    sheet but the last is full). None: one empty run."""
    return [list(items[start : start + size]) for start in range(0, len(items), size)] or [[]]


@dataclass(frozen=True)
class Sheet:
    """One printed page: its items, and which page of how many it is."""

    number: int
    of: int
    items: list


def sheets(runs: list[list]) -> list[Sheet]:
    return [Sheet(number, len(runs), run) for number, run in enumerate(runs, start=1)]


@dataclass(frozen=True)
class Board:
    number: int
    white: str
    black: str
    result: str  # as the site writes it ("1-0", "½-½", "1-0 r"); empty before it is played


def boards(round_: Round) -> list[Board]:
    """The round's boards in order with both names and the result, in one query."""
    labels = dict(Game.Result.choices)
    games = round_.games.select_related("white__member", "black__member").order_by("board")
    return [
        Board(game.board, game.white.name, game.black.name, labels.get(game.result, ""))
        for game in games
    ]


def pairing_sheets(round_: Round) -> list[Sheet]:
    """The wall list: the boards spread evenly over as few A4 pages of 25 as they need."""
    return sheets(balanced(boards(round_), BOARDS_PER_SHEET))


def slip_sheets(round_: Round) -> list[Sheet]:
    """The result slips, eight to a page in board order."""
    return sheets(filled(boards(round_), SLIPS_PER_SHEET))


@dataclass(frozen=True)
class PosterSheet(Sheet):
    size: str = "large"  # the type size: large, medium or small (POSTER_SIZES)


def poster_layout(rows: Sequence[StandingRow]) -> list[PosterSheet]:
    """The poster's pages, each a list of columns (top to bottom, then the next column), with
    the type size that fits the page's longest column and its longest name (POSTER_SIZES)."""
    pages = balanced(rows, POSTER_PER_SHEET)
    laid_out = []
    for number, page in enumerate(pages, start=1):
        columns = balanced(page, ceil(len(page) / POSTER_COLUMNS) or 1)
        longest = max(len(column) for column in columns)
        widest = max(len(getattr(row, "name", "")) for row in page)
        size = next(
            (
                size
                for rows, characters, size in POSTER_SIZES
                if longest <= rows and widest <= characters
            ),
            POSTER_SIZES[-1][2],
        )
        laid_out.append(PosterSheet(number, len(pages), columns, size))
    return laid_out


def poster_sheets(ranking: Ranking) -> list[PosterSheet]:
    return poster_layout(standings_rows(ranking))
