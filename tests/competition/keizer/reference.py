"""A deliberately naive second reading of the rules, for comparison with the engine.

Written straight from `keizer-rules.md` with Fractions and no shortcuts: every pass re-scores
every round from the games themselves. Slow, but independent of the engine's integer forms.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import floor

from competition.keizer.season import Season

SCORES = {
    "1-0": (1, 0),
    "0-1": (0, 1),
    "1/2-1/2": (Fraction(1, 2), Fraction(1, 2)),
    "1-0F": (1, 0),
    "0-1F": (0, 1),
    "0-0F": (0, 0),
}


@dataclass
class ReferenceRanking:
    order: list[str]
    totals: dict[str, Fraction]
    points: dict[str, list[Fraction]]
    valuation: list[str]
    oscillation_stop: bool


def value(position: int, season: Season) -> int:
    return max(1, season.settings.top_value - season.settings.step * (position - 1))


def round_points(player: str, round_, values: dict[str, int], season: Season) -> Fraction:
    settings = season.settings
    for game in round_.games:
        if player in (game.white, game.black):
            white_score, black_score = SCORES[game.result.value]
            if player == game.white:
                return white_score * values[game.black]
            return black_score * values[game.white]
    if round_.bye == player:
        return settings.bye_fraction * values[player]
    reason = round_.absent.get(player)
    share = {
        "excused": settings.excused_fraction,
        "team": settings.team_fraction,
        "auto": settings.auto_absence_fraction,
    }
    if reason is not None and reason.value in share:
        return share[reason.value] * values[player]
    return Fraction(0)


def totals_for(valuation: list[str], k: int, season: Season):
    start = {p.id: p.start_points for p in season.players}
    values = {player: value(i, season) for i, player in enumerate(valuation, start=1)}
    points = {
        player: [round_points(player, season.rounds[r], values, season) for r in range(k)]
        for player in valuation
    }
    totals = {player: values[player] + start[player] + sum(points[player]) for player in valuation}
    return totals, points


def sort_by(totals: dict[str, Fraction], valuation: list[str]) -> list[str]:
    return sorted(valuation, key=lambda player: (-totals[player], valuation.index(player)))


def reference_rankings(season: Season) -> list[ReferenceRanking]:
    start = {p.id: p.start_points for p in season.players}
    order = [p.id for p in season.players if p.joined_round <= 1]
    totals = {player: value(i, season) + start[player] for i, player in enumerate(order, 1)}
    rankings = [ReferenceRanking(order, totals, {p: [] for p in order}, order, False)]
    for k in range(1, len(season.rounds) + 1):
        valuation = list(order)
        known = dict(totals)
        for newcomer in (p for p in season.players if p.joined_round == k + 1):
            spot = next(
                (
                    i
                    for i, player in enumerate(valuation)
                    if value(i + 1, season) + newcomer.start_points > known[player]
                ),
                len(valuation),
            )
            valuation.insert(spot, newcomer.id)
            known[newcomer.id] = value(spot + 1, season) + newcomer.start_points
        full_from = season.settings.full_revaluation_from_round
        full = full_from is not None and k >= full_from
        history = [valuation]
        oscillation = False
        while True:
            totals, points = totals_for(valuation, k, season)
            order = sort_by(totals, valuation)
            if not full or order == valuation:
                break
            if order in history or len(history) >= 100:
                oscillation = True
                break
            history.append(order)
            valuation = order
        rankings.append(ReferenceRanking(order, totals, points, valuation, oscillation))
    return rankings


def standings_document(season: Season) -> dict:
    """The `standings` command's document (docs/keizer.md, "Command line") as a tree of plain
    values, from the reference rankings: `json.dumps(..., ensure_ascii=False)` of it is the
    text the engine's writer must print."""
    names = {p.id: p.name for p in season.players}

    def rounded(amount: Fraction) -> float:  # two decimals, halves up
        return floor(amount * 100 + Fraction(1, 2)) / 100

    return {
        "rankings": [
            [
                {
                    "rank": position,
                    "id": player,
                    "name": names[player],
                    "value": value(position, season),
                    "total": rounded(ranking.totals[player]),
                    "total_exact": str(ranking.totals[player]),
                    "points": [rounded(p) for p in ranking.points[player]],
                    "points_exact": [str(p) for p in ranking.points[player]],
                }
                for position, player in enumerate(ranking.order, 1)
            ]
            for ranking in reference_rankings(season)
        ]
    }
