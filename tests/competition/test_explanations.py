"""How a share of a value is worded, in the competition's numbers (`explanations.py`)."""

from fractions import Fraction

import pytest

from competition.explanations import share_of_value


@pytest.mark.parametrize(
    ("share", "value", "points", "yours", "text"),
    [
        (Fraction(1, 3), 47, Fraction(47, 3), True, "⅓ van je waarde 47 = 15⅔ punten"),
        (Fraction(2, 5), 48, Fraction(96, 5), True, "⅖ van je waarde 48 = 19⅕ punten"),
        (Fraction(2, 3), 42, Fraction(28), False, "⅔ van eigen waarde 42 = 28 punten"),
        (Fraction(1), 41, Fraction(41), True, "je waarde 41 = 41 punten"),
        (Fraction(1), 41, Fraction(41), False, "eigen waarde 41 = 41 punten"),
        (Fraction(0), 47, Fraction(0), True, "0 punten"),
        (Fraction(1, 3), None, Fraction(0), True, "⅓ van je waarde"),
        (Fraction(1), None, Fraction(0), True, "je waarde"),  # a newcomer's bye, unranked
    ],
)
def test_a_share_of_a_value_is_worded_with_its_numbers(share, value, points, yours, text):
    assert share_of_value(share, value, points, yours) == text
