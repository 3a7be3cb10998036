"""A competition as a season file (`season-format.md`): what the arbiter downloads and
`export_season` writes, read through `exchange.season_for`."""

from __future__ import annotations

from django.utils.text import slugify

from competition.exchange import season_for
from competition.keizer import season_file
from competition.models import Competition


def season_file_document(competition: Competition) -> dict:
    """The competition as a season file (`season-format.md`), with readable player ids.

    Ids are derived from names ("de-zeeuw", "de-zeeuw-2"), so exporting, importing and
    exporting again gives the same file.
    """
    season = season_for(competition)
    taken: set[str] = set()
    ids = {}
    for player in season.players:
        base = slugify(player.name) or "speler"
        candidate, number = base, 1
        while candidate in taken:
            number += 1
            candidate = f"{base}-{number}"
        taken.add(candidate)
        ids[player.id] = candidate
    order = {player.id: index for index, player in enumerate(season.players)}
    renamed = season._replace(
        players=tuple(p._replace(id=ids[p.id]) for p in season.players),
        rounds=tuple(
            r._replace(
                games=tuple(g._replace(white=ids[g.white], black=ids[g.black]) for g in r.games),
                absent={
                    ids[p]: reason
                    for p, reason in sorted(r.absent.items(), key=lambda item: order[item[0]])
                },
                bye=ids[r.bye] if r.bye else None,
            )
            for r in season.rounds
        ),
        pair=None,
    )
    return season_file.to_document(renamed)
