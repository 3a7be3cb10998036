"""How amounts look on the site: exact, in one notation everywhere (71½, 15⅔, 18⅘).

The fraction of an amount is one character where Unicode has it (½ ⅓ ⅔ ¼ ¾ ⅕ … ⅞), else a
small numerator over a small denominator (⁵⁄₁₂); never a rounded decimal.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from django import template
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

register = template.Library()

VULGAR_FRACTIONS = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
    Fraction(1, 5): "⅕",
    Fraction(2, 5): "⅖",
    Fraction(3, 5): "⅗",
    Fraction(4, 5): "⅘",
    Fraction(1, 6): "⅙",
    Fraction(5, 6): "⅚",
    Fraction(1, 7): "⅐",
    Fraction(1, 8): "⅛",
    Fraction(3, 8): "⅜",
    Fraction(5, 8): "⅝",
    Fraction(7, 8): "⅞",
    Fraction(1, 9): "⅑",
    Fraction(1, 10): "⅒",
}
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


@lru_cache(maxsize=4096)
def format_amount(value: Fraction | int | str) -> str:
    """An exact amount: 71½, 15⅔, ⅓, 7⁵⁄₁₂, 40."""
    amount = Fraction(value)
    sign = "−" if amount < 0 else ""
    whole, rest = divmod(abs(amount), 1)
    if rest == 0:
        return f"{sign}{whole}"
    part = VULGAR_FRACTIONS.get(rest) or (
        f"{rest.numerator}".translate(SUPERSCRIPT)
        + "⁄"
        + f"{rest.denominator}".translate(SUBSCRIPT)
    )
    return f"{sign}{whole or ''}{part}"


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


@register.simple_tag(takes_context=True)
def nav_link(context, view_name: str, label: str, *also: str) -> str:
    """A navigation link, marked as the current page (class and aria-current) when the
    request was resolved to `view_name` or one of `also` (e.g. an earlier ranking)."""
    match = getattr(context.get("request"), "resolver_match", None)
    if match is not None and match.view_name in (view_name, *also):
        return format_html(
            '<a class="nav-link active" aria-current="page" href="{}">{}</a>',
            reverse(view_name),
            label,
        )
    return format_html('<a class="nav-link" href="{}">{}</a>', reverse(view_name), label)


@register.simple_tag
def options(choices, selected: str) -> str:
    """A select's options with `selected` chosen. What-if writes 7 for each of up to 75
    boards: made once per language and choice, not once per board."""
    return _options(tuple((value, str(label)) for value, label in choices), selected)


@lru_cache(maxsize=256)
def _options(choices: tuple[tuple[str, str], ...], selected: str) -> str:
    return format_html_join(
        "",
        '<option value="{}"{}>{}</option>',
        ((value, SELECTED if value == selected else "", label) for value, label in choices),
    )


SELECTED = mark_safe(" selected")


@register.simple_tag
def what_if_player(player: tuple) -> str:
    """A player of a board on the what-if page (key, name, their line in the ranking that would
    follow or None), with their place in that ranking (live: the page's script replaces it
    when a choice changes)."""
    key, name, line = player
    place = ""
    if line is not None:
        place = format_html(
            '{} <span class="{}">{}</span>',
            _("place %(position)s") % {"position": line.position},
            movement_class(line.movement),
            movement(line.movement),
        )
    return format_html(
        '{}<span id="what-if-place-{}" class="what-if-live what-if-place">{}</span>',
        name,
        key,
        place,
    )


@register.filter
def movement_class(change: int | None) -> str:
    if change and change > 0:
        return "movement-up"
    if change and change < 0:
        return "movement-down"
    return ""
