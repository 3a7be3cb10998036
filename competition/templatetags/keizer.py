"""The site's template filters and tags: amounts in the site's one notation
(`competition.amounts`), a ranking's movements, the player pages' links, the navigation and
the what-if page's options and places.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from django import template
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from competition.amounts import format_amount
from competition.keizer_form import summary

register = template.Library()


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
    """A select's options with `selected` chosen: (value, the text shown, its full name), the
    name given to a screen reader where the text shown is short for it. What-if writes 7 for
    each of up to 75 boards: made once per language and choice, not once per board."""
    return _options(
        tuple((value, str(shown), str(name)) for value, shown, name in choices), selected
    )


@lru_cache(maxsize=256)
def _options(choices: tuple[tuple[str, str, str], ...], selected: str) -> str:
    return format_html_join(
        "",
        '<option value="{}"{}{}>{}</option>',
        (
            (
                value,
                SELECTED if value == selected else "",
                format_html(' aria-label="{}"', name) if name != shown else "",
                shown,
            )
            for value, shown, name in choices
        ),
    )


SELECTED = mark_safe(" selected")


@register.simple_tag
def what_if_player(player: tuple, own: int | None = None) -> str:
    """A player of a board on the what-if page (key, name, their line in the ranking that would
    follow or None), with their place in that ranking (live: the page's script replaces it
    when a choice changes); the logged-in member (`own`, their participant) named "(jij)"."""
    key, name, line = player
    place = ""
    if line is not None:
        place = format_html(
            '{} <span class="{}">{}</span>',
            _("place %(position)s") % {"position": line.position},
            movement_class(line.movement),
            movement(line.movement),
        )
    if own is not None and key == own:
        name = format_html('{} <span class="what-if-you">{}</span>', name, _("(you)"))
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


@register.inclusion_tag("competition/_keizer_settings.html")
def keizer_settings(competition) -> dict:
    """How the competition counts: every setting of its Keizer, folded (keizer_form.summary)."""
    rows = summary(competition.engine_settings())
    return {"preset": rows[0][1], "rows": rows[1:]}
