"""The tables the public pages show, built from stored snapshots in a constant number of queries.

Cells are formatted here, once, so a 150-player, 28-round table renders quickly.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from functools import lru_cache
from itertools import chain
from typing import NamedTuple

from django.db.models import TextField
from django.db.models.functions import Cast
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from competition import exchange
from competition.amounts import format_amount
from competition.keizer.record import Record
from competition.keizer.scoring import Outcome
from competition.models import Absence, Game, Participant, Ranking, Round, Standing
from competition.outcomes import OUTCOME_WORDS, reason_label
from competition.templatetags.keizer import movement, player_url
from members.models import Member, Rating


@dataclass(frozen=True)
class StandingRow:
    position: int
    participant_id: int
    name: str
    group: str
    value: int
    points_cells: SafeString
    total: str
    movement: int | None  # places gained since the previous ranking; None: new
    attended: int | None = None  # rounds attended so far (prize eligibility)
    reached: bool = False  # attended at least two thirds of the season's rounds
    reachable: bool = True  # can still reach two thirds
    record: Record | None = None  # games over the board up to this ranking
    percentage: str = ""  # of the score in those games, "67%"; "–" without a game
    rating: Rating | None = None  # the member's rating on the ranking's evening
    record_cells: str = ""  # rating, games, +, =, −, % as table cells (a SafeString)


@dataclass(frozen=True)
class Attendance:
    required: int  # two thirds of the season's rounds
    remaining: int  # rounds still to play after this ranking


def standings_rows(
    ranking: Ranking,
    limit: int | None = None,
    attendance: Attendance | None = None,
    rated_on: date | None = None,
    appearances: Iterable[str] | None = None,
) -> list[StandingRow]:
    """The rows of a ranking; with `rated_on` (the ranking's evening) also each player's games
    over the board, score percentage and rating on that day (two more queries; one when the
    caller read the `appearances` texts of rankings 1 .. this one, `APPEARANCES`). The
    standings are read as values, with their players' names: no row objects."""
    standings = (
        Standing.objects.filter(ranking=ranking)
        .order_by("position")
        .values_list(
            "position",
            "participant_id",
            "participant__member_id",
            "participant__member__name",
            "participant__guest_name",
            "participant__group",
            "value",
            # The total as stored ("143/2"): `format_amount` keeps each text's notation.
            Cast("total", output_field=TextField()),
            "points",
            "attended",
        )
    )
    if limit is not None:
        standings = standings[:limit]
    previous = dict(
        Standing.objects.filter(
            ranking__competition_id=ranking.competition_id,
            ranking__after_round=ranking.after_round - 1,
        ).values_list("participant_id", "position")
    )
    records = games_records(ranking, appearances) if rated_on else {}
    ratings = member_ratings(ranking.competition_id, rated_on) if rated_on else {}
    return [
        StandingRow(
            position=position,
            participant_id=participant_id,
            name=member_name if member_id else guest_name,  # as `Participant.name`
            group=group,
            value=value,
            points_cells=points_cells(points),
            total=format_amount(total),
            movement=(previous[participant_id] - position if participant_id in previous else None),
            **_attendance(attendance, attended),
            **_record(records, ratings, participant_id, member_id, rated_on is not None),
        )
        for (
            position,
            participant_id,
            member_id,
            member_name,
            guest_name,
            group,
            value,
            total,
            points,
            attended,
        ) in standings
    ]


OWN_ROW = ' class="own" aria-current="true"'  # the logged-in member's row


def standings_body(
    rows: list[StandingRow],
    own_participant_id: int | None,
    *,
    with_record: bool,
    with_attendance: bool,
    compact: bool,
    with_movement: bool,
) -> SafeString:
    """The table rows of `_standings_table.html`, written in one pass: a 150-row table costs
    the template engine some 25 tags and filters a row. Every text is escaped; the cells
    `record_cells` and `points_cells` wrote are safe already."""
    # Not inside the f-string: makemessages (xgettext) does not read calls in one, and the
    # words left the catalogue once ("(jij)" became "(you)").
    you_words = escape(_("(you)"))
    you = f'<span class="visually-hidden"> {you_words}</span>'
    new = _movement_cell(None)  # in the reader's language: never cached
    lines = []
    for row in rows:
        own = row.participant_id == own_participant_id
        moved = row.movement
        cells = [
            f'<td class="text-end pos">{row.position}</td>',
            f'<th scope="row" class="name"><a class="name-text" '
            f'href="{_player_href(row.participant_id)}">{escape_text(row.name)}</a>'
            f"{you if own else ''}</th>",
            f'<td class="text-end fw-bold total">{escape_text(row.total)}</td>',
            f"<td>{escape_text(row.group)}</td>",
            f'<td class="text-end">{row.value}</td>',
            row.record_cells if with_record else "",
            "" if compact else row.points_cells,
            _attendance_cell(row) if with_attendance else "",
            (new if moved is None else _moved_cell(moved)) if with_movement else "",
        ]
        lines.append(
            f"\n    <tr{OWN_ROW if own else ''}>\n      "
            + "\n      ".join(cells)
            + "\n    </tr>\n  "
        )
    return mark_safe("".join(lines))


def escape_text(text: str) -> str:
    """`django.utils.html.escape` without its lazy-text wrapper (which costs more than the
    escaping, a thousand times a table): the same characters, the same entities."""
    return html.escape(str(text))


@lru_cache(maxsize=8192)
def _player_href(participant_id: int) -> str:
    return escape_text(player_url(participant_id))


@lru_cache(maxsize=512)
def _moved_cell(change: int) -> str:
    return _movement_cell(change)


def _attendance_cell(row: StandingRow) -> str:
    mark = " ✓" if row.reached else " ✗" if not row.reachable else ""
    return f'<td class="text-end">{row.attended}{mark}</td>'


def _movement_cell(change: int | None) -> str:
    direction = ""
    if change is not None and change > 0:
        direction = "movement-up"
    elif change is not None and change < 0:
        direction = "movement-down"
    return f'<td class="text-end {direction}">{escape(movement(change))}</td>'


# An entry of a stored `Ranking.appearances`: "<participant key>": ["<outcome>", opponent, match].
_APPEARANCE = re.compile(r'"(\d+)":\s*\[\s*"([a-z_]+)"')


# A ranking's stored appearances as their JSON text (`games_records`).
APPEARANCES = Cast("appearances", output_field=TextField())


def games_records(ranking: Ranking, texts: Iterable[str] | None = None) -> dict[int, Record]:
    """Each player's games over the board in rounds 1 .. `ranking.after_round`, read in one
    query from the outcomes the snapshots stored (`Ranking.appearances`), never recomputed;
    `texts`: those rankings' `APPEARANCES`, read already by the caller.
    Only each entry's key and outcome are wanted: they are found in the stored JSON text
    (`_APPEARANCE`) rather than decoding 28 documents of 150 entries into objects, and each
    text's entries are kept by the text itself (`appearance_entries`): after a saved result only
    the ranking it changed is searched again."""
    if texts is None:
        texts = Ranking.objects.filter(
            competition_id=ranking.competition_id,
            after_round__gte=1,
            after_round__lte=ranking.after_round,
        ).values_list(APPEARANCES, flat=True)
    tallies: dict[int, list[int]] = {}  # wins, draws, losses: `record_of` the outcomes
    for entry, n in Counter(chain.from_iterable(map(appearance_entries, texts))).items():
        participant_id, outcome = entry.split()
        tally = tallies.setdefault(int(participant_id), [0, 0, 0])
        column = _GAME_COLUMNS.get(outcome)
        if column is not None:
            tally[column] = n
    return {participant_id: Record(*tally) for participant_id, tally in tallies.items()}


@lru_cache(maxsize=512)
def appearance_entries(text: str) -> tuple[str, ...]:
    """The entries of one ranking's stored appearances as "<participant key> <outcome>", by
    the stored text: the same text always has the same entries (a season's 30 rankings, a
    few seasons, fit). Strings, so that counting them all again is quick."""
    return tuple(f"{key} {outcome}" for key, outcome in _APPEARANCE.findall(text))


# The outcomes `record_of` counts, by their stored value: the column of each in a Record.
_GAME_COLUMNS = {Outcome.WIN.value: 0, Outcome.DRAW.value: 1, Outcome.LOSS.value: 2}


def member_ratings(competition_id: int, on: date) -> dict[int, Rating]:
    """The rating of each member of the competition on `on` (the latest KNSB list of that day
    or before, else the arbiter's estimate), by member id: one query."""
    ratings = {}
    for pk, listed, listed_on, estimated in (
        Member.objects.filter(participations__competition_id=competition_id)
        .with_ratings(on=on)
        .values_list("pk", "listed_rating", "listed_on", "estimated_rating")
    ):  # as `Member.rating` tells them, read as values
        if listed is not None:
            ratings[pk] = Rating(listed, listed_on)
        elif estimated is not None:
            ratings[pk] = Rating(estimated, None)
    return ratings


def format_percentage(percentage: Fraction | None) -> str:
    """A whole percent, rounded half up ("66⅔" → "67%"); "–" without a game. Integer
    arithmetic: ⌊p + ½⌋ = ⌊(2n + d) / 2d⌋ for p = n/d."""
    if percentage is None:
        return "–"
    return f"{(2 * percentage.numerator + percentage.denominator) // (2 * percentage.denominator)}%"


def _record(
    records: dict[int, Record],
    ratings: dict[int, Rating],
    participant_id: int,
    member_id: int | None,
    wanted: bool,
) -> dict:
    if not wanted:
        return {}
    record = records.get(participant_id, NO_GAMES)
    rating = ratings.get(member_id)
    percentage, cells = _record_texts(record, rating)
    return {
        "record": record,
        "percentage": percentage,
        "rating": rating,
        "record_cells": cells,
    }


NO_GAMES = Record()


@lru_cache(maxsize=4096)
def _record_texts(record: Record, rating: Rating | None) -> tuple[str, SafeString]:
    """The percentage and the cells of a record and rating: the same pair always writes the
    same, and a saved result changes two players' records, so a page after it writes few."""
    percentage = format_percentage(record.percentage)
    return percentage, record_cells(record, percentage, rating)


def record_cells(record: Record, percentage: str, rating: Rating | None) -> SafeString:
    """The cells of rating, games, wins, draws, losses and percentage.

    Safe without escaping: integers, and a percentage `format_percentage` wrote."""
    shown = "" if rating is None else f"{rating.value}{'*' if rating.is_estimate else ''}"
    numbers = (shown, record.games, record.wins, record.draws, record.losses, percentage)
    return mark_safe("".join(f'<td class="text-end">{n}</td>' for n in numbers))


def _attendance(attendance: Attendance | None, attended: int) -> dict:
    if attendance is None:
        return {}
    return {
        "attended": attended,
        "reached": attended >= attendance.required,
        "reachable": attended + attendance.remaining >= attendance.required,
    }


def points_cells(points: list[str]) -> SafeString:
    """The table cells of a row's round points (class `rnd`: right-aligned, and hidden on a
    phone until the reader shows the rounds).

    Safe without escaping: every cell is `format_amount` of a Fraction (digits, a minus sign
    and fraction characters), and Fraction() refuses any other text. Building the cells
    directly keeps a 150 × 28 table fast (format_html_join costs more than the whole view).
    """
    return mark_safe("".join(map(_point_cell, points)))


@lru_cache(maxsize=4096)
def _point_cell(point: str) -> str:
    return f'<td class="rnd">{format_amount(point)}</td>'


@dataclass(frozen=True)
class PairingTable:
    """A round's boards as the rows of its table."""

    rows: SafeString
    played: bool  # some board has a result
    # Who does not play and why ("Naam (op tijd afgemeld)", in the words of
    # `competition.outcomes`), by name: the round's absences and the forfeits' losers.
    absent: SafeString


FORFEIT_WORDS = OUTCOME_WORDS[Outcome.FORFEIT_LOSS]
OWN_BOARD = ' class="own" aria-current="true"'  # the logged-in member's board


class GameSeats(NamedTuple):
    """Who sits at a board, as `exchange.team_match_absences` reads a game."""

    white_id: int
    black_id: int


def pairing_tables(rounds: list[Round], seen_by: int | None = None) -> dict[int, PairingTable]:
    """The boards of these rounds (of one competition) by round id, in a few queries; the
    board of `seen_by` (the logged-in member's participant) marked as their own.

    The rows are written here with every name escaped: a season's pairing page has some
    2,000 boards, which the template engine would take a third of a second to write.
    Who does not play: the round's absences, the members in a team match's line-up (whose
    reason takes precedence over a cancellation for the same evening, `exchange`) and the
    forfeits' losers.
    """
    if not rounds:
        return {}
    competition = rounds[0].competition
    names = {
        pk: member_name or guest_name
        for pk, member_name, guest_name in Participant.objects.filter(
            competition_id=competition.pk
        ).values_list("pk", "member__name", "guest_name")
    }
    players = {pk: f'<a href="{player_url(pk)}">{escape(name)}</a>' for pk, name in names.items()}
    labels = {value: escape(label) for value, label in Game.Result.choices}
    boards: dict[int, list[str]] = {r.pk: [] for r in rounds}
    absent: dict[int, list[tuple[str, int]]] = {r.pk: [] for r in rounds}
    seated: dict[int, list[GameSeats]] = {r.pk: [] for r in rounds}
    played: set[int] = set()
    for round_id, board, white, black, result in (
        Game.objects.filter(round__in=rounds)
        .order_by("round_id", "board")
        .values_list("round_id", "board", "white_id", "black_id", "result")
    ):
        own = OWN_BOARD if seen_by is not None and seen_by in (white, black) else ""
        boards[round_id].append(
            f"<tr{own}><td>{board}</td><td>{players[white]}</td>"
            f'<td class="text-center">{labels.get(result, "–")}</td>'
            f"<td>{players[black]}</td></tr>"
        )
        seated[round_id].append(GameSeats(white, black))
        if result:
            played.add(round_id)
        for loser in Game.DEFAULTERS.get(result, ()):
            absent[round_id].append((str(FORFEIT_WORDS), (white, black)[loser]))
    team = exchange.team_match_absences(competition, rounds, seated)
    team_words = str(Absence.Reason.TEAM.label)
    for (round_id, participant), _match in team.items():
        absent[round_id].append((team_words, participant))
    for round_id, participant, reason in Absence.objects.filter(round__in=rounds).values_list(
        "round_id", "participant_id", "reason"
    ):
        if (round_id, participant) not in team:
            absent[round_id].append((reason_label(reason), participant))
    return {
        pk: PairingTable(
            mark_safe("\n".join(rows)),
            pk in played,
            mark_safe(
                ", ".join(
                    f"{players[player]} ({escape(words)})"
                    for words, player in sorted(absent[pk], key=lambda a: names[a[1]])
                )
            ),
        )
        for pk, rows in boards.items()
    }
