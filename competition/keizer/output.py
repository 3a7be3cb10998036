"""The JSON documents the command line prints (`season-format.md`, "Commands").

`standings_json` writes the standings document's text directly, the exact bytes of
`json.dumps(document, ensure_ascii=False)` without building the six-megabyte tree of dicts and
floats first (the tests hold it to that: `reference.standings_document`). It is the document's
one writer.
"""

from __future__ import annotations

from json.encoder import encode_basestring

from .amounts import AmountTexts

TYPE_CHECKING = False  # `typing` is imported for the type checker only (season_file.py)
if TYPE_CHECKING:
    from typing import Any

    from .pairing import Pairing
    from .ranking import Ranking
    from .season import Player, Season


def standings_json(season: Season, rankings: list[Ranking]) -> str:
    """The standings document of these rankings, as `json.dumps(..., ensure_ascii=False)`
    would write it.

    Most players' points in a ranking are those of the ranking before plus the new round
    (their values and their opponents' did not change), so their lists are written by adding
    the new round's text to the last ones.
    """
    who = {player.id: _who(player) for player in season.players}
    texts: dict[int, AmountTexts] = {}
    # per player: (unit, points, their rounded texts, their exact texts) as last written
    last: dict[str, tuple[int, tuple[int, ...], str, str]] = {}
    written = []
    for ranking in rankings:
        rows = []
        for standing in ranking.standings:
            unit = standing.unit
            amounts = texts.get(unit) or texts.setdefault(unit, AmountTexts(unit))
            rounded_text, exact = amounts.rounded, amounts.exact
            player_id = standing.player_id
            points = standing.points_units
            before = last.get(player_id)
            if not points:
                rounded_points = exact_points = ""
            elif before is not None and before[0] == unit and before[1] == points[:-1]:
                new = points[-1]
                if before[1]:
                    rounded_points = f"{before[2]}, {rounded_text[new]}"
                    exact_points = f"{before[3]}, {exact[new]}"
                else:
                    rounded_points, exact_points = rounded_text[new], exact[new]
            else:
                rounded_points = ", ".join(map(rounded_text.__getitem__, points))
                exact_points = ", ".join(map(exact.__getitem__, points))
            last[player_id] = (unit, points, rounded_points, exact_points)
            total = standing.total_units
            rows.append(
                f'{{"rank": {standing.rank!r}, {who[player_id]}, '
                f'"value": {standing.value!r}, "total": {rounded_text[total]}, '
                f'"total_exact": {exact[total]}, "points": [{rounded_points}], '
                f'"points_exact": [{exact_points}]}}'
            )
        written.append(f"[{', '.join(rows)}]")
    return f'{{"rankings": [{", ".join(written)}]}}'


def _who(player: Player) -> str:
    """A row's `"id": ..., "name": ...`."""
    return f'"id": {encode_basestring(player.id)}, "name": {encode_basestring(player.name)}'


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
