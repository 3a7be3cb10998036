"""Hypothesis strategies: random but valid seasons."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from competition.keizer.season import (
    Absence,
    Game,
    PairRequest,
    Player,
    Result,
    Round,
    Season,
    Settings,
)

shares = st.sampled_from(
    [Fraction(0), Fraction(1, 3), Fraction(1, 2), Fraction(2, 3), Fraction(1), Fraction(3, 4)]
)


@st.composite
def settings(draw) -> Settings:
    return Settings(
        top_value=draw(st.integers(3, 60)),
        step=draw(st.integers(1, 3)),
        rounds_per_period=draw(st.integers(1, 5)),
        full_revaluation_from_round=draw(st.none() | st.integers(1, 6)),
        bye_fraction=draw(shares),
        excused_fraction=draw(shares),
        team_fraction=draw(shares),
        auto_absence_fraction=draw(shares),
    )


@st.composite
def rounds_for(draw, players: list[Player], number: int, games_only: bool = False) -> Round:
    joined = [p.id for p in players if p.has_joined(number)]
    seats = draw(st.permutations(joined))
    game_count = draw(st.integers(0, len(seats) // 2))
    games = tuple(
        Game(
            seats[2 * i],
            seats[2 * i + 1],
            draw(
                st.sampled_from(list(Result))
                if not games_only
                else st.sampled_from([Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW])
            ),
        )
        for i in range(game_count)
    )
    rest = seats[2 * game_count :]
    bye = None
    if rest and draw(st.booleans()):
        bye, rest = rest[0], rest[1:]
    absent = {}
    for player in rest:
        reason = draw(st.none() | st.sampled_from(list(Absence)))
        if reason is not None:
            absent[player] = reason
    return Round(games=games, absent=absent, bye=bye)


@st.composite
def seasons(draw, max_players: int = 12, max_rounds: int = 8, pair: bool = False) -> Season:
    count = draw(st.integers(2, max_players))
    round_count = draw(st.integers(0, max_rounds))
    players = []
    for i in range(count):
        joined = 1 if i < 2 else draw(st.sampled_from([1, 1, 1, *range(2, round_count + 3)]))
        start = Fraction(draw(st.integers(0, 80)), draw(st.sampled_from([1, 2, 3, 6])))
        players.append(
            Player(
                f"p{i:02d}",
                f"Player {i}",
                joined,
                start if joined > 1 or draw(st.booleans()) else Fraction(0),
            )
        )
    rounds = tuple(draw(rounds_for(players, r)) for r in range(1, round_count + 1))
    request = None
    if pair:
        candidates = [p.id for p in players if p.has_joined(round_count + 1)]
        absent = (
            draw(
                st.lists(
                    st.sampled_from(candidates), unique=True, max_size=max(0, len(candidates) - 2)
                )
            )
            if candidates
            else []
        )
        request = PairRequest(absent={player: Absence.EXCUSED for player in absent})
    return Season(settings=draw(settings()), players=tuple(players), rounds=rounds, pair=request)
