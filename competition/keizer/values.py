"""Values (waardecijfers) by position in a ranking."""

from __future__ import annotations

from .season import Settings


def value_at(position: int, settings: Settings) -> int:
    """The value of 1-based `position`: top value, `step` less per place, never below 1."""
    return max(1, settings.top_value - settings.step * (position - 1))
