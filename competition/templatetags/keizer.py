"""How amounts look on the site: 71½ where exact, otherwise two decimals with a comma."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

register = template.Library()


@lru_cache(maxsize=4096)
def format_amount(value: Fraction | int | str) -> str:
    amount = Fraction(value)
    whole, rest = divmod(amount, 1)
    if rest == 0:
        return str(whole)
    if rest == Fraction(1, 2):
        return f"{whole}½" if whole else "½"
    return f"{float(amount):.2f}".replace(".", ",")


@lru_cache(maxsize=64)
def format_fraction(value: Fraction) -> str:
    """A share such as 1/3 for explanations ("1/3 of own value")."""
    return str(Fraction(value))


@register.filter
def amount(value) -> str:
    return "" if value is None or value == "" else format_amount(Fraction(value))


@register.filter
def movement(change: int | None) -> str:
    if change is None:
        return _("new")
    if change > 0:
        return f"▲{change}"
    if change < 0:
        return f"▼{-change}"
    return "–"


@register.filter
@lru_cache(maxsize=8192)
def player_url(participant_id: int) -> str:
    """The player page's address; cached, as a standings or results page links hundreds."""
    return reverse("competition:player", args=[participant_id])
