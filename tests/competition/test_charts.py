"""The season in a picture: the charts' geometry without a database, then the pages' charts
against the stored snapshots."""

import re
import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from competition import charts
from competition.amounts import format_amount
from competition.charts import PLAYER_BOX, RACE_BOX, Point, Series
from competition.models import Competition, Ranking, Standing

WORDS = charts.Words(position="plaats", value="waarde", ranking="ranglijst", hint="Wijs aan")


def series(name, *positions, first=0):
    """A player on consecutive rankings from `first`; value and total made up from the place."""
    return Series(
        name,
        tuple(Point(first + i, p, 51 - p, f"{100 - p}½") for i, p in enumerate(positions)),
    )


def test_the_position_axis_has_one_on_top_and_whole_steps():
    top_ten = charts.position_axis(1, 26)
    assert (top_ten.first, top_ten.last) == (1, 30)  # 25 places: steps of 5, to 30
    assert top_ten.ticks == (1, 5, 10, 15, 20, 25, 30)
    leader = charts.position_axis(1, 1)  # always first: still four places below
    assert (leader.first, leader.last, leader.ticks) == (1, 5, (1, 2, 3, 4, 5))
    close = charts.position_axis(3, 7)  # the top is near: the axis starts at 1
    assert (close.first, close.last) == (1, 7)
    low = charts.position_axis(60, 150)  # a group far down: 90 places, steps of 20
    assert (low.first, low.last) == (60, 160)
    assert low.ticks == (60, 80, 100, 120, 140, 160)


def test_rankings_are_labelled_in_steps_with_the_last_one():
    assert charts.ranking_ticks(list(range(13))) == (0, 2, 4, 6, 8, 10, 12)
    assert charts.ranking_ticks(list(range(29))) == (0, 5, 10, 15, 20, 25, 28)
    assert charts.ranking_ticks([0, 1]) == (0, 1)


def test_each_point_is_drawn_at_its_ranking_and_position():
    chart = charts.draw([series("Jansen", 1, 2, 3, 2, 1)], [0, 1, 2, 3, 4], PLAYER_BOX)
    # x: 30 + ranking/4 * (370 - 30); y: positions 1..5 (four places at least) over 38..196,
    # 39.5 a place, drawn to whole units.
    marks = chart.traces[0].marks
    assert [m.x for m in marks] == [30, 115, 200, 285, 370]
    assert [m.y for m in marks] == pytest.approx([38, 77.5, 117, 77.5, 38], abs=0.5)
    assert [t.label for t in chart.position_ticks] == ["1", "2", "3", "4", "5"]
    assert [t.at for t in chart.position_ticks] == pytest.approx(
        [38, 77.5, 117, 156.5, 196], abs=0.5
    )
    assert [t.label for t in chart.ranking_ticks] == ["0", "1", "2", "3", "4"]
    assert chart.value_ticks == ()


def test_the_value_axis_names_the_value_of_each_labelled_position():
    values = {1: 50, 2: 49, 3: 48, 4: 47, 5: 46, 6: 45}
    chart = charts.draw([series("Jansen", 1, 3)], [0, 1], PLAYER_BOX, values=values)
    assert [(t.at, t.label) for t in chart.value_ticks] == [
        (t.at, str(values[int(t.label)])) for t in chart.position_ticks
    ]
    assert chart.value_ticks[0].label == "50"  # position 1 on top has the top value


def test_a_newcomers_line_starts_at_the_ranking_they_joined():
    chart = charts.draw(
        [series("Slager", 1, 2, 3, 4, 5, 6), series("Nieuw", 3, 1, first=4)],
        [0, 1, 2, 3, 4, 5],
        RACE_BOX,
    )
    newcomer = chart.traces[1].marks
    assert [m.point.ranking for m in newcomer] == [4, 5]
    assert newcomer[0].x == chart.traces[0].marks[4].x
    assert [t.style for t in chart.traces] == [0, 1]


