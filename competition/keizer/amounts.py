"""Amounts as the command line prints them: an exact fraction in lowest terms ("143/2") and a
number rounded to two decimals (71.5), from an integer count of `1/unit` with integer
arithmetic only (no `Fraction` on the way)."""

from __future__ import annotations

from math import gcd


def exact_text(units: int, unit: int) -> str:
    """`str(Fraction(units, unit))` for a positive unit: "143/2", "50", "-1/3"."""
    common = gcd(units, unit)
    numerator, denominator = units // common, unit // common
    return str(numerator) if denominator == 1 else f"{numerator}/{denominator}"


def rounded(units: int, unit: int) -> float:
    """Two decimals, halves rounded up (1/8 -> 0.13), as people round: the whole number of
    hundredths `floor(units / unit × 100 + 1/2)`, divided by 100 as a float."""
    return (200 * units + unit) // (2 * unit) / 100


class ExactTexts(dict):
    """`exact_text` of amounts in `1/unit`, by their units, each made the first time it is
    asked (150 players' 28 rounds hold a few hundred different amounts)."""

    def __init__(self, unit: int):
        super().__init__()
        self.unit = unit

    def __missing__(self, units: int) -> str:
        text = self[units] = exact_text(units, self.unit)
        return text


class ExactTextsByUnit(dict):
    """The `ExactTexts` of every unit, each made the first time it is asked."""

    def __missing__(self, unit: int) -> ExactTexts:
        texts = self[unit] = ExactTexts(unit)
        return texts


class AmountTexts:
    """The JSON texts of amounts in `1/unit`, each worked out once: a season's rankings repeat
    the same few hundred amounts hundreds of thousands of times."""

    def __init__(self, unit: int):
        self.rounded = _RoundedTexts(unit)  # as json writes a float
        self.exact = _ExactTexts(unit)  # digits, "-" and "/": nothing to escape


class _RoundedTexts(dict):
    def __init__(self, unit: int):
        super().__init__()
        self.unit = unit

    def __missing__(self, units: int) -> str:
        text = self[units] = repr(rounded(units, self.unit))
        return text


class _ExactTexts(_RoundedTexts):
    def __missing__(self, units: int) -> str:
        text = self[units] = f'"{exact_text(units, self.unit)}"'
        return text
