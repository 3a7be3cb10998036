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


# -- the Dutch Swiss system's colours (`colours: swiss`, keizer-variants.md) ------------------


def played_colours(season: Season) -> dict[str, tuple[str, ...]]:
    """Every player's colours of the games played so far (forfeits give none), in order."""
    played: dict[str, tuple[str, ...]] = defaultdict(tuple)
    for round_ in season.rounds:
        for game in round_.games:
            if not game.result.is_forfeit:
                played[game.white] += ("white",)
                played[game.black] += ("black",)
    return played


class Preference(namedtuple("Preference", "colour absolute strong imbalance")):
    """A player's colour preference (FIDE C.04.3): colour: str | None; absolute: bool;
    strong: bool; imbalance: int, |whites − blacks|."""

    __slots__ = ()


def preference(played: tuple[str, ...]) -> Preference:
    """The preference of a player who played these colours: the colour they had less of when
    they are two apart or the colour they did not have in their last two games (absolute);
    else the one they had less of (strong); else the other of their last (mild)."""
    if not played:
        return Preference(None, False, False, 0)
    whites = played.count("white")
    imbalance = abs(2 * whites - len(played))
    fewer = "black" if 2 * whites > len(played) else "white"
    last = played[-1]
    run = _run(played)
    other = "black" if last == "white" else "white"
    absolute = imbalance > 1 or run > 1
    if imbalance > 1:
        colour = fewer
    elif run > 1:
        colour = other
    elif imbalance:
        colour = fewer
    else:
        colour = other
    return Preference(colour, absolute, not absolute and imbalance > 0, imbalance)


def _run(played: tuple[str, ...]) -> int:
    """How many games at the end were of the last game's colour."""
    run = 0
    for colour in reversed(played):
        if colour != played[-1]:
            break
        run += 1
    return run


def swiss_colours(
    higher: str, lower: str, board: int, played: dict[str, tuple[str, ...]]
) -> tuple[str, str]:
    """(white, black) for a pair whose first player is the higher ranked, by the colour rules
    of the Dutch Swiss system as the chesspairing library applies them: who has a preference
    gets it; of two who want the same colour, the absolute (the more so) before the other, the
    strong before the mild, then the one whose history, read back from the last game, differs
    first gets the other's colour there, and else the higher ranked. Two players who have not
    played: the higher ranked has white on odd boards."""
    first, second = played.get(higher, ()), played.get(lower, ())
    a, b = preference(first), preference(second)

    def giving(player: str, colour: str) -> tuple[str, str]:
        other = lower if player == higher else higher
        return (player, other) if colour == "white" else (other, player)

    if a.colour is None and b.colour is None:
        return (higher, lower) if board % 2 else (lower, higher)
    if a.colour != b.colour:
        return giving(higher, a.colour) if a.colour is not None else giving(lower, b.colour)
    wanted = a.colour
    if a.absolute and (a.imbalance > b.imbalance or not b.absolute):
        return giving(higher, wanted)
    if b.absolute and (b.imbalance > a.imbalance or not a.absolute):
        return giving(lower, wanted)
    if a.strong != b.strong:
        return giving(higher if a.strong else lower, wanted)
    for mine, theirs in zip(reversed(first), reversed(second), strict=False):
        if mine != theirs:
            return giving(higher, theirs)  # each gets the colour the other had there
    return giving(higher, wanted)
