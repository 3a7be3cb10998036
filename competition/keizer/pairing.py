"""The pairing of the next round (`keizer-rules.md` section 6).

Among all pairings with the fewest repeated meetings in the period (none when that is possible),
the lexicographically first by the 1–2, 3–4 rule: the highest-ranked unpaired player meets the
highest-ranked unpaired player below them they have not met, and a choice that would leave the
rest unpairable is passed over. Whether the rest can still be paired is answered by a maximum
matching of the allowed meetings (`matching.Matching`), so the search never backtracks more than
one step and runs in polynomial time whatever the history.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Sequence

from .colours import colour_histories, colours, played_colours, swiss_colours
from .matching import Matching
from .ranking import Ranking, compute_rankings
from .scoring import Outcome, appearances
from .season import Season


class Pair(namedtuple("Pair", "board white black")):
    """board: int; white: str; black: str (player ids)."""

    __slots__ = ()


class Repeat(namedtuple("Repeat", "first second rounds")):
    """A forced repeat: two players who already met in this period meet again.

    first: str; second: str (player ids); rounds: tuple[int, ...], the rounds they met in.
    """

    __slots__ = ()

    def describe(self) -> str:
        rounds = ", ".join(str(r) for r in self.rounds)
        return f"repeat: {self.first} and {self.second} already met this period (round {rounds})"


class Pairing(namedtuple("Pairing", "round pairs bye repeats")):
    """round: int; pairs: tuple[Pair, ...]; bye: str | None; repeats: tuple[Repeat, ...]."""

    __slots__ = ()

    @property
    def warnings(self) -> list[str]:
        return [repeat.describe() for repeat in self.repeats]


def pair_next_round(season: Season, ranking: Ranking | None = None) -> Pairing:
    """Pair round `len(season.rounds) + 1` from the last ranking and the players present."""
    if ranking is None:
        ranking = compute_rankings(season, with_points=False)[-1]
    number = season.next_round
    settings = season.settings
    absent = season.pair.absent if season.pair is not None else {}
    playing = {player.id for player in season.players if player.plays_in(number)}
    present = [p for p in ranking.order if p not in absent and p in playing]
    index = {player_id: i for i, player_id in enumerate(present)}

    period = settings.period_of(number)
    met: list[dict[int, list[int]]] = [{} for _ in present]  # i -> {j: rounds they met}
    byes = [0] * len(present)
    for round_number, round_ in enumerate(season.rounds, start=1):
        if round_.bye in index:
            byes[index[round_.bye]] += 1
        if settings.repeat_gap is not None:  # met in round j: again from round j + gap on
            if number - round_number >= settings.repeat_gap:
                continue
        elif settings.period_of(round_number) != period:
            continue
        for player_id, part in appearances(round_).items():
            if part.outcome in _MEETINGS and player_id in index and part.opponent in index:
                met[index[player_id]].setdefault(index[part.opponent], []).append(round_number)

    bye_order = sorted(range(len(present)), key=lambda i: (byes[i], -i))
    pairs, bye = lexicographic_pairing(
        len(present), [set(m) for m in met], lambda i, j: max(met[i][j]), bye_order
    )
    histories = colour_histories(season)
    played = played_colours(season) if settings.colours == "swiss" else {}
    board_pairs = []
    repeats = []
    for board, (i, j) in enumerate(pairs, start=1):
        if settings.colours == "swiss":
            white, black = swiss_colours(present[i], present[j], board, played)
        else:
            white, black = colours(present[i], present[j], histories)
        board_pairs.append(Pair(board, white, black))
        if j in met[i]:
            repeats.append(Repeat(present[i], present[j], tuple(met[i][j])))
    return Pairing(
        round=number,
        pairs=tuple(board_pairs),
        bye=present[bye] if bye is not None else None,
        repeats=tuple(repeats),
    )


_MEETINGS = frozenset({Outcome.WIN, Outcome.DRAW, Outcome.LOSS})


def lexicographic_pairing(
    count: int,
    met: Sequence[set[int]],
    last_meeting,
    bye_order: Sequence[int],
) -> tuple[list[tuple[int, int]], int | None]:
    """Pair players 0..count-1 (0 ranked highest); returns (pairs, bye).

    `met[i]` holds whom i met this period, `last_meeting(i, j)` the last round they met,
    `bye_order` the players in the order they should get the bye.
    """
    matching = Matching(count, met)
    bye = None
    if count % 2:
        bye = _choose_bye(matching, bye_order)
    pairs = []
    while matching.active_count:
        top = matching.active.index(True)
        below = [j for j in range(top + 1, count) if matching.active[j]]
        fresh = [j for j in below if j not in met[top]]
        repeats = sorted(
            (j for j in below if j in met[top]), key=lambda j: (last_meeting(top, j), j)
        )
        if matching.missing_pairs == 0 and matching.mate[top] not in fresh[:1]:
            # No repeat is needed: one search finds who keeps the rest pairable.
            keeping = matching.partners_keeping_perfect(top)
            fresh = [candidate for candidate in fresh if candidate in keeping][:1]
        for candidate in fresh + repeats:
            if _try_pair(matching, top, candidate, repeat=candidate in met[top]):
                pairs.append((top, candidate))
                break
        else:  # pragma: no cover - every pair is allowed as a repeat, so a candidate always fits
            raise AssertionError("no partner found for a player")
    return pairs, bye


def _choose_bye(matching: Matching, bye_order: Sequence[int]) -> int:
    """The first player in bye order whose absence does not force more repeats."""
    best = matching.pairs
    for candidate in bye_order:
        state = matching.state()
        matching.remove(candidate)
        matching.maximize()
        if matching.pairs == best:
            return candidate
        matching.restore(state)
    raise AssertionError("an odd graph always has a vertex outside some maximum matching")


def _try_pair(matching: Matching, top: int, candidate: int, repeat: bool) -> bool:
    """Pair top with candidate if the rest can then do with no more repeats; else change nothing."""
    missing = matching.missing_pairs
    if not repeat and matching.mate[top] == candidate:
        matching.remove(top)
        matching.remove(candidate)  # the rest keeps every other pair: still maximum
        return True
    state = matching.state()
    matching.remove(top)
    matching.remove(candidate)
    matching.maximize()
    if matching.missing_pairs + repeat == missing:
        return True
    matching.restore(state)
    return False
