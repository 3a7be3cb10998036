"""The season in a picture: charts of positions over the rankings, drawn on the server as SVG.

Pure: plain numbers in, geometry and markup out; no Django, no database
(`competition/histories.py` reads the stored snapshots and gives them here). Position 1 is on
top. Every point carries a readout (ranking, position, value, total) that CSS shows when the
point is pointed at or tapped (it is focusable without being a tab stop), so it works without
JavaScript and on a phone; the numbers themselves are also given as a table beside the chart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from math import ceil
from typing import NamedTuple

# Steps between the labels of an axis: each is 1, 2 or 5 times a power of ten (25 too).
NICE_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)
MIN_POSITIONS = 4  # the position axis spans at least this many places
MAX_POSITION_STEPS = 6  # at most this many intervals between the position labels
MAX_RANKING_LABELS = 8  # what fits under a chart on a 390 px phone
SERIES_STYLES = 10  # `.series-0` … `.series-9` in static/css/charts.css


class Point(NamedTuple):  # a tuple: a season's standings page makes 1,500 of them
    """One player in one stored ranking."""

    ranking: int
    position: int
    value: int
    total: str  # as shown: 71½


@dataclass(frozen=True)
class Series:
    """One player's points, in ranking order."""

    name: str
    points: tuple[Point, ...]


@dataclass(frozen=True)
class Box:
    """The plot area inside the drawing: the room for the labels is outside it."""

    width: int
    height: int
    left: int
    right: int  # x of the plot's right edge
    top: int
    bottom: int  # y of the plot's bottom edge
    radius: float  # of a point


PLAYER_BOX = Box(width=400, height=230, left=30, right=370, top=38, bottom=196, radius=4)
RACE_BOX = Box(width=400, height=290, left=30, right=388, top=50, bottom=256, radius=2.5)


@dataclass(frozen=True)
class Tick:
    at: float  # x (rankings) or y (positions, values)
    label: str


class Mark(NamedTuple):
    """A point as drawn."""

    x: float
    y: float
    point: Point


@dataclass(frozen=True)
class Trace:
    """A series as drawn, with its style number (0-9: its colour and dash)."""

    name: str
    style: int
    marks: tuple[Mark, ...]


@dataclass(frozen=True)
class Chart:
    box: Box
    ranking_ticks: tuple[Tick, ...]
    position_ticks: tuple[Tick, ...]
    value_ticks: tuple[Tick, ...]  # on the right; none when the chart has no value axis
    traces: tuple[Trace, ...]


@dataclass(frozen=True)
class Axis:
    """A position axis: from `first` (top) to `last` (bottom), labelled at `ticks`."""

    first: int
    last: int
    ticks: tuple[int, ...]


def nice_step(span: float, intervals: int) -> int:
    """The smallest nice step that cuts `span` into at most `intervals` parts."""
    return next((s for s in NICE_STEPS if span / s <= intervals), NICE_STEPS[-1])


