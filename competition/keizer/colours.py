"""Who plays white (`keizer-rules.md` section 6, last paragraph)."""

from __future__ import annotations

from collections import defaultdict, namedtuple
from collections.abc import Iterable

from .scoring import appearances
from .season import Game, Season


class ColourHistory(namedtuple("ColourHistory", "whites blacks last", defaults=(0, 0, None))):
    """whites: int = 0; blacks: int = 0; last: str | None = None, the colour of the last game
    played (forfeits do not count)."""

    __slots__ = ()

    def after(self, colour: str) -> ColourHistory:
        if colour == "white":
            return ColourHistory(self.whites + 1, self.blacks, "white")
        return ColourHistory(self.whites, self.blacks + 1, "black")

    @property
    def balance(self) -> int:
        """Blacks minus whites: the more positive, the stronger the claim to white."""
        return self.blacks - self.whites


def colour_histories(season: Season) -> dict[str, ColourHistory]:
    """Every player's colours over the season's games played so far."""
    histories = {player.id: ColourHistory() for player in season.players}
    for round_ in season.rounds:
        for player_id, part in appearances(round_).items():
            if part.colour is not None:
                histories[player_id] = histories[player_id].after(part.colour)
    return histories


def colours(higher: str, lower: str, histories: dict[str, ColourHistory]) -> tuple[str, str]:
    """(white, black) for a pair whose first player is the higher ranked."""
    first, second = histories[higher], histories[lower]
    if first.balance != second.balance:
        return (higher, lower) if first.balance > second.balance else (lower, higher)
    if (first.last == "black") != (second.last == "black"):
        return (higher, lower) if first.last == "black" else (lower, higher)
    if (first.last == "white") != (second.last == "white"):
        return (lower, higher) if first.last == "white" else (higher, lower)
    return higher, lower


def recent_colours(games: Iterable[Game], count: int) -> dict[str, tuple[str, ...]]:
    """Every player's colours in their last `count` games played (`games` in the order they
    were played; forfeits give no colour, as in `colour_histories`), the latest last."""
    recent: dict[str, tuple[str, ...]] = defaultdict(tuple)
    for game in games:
        if not game.result.is_forfeit:
            recent[game.white] = (*recent[game.white], "white")[-count:]
            recent[game.black] = (*recent[game.black], "black")[-count:]
    return dict(recent)
