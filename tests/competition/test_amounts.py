"""How the site writes an amount: exact, a fraction as one character where Unicode has it."""

from fractions import Fraction

import pytest

from competition.amounts import format_amount


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (Fraction(143, 2), "71½"),
        (Fraction(47, 3), "15⅔"),
        (Fraction(94, 5), "18⅘"),
        (Fraction(1, 3), "⅓"),
        (Fraction(89, 12), "7⁵⁄₁₂"),  # no character for twelfths: numerator over denominator
        (Fraction(12, 11), "1¹⁄₁₁"),
        (40, "40"),
        (0, "0"),
        ("143/2", "71½"),  # as the season file writes it
        (Fraction(-1, 2), "−½"),  # a minus sign, not a hyphen
        (Fraction(-7, 2), "−3½"),
        (-3, "−3"),
    ],
)
def test_an_amount_is_written_exactly(value, written):
    assert format_amount(value) == written
