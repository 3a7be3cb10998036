"""Values (waardecijfers) by position in a ranking."""

from __future__ import annotations

from .season import Settings


def value_at(position: int, settings: Settings) -> int:
    """The value of 1-based `position`: top value, `step` less per place, never below 1."""
    return max(1, settings.top_value - settings.step * (position - 1))


def values_floor_reached(player_count: int, settings: Settings) -> bool:
    """True when the tail of a ranking this long shares value 1 (the admin warns about it)."""
    return player_count > 1 and value_at(player_count, settings) == value_at(
        player_count - 1, settings
    )