def svg_of(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def points_of(trace: ET.Element) -> list[tuple[float, float, str]]:
    """(cx, cy, readout) of each point of a drawn line."""
    return [
        (float(g.find("circle").get("cx")), float(g.find("circle").get("cy")), g.find("text").text)
        for g in trace.findall("g")
    ]


def test_the_markup_escapes_every_name_and_gives_each_point_its_readout():
    chart = charts.draw(
        [series("<script>x</script>", 2, 1), series("O'Neill & co", 1, 2)], [0, 1], RACE_BOX
    )
    markup = charts.svg(chart, WORDS, lambda p: f"R{p.ranking} <{p.position}>", "race-x")
    assert "<script>" not in markup and "style=" not in markup
    svg = svg_of(markup)  # well-formed
    assert svg.get("role") == "img" and svg.get("aria-labelledby") == "race-x"
    traces = svg.findall("g")
    assert [t.find("text").text for t in traces] == ["<script>x</script>", "O'Neill & co"]
    assert [r for _, _, r in points_of(traces[0])] == ["R0 <2>", "R1 <1>"]
    assert all(g.get("tabindex") == "-1" for t in traces for g in t.findall("g"))


# The worked example (shared/seeds/001): Jansen's place, value and total on rankings 0-3.
JANSEN = [(0, 1, 50, "50"), (1, 1, 50, "99"), (2, 3, 48, "93"), (3, 3, 48, "140")]


def player_svg(page: str) -> ET.Element:
    return svg_of(re.search(r'<svg class="season-chart chart-player".*?</svg>', page).group())


def test_the_player_chart_shows_the_stored_snapshots(client, example_competition):
    jansen = example_competition.participant["jansen"]
    page = client.get(reverse("competition:player", args=[jansen])).content.decode()
    svg = player_svg(page)
    (trace,) = svg.findall("g")
    points = points_of(trace)
    assert [r for _, _, r in points] == [
        f"Ranglijst {k}: plaats {p}, waarde {v}, totaal {t}" for k, p, v, t in JANSEN
    ]
    # Positions 1..5 over y 38..196 (1 on top); rankings 0..3 over x 30..370.
    assert [y for _, y, _ in points] == [38, 38, 117, 117]
    assert [x for x, _, _ in points] == pytest.approx([30, 143.3, 256.7, 370], abs=0.5)
    values = {t.text for t in svg.iter("text") if t.get("class") == "chart-tick-right"}
    assert values == {"50", "49", "48", "47", "46"}  # the values of positions 1-5
    # The table: every ranking with the total's change; ranking 2 is lower without a loss of
    # points played: his win over Pietersen was valued again (49 -> 43).
    assert "<summary>Als tabel</summary>" in page
    rows = re.findall(
        r'<tr><th scope="row">(\d+)</th><td class="text-end">(\d+)</td>'
        r'<td class="text-end">(\d+)</td><td class="text-end">([^<]+)</td>'
        r'<td class="text-end">([^<]*)</td></tr>',
        page,
    )
    assert rows == [
        ("0", "1", "50", "50", ""),
        ("1", "1", "50", "99", "+49"),
        ("2", "3", "48", "93", "−6"),
        ("3", "3", "48", "140", "+47"),
    ]
    assert "Hoogst: plaats 1 op ranglijst 0; laagst: plaats 3 op ranglijst 2." in page


def race_svgs(page: str) -> dict[str, ET.Element]:
    return {
        svg.get("aria-labelledby"): svg
        for svg in map(
            svg_of, re.findall(r'<svg class="season-chart chart-race".*?</svg>', page, re.S)
        )
    }


def test_the_race_shows_the_top_ten_and_each_groups_top_ten_as_stored(client, demo):
    competition = Competition.objects.get(season__name="2026-2027", kind="classical")
    latest = competition.rankings.order_by("after_round").last()
    page = client.get(reverse("competition:standings")).content.decode()
    races = race_svgs(page)
    assert list(races) == [f"race-{key}-caption" for key in ("top", "a", "b", "c", "d")]
    stored = Standing.objects.filter(ranking__competition=competition)
    in_latest = stored.filter(ranking=latest).order_by("position")
    expected = {"top": list(in_latest[:10])} | {
        group.lower(): list(in_latest.filter(participant__group=group)[:10]) for group in "ABCD"
    }
    for key, runners in expected.items():
        traces = races[f"race-{key}-caption"].findall("g")
        assert [t.find("text").text for t in traces] == [s.participant.name for s in runners]
        for trace, runner in zip(traces, runners, strict=True):
            history = stored.filter(participant=runner.participant).order_by("ranking__after_round")
            assert [r for _, _, r in points_of(trace)] == [
                f"Ranglijst {s.ranking.after_round}: plaats {s.position}, "
                f"totaal {format_amount(s.total)}"
                for s in history
            ]
            # A lower place is drawn lower, the same place at the same height.
            drawn = [
                (s.position, y) for (_, y, _), s in zip(points_of(trace), history, strict=True)
            ]
            for position, y in drawn:
                for other, other_y in drawn:
                    assert (position < other) == (y < other_y)
    assert 'href="#verloop"' in page and 'id="verloop"' in page


def test_the_race_of_an_earlier_ranking_ends_at_that_ranking(client, demo):
    page = client.get(reverse("competition:standings-round", args=[4])).content.decode()
    first = race_svgs(page)["race-top-caption"].find("g")
    assert [r.split(":")[0] for _, _, r in points_of(first)] == [f"Ranglijst {k}" for k in range(5)]
    leader = Standing.objects.get(
        ranking__competition__season__name="2026-2027",
        ranking__competition__kind="classical",
        ranking__after_round=4,
        position=1,
    )
    assert first.find("text").text == leader.participant.name


def test_no_chart_before_the_second_ranking(client, example_competition):
    Ranking.objects.filter(competition=example_competition, after_round__gt=0).delete()
    jansen = example_competition.participant["jansen"]
    player = client.get(reverse("competition:player", args=[jansen])).content.decode()
    standings = client.get(reverse("competition:standings")).content.decode()
    assert "Plaats 1 op ranglijst 0" in player and "season-chart" not in player
    assert "Ranglijst 0: de beginranglijst." in standings and "season-chart" not in standings
