"""The standings table's rows (`_standings_table.html`), written by `tables.standings_body`."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

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
