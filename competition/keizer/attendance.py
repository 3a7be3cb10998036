"""Attendance (rules section 8): a round counts when the player played a game, won by
default, had the bye, or was away for a team match."""

from __future__ import annotations

from math import ceil

from .scoring import ATTENDED, appearances
from .season import Season


def attendance_after_each_round(season: Season) -> list[dict[str, int]]:
    """Attendance after round k for k = 0..len(rounds), in one pass."""
    counts = {player.id: 0 for player in season.players}
    result = [dict(counts)]
    for round_ in season.rounds:
        for player_id, part in appearances(round_).items():
            if part.outcome in ATTENDED:
                counts[player_id] += 1
        result.append(dict(counts))
    return result


def required_rounds(season_rounds: int) -> int:
    """At least two thirds of the season's rounds: 19 of 28."""
    return ceil(2 * season_rounds / 3)
