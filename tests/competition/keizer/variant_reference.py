"""A deliberately naive reading of `keizer-variants.md`, for comparison with the engine.

Like `reference.py` (DSC's rules), written straight from the text with Fractions and no
shortcuts: every pass re-scores every round of every player from the games themselves, with
the season's settings read key by key. Slow, but independent of the engine's integer forms,
its tables of amounts and its incremental sums.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import floor

from competition.keizer.season import Season

# (white's share key, black's share key) of each result: game_shares or forfeit_shares.
RESULT_SHARES = {
    "1-0": (("game", 0), ("game", 2)),
    "0-1": (("game", 2), ("game", 0)),
    "1/2-1/2": (("game", 1), ("game", 1)),
    "1-0F": (("forfeit", 0), ("forfeit", 1)),
    "0-1F": (("forfeit", 1), ("forfeit", 0)),
    "0-0F": (("forfeit", 2), ("forfeit", 2)),
}


@dataclass
class VariantRanking:
    order: list[str]
    totals: dict[str, Fraction]
    points: dict[str, list[Fraction]]
    values: dict[str, int]


def top(season: Season, n: int) -> int:
    rule = season.settings.top_value
    if isinstance(rule, int):
        return rule
    if rule == "N":
        return n
    if rule == "N-1+(N-1)//2":
        return n - 1 + (n - 1) // 2
    ratio = Fraction(rule.split(":")[1])
    exact = Fraction(n - 1) * ratio / (ratio - 1)
    low = floor(exact)
    if exact - low > Fraction(1, 2) or (exact - low == Fraction(1, 2) and low % 2 == 1):
        return low + 1
    return low


def value(position: int, season: Season, n: int) -> int:
    return max(1, top(season, n) - season.settings.step * (position - 1))


def half(amount: Fraction, season: Season) -> Fraction:
    """An amount as it is added: rounded to the nearest half with `half_per_item`."""
    if season.settings.rounding == "half_per_item":
        return Fraction(floor(2 * amount + Fraction(1, 2)), 2)
    return amount


def reason_word(reason) -> str:
    return getattr(reason, "value", reason)


def counted_absences_before(season: Season, player: str, r: int) -> int:
    """How many of the player's absences in rounds before r count towards the limit."""
    settings = season.settings
    limited = settings.absence_limit_reasons
    count = 0
    for round_ in season.rounds[: r - 1]:
        if player in round_.absent:
            word = reason_word(round_.absent[player])
            if (word in limited) if limited is not None else word != "team":
                count += 1
    return count


def absence_points(season: Season, player: str, r: int, word: str, own: int) -> Fraction:
    settings = season.settings
    limited = settings.absence_limit_reasons
    counts = (word in limited) if limited is not None else word != "team"
    before = counted_absences_before(season, player, r) if counts else 0
    if counts and settings.absence_limit and before + 1 > settings.absence_limit:
        return Fraction(0)
    fixed = dict(settings.fixed_points)
    if word in fixed:
        earned = half(fixed[word], season)
    else:
        earned = half(settings.absence_share(word) * own, season)
    if counts and settings.absence_decay:
        if settings.rounding == "half_per_item":
            return Fraction(floor(2 * earned / 2**before), 2)
        return earned / 2**before
    return earned


def share_of(season: Season, kind: tuple[str, int]) -> Fraction:
    table = season.settings.game_shares if kind[0] == "game" else season.settings.forfeit_shares
    return table[kind[1]]


def round_points(
    season: Season, player: str, r: int, values: dict[str, int], gone: set[str]
) -> Fraction:
    """What the player earns in round r with these values, `gone` being the withdrawn
    players whose games count as `withdrawn_opponent_fraction` says."""
    settings = season.settings
    joined = next(p.joined_round for p in season.players if p.id == player)
    if settings.late_join == "handicap" and r < joined:
        return half(settings.late_join_handicap, season)
    round_ = season.rounds[r - 1]
    own = values.get(player, 0)
    for game in round_.games:
        if player in (game.white, game.black):
            white = player == game.white
            opponent = game.black if white else game.white
            kind = RESULT_SHARES[game.result.value][0 if white else 1]
            if opponent in gone:
                fraction = settings.withdrawn_opponent_fraction
                if fraction is not None:
                    return half(fraction * share_of(season, kind) * own, season)
                # as an unexcused absence of that round, which no limit counts
                fixed = dict(settings.fixed_points)
                if "unexcused" in fixed:
                    return half(fixed["unexcused"], season)
                return half(settings.absence_share("unexcused") * own, season)
            return half(share_of(season, kind) * values[opponent], season)
    if round_.bye == player:
        fixed = dict(settings.fixed_points)
        return half(fixed["bye"] if "bye" in fixed else settings.bye_fraction * own, season)
    if player in round_.absent:
        return absence_points(season, player, r, reason_word(round_.absent[player]), own)
    return Fraction(0)


