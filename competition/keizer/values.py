"""Values (waardecijfers) by position in a ranking."""

from __future__ import annotations

from fractions import Fraction

from .season import Settings
from .variants import RATIO_PREFIX


def value_at(position: int, settings: Settings, size: int = 0) -> int:
    """The value of 1-based `position` in a ranking of `size` players: the top value, `step`
    less per place, never below 1."""
    return max(1, top_value(settings, size) - settings.step * (position - 1))


def top_value(settings: Settings, size: int) -> int:
    """The value of position 1: a number, or a rule of the field's size N (keizer-variants.md):
    "N", "N-1+(N-1)//2", or "ratio:R", (N-1)·R/(R-1) rounded half to even, so that the first
    is worth R times the last with step 1."""
    top = settings.top_value
    if isinstance(top, int):
        return top
    if top == "N":
        return size
    if top == "N-1+(N-1)//2":
        return size - 1 + (size - 1) // 2
    ratio = Fraction(top.removeprefix(RATIO_PREFIX))
    return round((size - 1) * ratio / (ratio - 1))
