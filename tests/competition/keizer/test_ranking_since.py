"""`compute_rankings(season, since=k)`: the rankings from k on, as the whole computation gives
them (ranking j is computed from rounds 1..j only: a saved result of round k recomputes
rankings k.. alone, `services.recompute_after_results`)."""

from hypothesis import given
from hypothesis import strategies as st

from competition.keizer.ranking import compute_rankings
from competition.keizer.season import Season

from .strategies import seasons


@given(seasons(), st.data())
def test_the_rankings_since_k_are_the_whole_computations(season, data):
    everything = compute_rankings(season)
    since = data.draw(st.integers(0, len(everything)))
    assert compute_rankings(season, since=since) == everything[since:]


@given(seasons(), st.data())
def test_a_ranking_does_not_depend_on_later_rounds(season, data):
    k = data.draw(st.integers(0, len(season.rounds)))
    shorter = Season(
        settings=season.settings, players=season.players, rounds=season.rounds[:k], pair=None
    )
    assert compute_rankings(shorter) == compute_rankings(season)[: k + 1]
