"""The command line's amounts by integer arithmetic (keizer/amounts.py) are the amounts of the
exact fractions: lowest terms, and two decimals with halves rounded up (season-format.md)."""

from fractions import Fraction
from math import floor

from hypothesis import given
from hypothesis import strategies as st

from competition.keizer.amounts import AmountTexts, exact_text, rounded

units = st.integers(min_value=-(10**18), max_value=10**18)
unit = st.integers(min_value=1, max_value=10**6)


@given(units, unit)
def test_the_exact_text_is_the_fraction_in_lowest_terms(units, unit):
    assert exact_text(units, unit) == str(Fraction(units, unit))


@given(units, unit)
def test_two_decimals_round_halves_up(units, unit):
    assert rounded(units, unit) == floor(Fraction(units, unit) * 100 + Fraction(1, 2)) / 100


def test_hand_made_amounts():
    assert [exact_text(143, 2), exact_text(100, 2), exact_text(-2, 6)] == ["143/2", "50", "-1/3"]
    assert [rounded(1, 8), rounded(-1, 8), rounded(2, 3), rounded(143, 2)] == [
        0.13,
        -0.12,
        0.67,
        71.5,
    ]
    texts = AmountTexts(6)
    assert (texts.exact[4], texts.rounded[4], texts.exact[4]) == ('"2/3"', "0.67", '"2/3"')
