"""Other clubs' Keizer (`keizer-variants.md`): the engine against a naive reading of the
variants' text over generated seasons and settings, DSC's defaults against DSC's own reading,
and hand-computed cases for each setting."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competition.keizer.pairing import pair_next_round
from competition.keizer.ranking import compute_rankings
from competition.keizer.season import Player, Round, Season, Settings
from tests.hypothesis_profiles import examples

from .reference import reference_rankings
from .strategies import rounds_for, shares
from .strategies import seasons as dsc_seasons
from .variant_reference import variant_rankings

relaxed = settings(
    max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
OWN_REASON = "rest"  # a reason of the club's own


@st.composite
def variant_settings(draw) -> Settings:
    amounts = st.sampled_from([Fraction(0), Fraction(1), Fraction(5, 2), Fraction(10)])
    fixed_keys = draw(st.sets(st.sampled_from(["bye", "excused", "unexcused", OWN_REASON])))
    return Settings(
        top_value=draw(
            st.integers(3, 60) | st.sampled_from(["N", "N-1+(N-1)//2", "ratio:3", "ratio:5/2"])
        ),
        step=draw(st.integers(1, 3)),
        rounds_per_period=draw(st.none() | st.integers(1, 5)),
        full_revaluation_from_round=draw(st.none() | st.integers(1, 6)),
        bye_fraction=draw(shares),
        excused_fraction=draw(shares),
        team_fraction=draw(shares),
        auto_absence_fraction=draw(shares),
        own_value=draw(st.booleans()),
        game_shares=(draw(shares), draw(shares), draw(shares)),
        forfeit_shares=(draw(shares), draw(shares), draw(shares)),
        absence_fractions=tuple(
            sorted(
                {"late": draw(shares), "unexcused": draw(shares), OWN_REASON: draw(shares)}.items()
            )
        ),
        fixed_points=tuple(sorted((key, draw(amounts)) for key in fixed_keys)),
        absence_limit=draw(st.integers(0, 3)),
        absence_limit_reasons=draw(
            st.none()
            | st.lists(
                st.sampled_from(["excused", "team", "late", "unexcused", "auto", OWN_REASON]),
                unique=True,
            ).map(lambda reasons: tuple(sorted(reasons)))
        ),
        absence_decay=draw(st.booleans()),
        revaluation=draw(st.sampled_from(["dsc", "cascade", "fixed_point", "frozen"])),
        fixed_point_start=draw(st.sampled_from(["previous", "ranking0"])),
        on_cycle=draw(st.sampled_from(["first_repeat", "average"])),
        max_passes=draw(st.sampled_from([1, 2, 3, 20, 100])),
        rounding=draw(st.sampled_from(["exact", "half_per_item"])),
        ranking0_totals=draw(st.sampled_from(["own_value", "zero"])),
        late_join=draw(st.sampled_from(["insert", "handicap"])),
        late_join_handicap=draw(amounts),
        tiebreak=draw(st.sampled_from(["previous", "ranking0"])),
        withdrawn_opponent_fraction=draw(st.none() | shares),
    )


@st.composite
def variant_seasons(draw, max_players: int = 10, max_rounds: int = 7) -> Season:
    count = draw(st.integers(2, max_players))
    round_count = draw(st.integers(0, max_rounds))
    players = []
    for i in range(count):
        joined = 1 if i < 2 else draw(st.sampled_from([1, 1, 1, *range(2, round_count + 3)]))
        start = Fraction(draw(st.integers(0, 80)), draw(st.sampled_from([1, 2, 3, 6])))
        withdrawn = None
        if i >= 2 and draw(st.integers(0, 4)) == 0:
            withdrawn = draw(st.sampled_from([0, *range(joined, round_count + 1)]))
        players.append(
            Player(
                f"p{i:02d}", f"Player {i}", joined, start if joined > 1 else Fraction(0), withdrawn
            )
        )
    rounds = []
    for number in range(1, round_count + 1):
        playing = [p for p in players if p.plays_in(number)]
        round_ = draw(rounds_for(playing, number))
        own = draw(st.sets(st.sampled_from(sorted(round_.absent)))) if round_.absent else set()
        absent = {player: OWN_REASON if player in own else r for player, r in round_.absent.items()}
        rounds.append(Round(round_.games, absent, round_.bye))
    return Season(settings=draw(variant_settings()), players=tuple(players), rounds=tuple(rounds))


@relaxed
@given(variant_seasons())
def test_every_variant_agrees_with_the_naive_reading_of_its_text(season):
    engine = compute_rankings(season)
    reference = variant_rankings(season)
    assert len(engine) == len(reference) == len(season.rounds) + 1
    for ranking, expected in zip(engine, reference, strict=True):
        assert list(ranking.order) == expected.order
        for standing in ranking.standings:
            player = standing.player_id
            assert standing.value == expected.values[player]
            assert standing.total == expected.totals[player], (ranking.round, player)
            assert list(standing.points) == expected.points[player], (ranking.round, player)


@relaxed
@given(dsc_seasons())
def test_the_variants_reading_with_dscs_settings_is_dscs_reading(season):
    """The variants' naive reading, given DSC's settings, gives what DSC's own naive reading of
    keizer-rules.md gives: the two references agree where they overlap."""
    for ours, dsc in zip(variant_rankings(season), reference_rankings(season), strict=True):
        assert ours.order == dsc.order
        assert ours.totals == dsc.totals
        assert ours.points == dsc.points


@relaxed
@given(variant_seasons(), st.sampled_from([None, 1, 2, 3]), st.sampled_from(["dsc", "swiss"]))
def test_the_pairing_pairs_only_who_may_play_and_each_once(season, gap, colours):
    season = season._replace(settings=season.settings._replace(repeat_gap=gap, colours=colours))
    pairing = pair_next_round(season)
    number = len(season.rounds) + 1
    paired = [player for pair in pairing.pairs for player in (pair.white, pair.black)]
    paired += [pairing.bye] if pairing.bye is not None else []
    may_play = {p.id for p in season.players if p.plays_in(number)}
    ranked = set(compute_rankings(season)[-1].order)
    assert len(paired) == len(set(paired))
    assert set(paired) == may_play & ranked
