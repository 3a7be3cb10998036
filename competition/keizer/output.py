"""The JSON documents the command line prints (`season-format.md`, "Commands")."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

from .pairing import Pairing
from .ranking import Ranking
from .season import Season


def standings_document(season: Season, rankings: list[Ranking]) -> dict[str, Any]:
    names = {player.id: player.name for player in season.players}
    return {
        "rankings": [
            [
                {
                    "rank": standing.rank,
                    "id": standing.player_id,
                    "name": names[standing.player_id],
                    "value": standing.value,
                    "total": _rounded(standing.total_units, standing.unit),
                    "total_exact": _exact(standing.total_units, standing.unit),
                    "points": [_rounded(p, standing.unit) for p in standing.points_units],
                    "points_exact": [_exact(p, standing.unit) for p in standing.points_units],
                }
                for standing in ranking.standings
            ]
            for ranking in rankings
        ]
    }


def pairing_document(pairing: Pairing) -> dict[str, Any]:
    return {
        "round": pairing.round,
        "pairs": [
            {"board": pair.board, "white": pair.white, "black": pair.black}
            for pair in pairing.pairs
        ],
        "bye": pairing.bye,
        "warnings": pairing.warnings,
    }


@cache
def _exact(units: int, unit: int) -> str:
    return str(Fraction(units, unit))


@cache
def _rounded(units: int, unit: int) -> float:
    return float(round(Fraction(units, unit), 2))
