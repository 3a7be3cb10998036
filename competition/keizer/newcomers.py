"""Rule 5 (`keizer-rules.md` section 5): where a newcomer enters the valuation ranking, for the
engine (`ranking`) and the site's suggestion of start points (`competition/lineup.py`)."""


def with_newcomers(order, totals, values, newcomers) -> list:
    """Rule 5: the valuation ranking `order` (player keys) with each newcomer (key, start
    points), in the players' order, inserted at the first position i where `values[i]` (the
    value of the i-th place, 0-based) plus their start points is greater than the total
    (`totals[key]`, in the ranking before) of the player now at i; otherwise at the end. An
    inserted newcomer's value plus start points counts as their total for the next insertion.
    Any exact numbers will do (integer units here, Fractions in the site's preview)."""
    valuation = list(order)
    inserted = {}
    for newcomer, start in newcomers:
        position = next(
            (
                i
                for i, player in enumerate(valuation)
                if values[i] + start > inserted.get(player, totals[player])
            ),
            len(valuation),
        )
        valuation.insert(position, newcomer)
        inserted[newcomer] = values[position] + start
    return valuation
