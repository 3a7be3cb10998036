"""The season in a picture: players' positions over every ranking, read from the stored
snapshots (one query per page) and drawn by `competition/charts.py`.

The player page shows one player's position and value; the standings page the race of the
top 10 of the ranking shown and of each group's top 10, up to that ranking.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.db.models import CharField
from django.db.models.functions import Cast
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from competition import charts
from competition.amounts import format_amount
from competition.charts import Point, Series
from competition.models import Participant, Ranking, Standing
from competition.tables import StandingRow
from competition.templatetags.keizer import player_url

RACE_SIZE = 10  # players per race chart: the top 10, each group's top 10


@dataclass(frozen=True)
class HistoryRow:
    """A ranking in the player's table."""

    ranking: int
    position: int
    value: int
    total: str
    change: str  # the total's change since the previous ranking ("" in the first)


@dataclass(frozen=True)
class PlayerChart:
    svg: SafeString
    rows: list[HistoryRow]
    best: Point  # the highest place (its first ranking)
    worst: Point  # the lowest place (its first ranking)


def _words() -> charts.Words:
    return charts.Words(
        position=_("position"),
        value=_("value"),
        ranking=_("ranking"),
        hint=_("Point at or tap a point for its ranking and total."),
    )


def _signed(amount) -> str:
    return f"+{format_amount(amount)}" if amount > 0 else format_amount(amount)


def player_chart(
    participant: Participant, rankings: Sequence[Ranking], standings: Mapping[int, Standing]
) -> PlayerChart | None:
    """The player's position and value on every stored ranking (None before the second):
    `rankings` are the competition's in order, `standings` those of the latest (they give the
    value of each position for the value axis)."""
    stored = list(
        Standing.objects.filter(participant=participant)
        .order_by("ranking__after_round")
        .values_list("ranking__after_round", "position", "value", "total")
    )
    if len(rankings) < 2 or not stored:
        return None
    points = tuple(
        Point(k, position, value, format_amount(total)) for k, position, value, total in stored
    )
    chart = charts.draw(
        [Series(participant.name, points)],
        [r.after_round for r in rankings],
        charts.PLAYER_BOX,
        values={s.position: s.value for s in standings.values()},
    )
    readout = _("Ranking %(ranking)s: position %(position)s, value %(value)s, total %(total)s")
    markup = charts.svg(chart, _words(), lambda p: readout % p._asdict(), "chart-player-caption")
    totals = [total for *_, total in stored]
    rows = [
        HistoryRow(
            p.ranking,
            p.position,
            p.value,
            p.total,
            _signed(total - before) if before is not None else "",
        )
        for p, before, total in zip(points, [None, *totals], totals, strict=False)
    ]
    return PlayerChart(
        svg=mark_safe(markup),  # charts.svg escapes every text
        rows=rows,
        best=min(points, key=lambda p: (p.position, p.ranking)),
        worst=min(points, key=lambda p: (-p.position, p.ranking)),
    )


@dataclass(frozen=True)
class Runner:
    """A player in a race chart: the legend's line and the table's row."""

    style: int
    position: int  # in the ranking shown
    name: str
    url: str
    cells: SafeString  # the table's cells: "position (total)" per ranking, empty before joining


@dataclass(frozen=True)
class RaceChart:
    key: str  # "top" or the group's letter, for the ids
    title: str
    caption: str
    svg: SafeString
    rankings: list[int]
    runners: list[Runner]


def race_charts(
    ranking: Ranking, rankings: Sequence[Ranking], rows: Sequence[StandingRow]
) -> list[RaceChart]:
    """The race of the top 10 of `ranking` (the standings shown, in `rows`) and of each
    group's top 10, over every ranking up to it (none before the second)."""
    numbers = [r.after_round for r in rankings if r.after_round <= ranking.after_round]
    if len(numbers) < 2 or not rows:
        return []
    fields = [(_("Top %(count)s") % {"count": RACE_SIZE}, "top", list(rows[:RACE_SIZE]))]
    for group in sorted({row.group for row in rows if row.group}):
        members = [row for row in rows if row.group == group][:RACE_SIZE]
        fields.append((_("Group %(group)s") % {"group": group}, group.lower(), members))
    wanted = {row.participant_id for field in fields for row in field[2]}
    points: dict[int, list[Point]] = defaultdict(list)
    for participant_id, number, position, value, total in (
        Standing.objects.filter(
            ranking__competition_id=ranking.competition_id,
            ranking__after_round__lte=ranking.after_round,
            participant_id__in=wanted,
        )
        .order_by("ranking__after_round")
        # The totals as stored ("143/2"): parsing 1,500 Fractions would cost more than the rest.
        .values_list(
            "participant_id",
            "ranking__after_round",
            "position",
            "value",
            Cast("total", output_field=CharField()),
        )
    ):
        points[participant_id].append(Point(number, position, value, format_amount(total)))
    readout = _("Ranking %(ranking)s: position %(position)s, total %(total)s")
    words = _words()
    result = []
    for title, key, members in fields:
        chart = charts.draw(
            [Series(row.name, tuple(points[row.participant_id])) for row in members],
            numbers,
            charts.RACE_BOX,
        )
        markup = charts.svg(
            chart,
            words,
            lambda p: readout % {"ranking": p.ranking, "position": p.position, "total": p.total},
            labelled_by=f"race-{key}-caption",
        )
        result.append(
            RaceChart(
                key=key,
                title=title,
                caption=_race_caption(key, title, len(members), ranking.after_round),
                svg=mark_safe(markup),  # charts.svg escapes every text
                rankings=numbers,
                runners=[
                    Runner(
                        style=trace.style,
                        position=row.position,
                        name=row.name,
                        url=player_url(row.participant_id),
                        cells=_cells(points[row.participant_id], numbers),
                    )
                    for trace, row in zip(chart.traces, members, strict=True)
                ],
            )
        )
    return result


def _race_caption(key: str, title: str, count: int, number: int) -> str:
    if key == "top":
        return _("The top %(count)s of ranking %(number)s: their position on every ranking.") % {
            "count": count,
            "number": number,
        }
    return _(
        "%(group)s: its best %(count)s of ranking %(number)s, their position on every ranking."
    ) % {"group": title, "count": count, "number": number}


def _cells(points: list[Point], numbers: list[int]) -> SafeString:
    """Safe without escaping: numbers and `format_amount` of a stored total only."""
    by_ranking = {p.ranking: p for p in points}
    return mark_safe(
        "".join(
            f"<td>{p.position} ({p.total})</td>" if (p := by_ranking.get(number)) else "<td></td>"
            for number in numbers
        )
    )