def position_axis(best: int, worst: int) -> Axis:
    """The positions shown: from the best to the worst place reached, widened to whole steps
    and to place 1 when the top is close (within half the span), at least MIN_POSITIONS."""
    span = max(worst - best, MIN_POSITIONS)
    if best - 1 <= span / 2:
        best = 1
    span = max(worst - best, MIN_POSITIONS)
    step = nice_step(span, MAX_POSITION_STEPS)
    first = 1 if best == 1 else max(1, best // step * step)
    last = max(ceil(worst / step) * step, first + MIN_POSITIONS)
    if first == 1:
        ticks = (1, *range(step, last + 1, step)) if step > 1 else tuple(range(1, last + 1))
    else:
        ticks = tuple(range(first, last + 1, step))
    return Axis(first, last, ticks)


def ranking_ticks(rankings: Sequence[int]) -> tuple[int, ...]:
    """The rankings labelled under the chart: whole steps from the first, and the last when
    it does not crowd the one before."""
    first, last = rankings[0], rankings[-1]
    step = nice_step(last - first, MAX_RANKING_LABELS - 1)
    ticks = list(range(first, last + 1, step))
    if ticks[-1] != last and last - ticks[-1] >= step / 2:
        ticks.append(last)
    return tuple(ticks)


def _scale(value: float, low: float, high: float, start: float, end: float) -> float:
    if high == low:
        return (start + end) / 2
    return start + (value - low) / (high - low) * (end - start)


def draw(
    series: Sequence[Series],
    rankings: Sequence[int],
    box: Box,
    values: Mapping[int, int] | None = None,
) -> Chart:
    """The geometry of a chart of `series` over `rankings` (the x-axis: every ranking of the
    competition up to the last shown, in order). `values` (position -> value) adds the values
    of the labelled positions on the right."""
    positions = [p.position for s in series for p in s.points]
    axis = position_axis(min(positions), max(positions))
    first, last = rankings[0], rankings[-1]

    x = {r: round(_scale(r, first, last, box.left, box.right)) for r in rankings}
    y = {
        p: round(_scale(p, axis.first, axis.last, box.top, box.bottom))
        for p in range(axis.first, axis.last + 1)
    }
    traces = tuple(
        Trace(
            name=s.name,
            style=index % SERIES_STYLES,
            marks=tuple(Mark(x[p.ranking], y[p.position], p) for p in s.points),
        )
        for index, s in enumerate(series)
    )
    return Chart(
        box=box,
        ranking_ticks=tuple(Tick(x[r], str(r)) for r in ranking_ticks(rankings)),
        position_ticks=tuple(Tick(y[p], str(p)) for p in axis.ticks),
        value_ticks=tuple(Tick(y[p], str(values[p])) for p in axis.ticks if p in values)
        if values
        else (),
        traces=traces,
    )


@dataclass(frozen=True)
class Words:
    """The chart's texts, in the reader's language (the caller translates)."""

    position: str  # the left axis' title
    value: str  # the right axis' title (when there is a value axis)
    ranking: str  # the x-axis' title
    hint: str  # shown until a point is pointed at


def svg(chart: Chart, words: Words, readout: Callable[[Point], str], labelled_by: str) -> str:
    """The chart as SVG markup, every text escaped. `readout` is the text of a point, shown in
    the top left corner while the point is pointed at or tapped; with several lines, the name
    of the line is shown above it. `labelled_by` is the id of the caption naming the chart."""
    box = chart.box
    several = len(chart.traces) > 1
    kind = "race" if several else "player"
    parts = [
        f'<svg class="season-chart chart-{kind}" viewBox="0 0 {box.width} {box.height}"'
        f' role="img" aria-labelledby="{escape(labelled_by)}">',
        '<path class="chart-grid" d="',
        *(f"M{box.left} {t.at}H{box.right}" for t in chart.position_ticks),
        f'"/><path class="chart-axis" d="M{box.left} {box.top}V{box.bottom}H{box.right}',
        f'V{box.top}"/>' if chart.value_ticks else '"/>',
        *(
            f'<text class="chart-tick-left" x="{box.left - 5}" y="{t.at}">{t.label}</text>'
            for t in chart.position_ticks
        ),
        *(
            f'<text class="chart-tick-right" x="{box.right + 5}" y="{t.at}">{t.label}</text>'
            for t in chart.value_ticks
        ),
        *(
            f'<text class="chart-tick-below" x="{t.at}" y="{box.bottom + 14}">{t.label}</text>'
            for t in chart.ranking_ticks
        ),
        f'<text class="chart-title-left" x="{box.left}" y="{box.top - 8}">'
        f"{escape(words.position)}</text>",
    ]
    if chart.value_ticks:
        parts.append(
            f'<text class="chart-title-right" x="{box.right}" y="{box.top - 8}">'
            f"{escape(words.value)}</text>"
        )
    parts.append(
        f'<text class="chart-title-below" x="{(box.left + box.right) // 2}" y="{box.bottom + 30}">'
        f'{escape(words.ranking)}</text><text class="chart-hint">{escape(words.hint)}</text>'
    )
    for trace in chart.traces:
        parts.append(f'<g class="chart-trace series-{trace.style}"><polyline points="')
        parts.append(" ".join(f"{m.x},{m.y}" for m in trace.marks))
        parts.append('"/>')
        if several:
            parts.append(f'<text class="chart-name">{escape(trace.name)}</text>')
        parts.extend(
            f'<g tabindex="-1"><circle cx="{m.x}" cy="{m.y}" r="{box.radius}"/>'
            f"<text>{escape(readout(m.point))}</text></g>"
            for m in trace.marks
        )
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)