def in_ranking(season: Season, player, k: int) -> bool:
    after = player.withdrawn_after_round
    if after is not None and (after == 0 or after < k):
        return False
    return season.settings.late_join == "handicap" or player.joined_round <= k + 1


def gone_for(season: Season, k: int) -> set[str]:
    return {
        p.id
        for p in season.players
        if p.withdrawn_after_round is not None
        and (p.withdrawn_after_round == 0 or p.withdrawn_after_round < k)
    }


def by_total(season: Season, totals: dict[str, Fraction], valuation: list[str]) -> list[str]:
    if season.settings.tiebreak == "ranking0":
        start = [p.id for p in season.players]
        return sorted(valuation, key=lambda player: (-totals[player], start.index(player)))
    return sorted(valuation, key=lambda player: (-totals[player], valuation.index(player)))


def values_of(season: Season, ordering: list[str]) -> dict[str, int]:
    return {player: value(i, season, len(ordering)) for i, player in enumerate(ordering, 1)}


def pass_totals(season: Season, valuation: list[str], k: int):
    start = {p.id: p.start_points for p in season.players}
    values = values_of(season, valuation)
    gone = gone_for(season, k)
    points = {
        player: [round_points(season, player, r, values, gone) for r in range(1, k + 1)]
        for player in valuation
    }
    own = season.settings.own_value
    totals = {
        player: (values[player] if own else 0) + start[player] + sum(points[player])
        for player in valuation
    }
    return totals, points


def variant_rankings(season: Season) -> list[VariantRanking]:
    settings = season.settings
    start = {p.id: p.start_points for p in season.players}
    order = [p.id for p in season.players if in_ranking(season, p, 0)]
    values = values_of(season, order)
    zero = settings.ranking0_totals == "zero"
    totals = {player: (0 if zero else values[player]) + start[player] for player in order}
    rankings = [VariantRanking(order, totals, {p: [] for p in order}, values)]
    valued_with: list[dict[str, int]] = []  # frozen: the values each round was valued with
    for k in range(1, len(season.rounds) + 1):
        gone = gone_for(season, k)
        previous = [player for player in order if player not in gone]
        valuation = list(previous)
        if settings.late_join == "insert":
            newcomers = [
                p for p in season.players if p.joined_round == k + 1 and in_ranking(season, p, k)
            ]
            size = len(valuation) + len(newcomers)
            known = dict(totals)
            for newcomer in newcomers:
                spot = next(
                    (
                        i
                        for i, player in enumerate(valuation)
                        if value(i + 1, season, size) + newcomer.start_points > known[player]
                    ),
                    len(valuation),
                )
                valuation.insert(spot, newcomer.id)
                known[newcomer.id] = value(spot + 1, season, size) + newcomer.start_points
        if settings.revaluation == "frozen":
            valued_with.append(rankings[-1].values)
            points = {
                player: [
                    round_points(season, player, r, valued_with[r - 1], gone)
                    for r in range(1, k + 1)
                ]
                for player in valuation
            }
            totals = {player: start[player] + sum(points[player]) for player in valuation}
            order = by_total(season, totals, valuation)
            if settings.own_value:
                own = values_of(season, order)
                totals = {player: totals[player] + own[player] for player in valuation}
                order = by_total(season, totals, order)
            rankings.append(VariantRanking(order, totals, points, values_of(season, order)))
            continue
        if settings.revaluation == "fixed_point" and settings.fixed_point_start == "ranking0":
            valuation = [p.id for p in season.players if in_ranking(season, p, k)]
        full = settings.revaluation == "fixed_point" or (
            settings.revaluation == "dsc"
            and settings.full_revaluation_from_round is not None
            and k >= settings.full_revaluation_from_round
        )
        history = [valuation]
        earlier_totals = None
        while True:
            totals, points = pass_totals(season, valuation, k)
            order = by_total(season, totals, valuation)
            if not full or order == valuation:
                break
            if settings.on_cycle == "average" and len(history) >= 2 and order == history[-2]:
                totals = {
                    player: half((earlier_totals[player] + totals[player]) / 2, season)
                    for player in totals
                }
                order = by_total(season, totals, valuation)
                break
            if order in history or len(history) >= settings.max_passes:
                break
            history.append(order)
            earlier_totals = totals
            valuation = order
        rankings.append(VariantRanking(order, totals, points, values_of(season, order)))
    return rankings
