"""How amounts look on the site: exact, in one notation everywhere (71½, 15⅔, 18⅘).

The fraction of an amount is one character where Unicode has it (½ ⅓ ⅔ ¼ ¾ ⅕ … ⅞), else a
small numerator over a small denominator (⁵⁄₁₂); never a rounded decimal. The pages, the
e-mails and the explanations write amounts with `format_amount` (templates with the `amount`
filter); the engine's files and command line have their own notation (`keizer.amounts`).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

VULGAR_FRACTIONS = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
    Fraction(1, 5): "⅕",
    Fraction(2, 5): "⅖",
    Fraction(3, 5): "⅗",
    Fraction(4, 5): "⅘",
    Fraction(1, 6): "⅙",
    Fraction(5, 6): "⅚",
    Fraction(1, 7): "⅐",
    Fraction(1, 8): "⅛",
    Fraction(3, 8): "⅜",
    Fraction(5, 8): "⅝",
    Fraction(7, 8): "⅞",
    Fraction(1, 9): "⅑",
    Fraction(1, 10): "⅒",
}
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


@lru_cache(maxsize=4096)
def format_amount(value: Fraction | int | str) -> str:
    """An exact amount: 71½, 15⅔, ⅓, 7⁵⁄₁₂, 40."""
    amount = Fraction(value)
    sign = "−" if amount < 0 else ""
    whole, rest = divmod(abs(amount), 1)
    if rest == 0:
        return f"{sign}{whole}"
    part = VULGAR_FRACTIONS.get(rest) or (
        f"{rest.numerator}".translate(SUPERSCRIPT)
        + "⁄"
        + f"{rest.denominator}".translate(SUBSCRIPT)
    )
    return f"{sign}{whole or ''}{part}"
