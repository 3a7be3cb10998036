"""The standings page's repetitive parts, written in Python rather than by template loops:
the table's rows (`_standings_table.html`, by `tables.standings_body`), its round headers,
the links to the earlier rankings (`standings.html`) and the race charts' legends and tables
(`_chart_race.html`). Each writes the very bytes its loop wrote
(tests/competition/test_standings_rows_html.py, test_standings_page_html.py)."""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.template.defaultfilters import urlencode
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from competition.tables import escape_text as escape
from competition.tables import standings_body

register = template.Library()


@register.simple_tag(takes_context=True)
def standings_rows(context) -> SafeString:
    """The rows of `rows` as the table shows them, with the context's choices: the member's
    own row marked, games and attendance or not, the rounds' points or not (`compact`), the
    movement since the previous ranking (not in ranking 0)."""
    ranking = context.get("ranking")
    return standings_body(
        context.get("rows") or [],
        context.get("own_participant_id"),
        with_record=bool(context.get("with_record")),
        with_attendance=bool(context.get("with_attendance")),
        compact=bool(context.get("compact")),
        with_movement=bool(getattr(ranking, "after_round", 0)),
    )


@register.simple_tag(takes_context=True)
def round_headers(context) -> SafeString:
    """The header cells of the rounds' points, one per number of `round_numbers`."""
    title = _("Round %(number)s")
    return mark_safe(
        "".join(
            f'<th scope="col" class="rnd" title="{escape(title % {"number": n})}">{n}</th>'
            for n in context.get("round_numbers") or ()
        )
    )


@register.simple_tag(takes_context=True)
def ranking_links(context) -> SafeString:
    """The links to every ranking of `rankings` (of the rapid standings when the competition
    has a short name), the one shown (`ranking`) in bold, each keeping the season asked for."""
    ranking, competition = context.get("ranking"), context.get("competition")
    name = (
        "competition:rapid-standings-round"
        if getattr(competition, "short_name", "")
        else "competition:standings-round"
    )
    request = context.get("request")
    season = request.GET.get("seizoen") if request is not None else None
    query = f"?seizoen={escape(urlencode(season))}" if season else ""
    shown = getattr(ranking, "pk", None)
    links = []
    for other in context.get("rankings") or ():
        number = other.after_round
        if other.pk == shown:
            link = f"<strong>{number}</strong>"
        else:
            link = f'<a href="{escape(_round_url(name, number))}{query}">{number}</a>'
        links.append(f"\n      {link}\n    ")
    return mark_safe("".join(links))


@lru_cache(maxsize=1024)
def _round_url(name: str, number: int) -> str:
    return reverse(name, args=[number])


@register.simple_tag
def race_legend(race) -> SafeString:
    """A race chart's legend items (`histories.RaceChart`): each runner's line, position and
    name."""
    return mark_safe(
        "".join(
            f'<li class="race-key key-{escape(runner.style)}"><svg class="race-swatch '
            f'series-{escape(runner.style)}" viewBox="0 0 24 8" aria-hidden="true"><line x1="1" '
            f'y1="4" x2="23" y2="4"/></svg> <span class="race-position">{escape(runner.position)}'
            f'</span> <a href="{escape(runner.url)}">{escape(runner.name)}</a></li>'
            for runner in race.runners
        )
    )


@register.simple_tag
def race_headers(race) -> SafeString:
    """A race chart table's header cells: the number of every ranking."""
    return mark_safe(
        "".join(f'<th scope="col" class="text-end">{escape(n)}</th>' for n in race.rankings)
    )


@register.simple_tag
def race_rows(race) -> SafeString:
    """A race chart table's rows: each runner's name and cells (safe already)."""
    return mark_safe(
        "".join(
            f'<tr><th scope="row"><a href="{escape(runner.url)}">{escape(runner.name)}</a></th>'
            f"{runner.cells}</tr>"
            for runner in race.runners
        )
    )
