"""The JSON documents the command line prints (`season-format.md`, "Commands")."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
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


@lru_cache(maxsize=8192)
def _exact(units: int, unit: int) -> str:
    return str(Fraction(units, unit))


@lru_cache(maxsize=8192)
def _rounded(units: int, unit: int) -> float:
    """Two decimals, halves rounded up (1/8 -> 0.13), as people round."""
    hundredths = (Fraction(units, unit) * 100 + Fraction(1, 2)).__floor__()
    return hundredths / 100
