"""How a share of a value is worded, in the competition's numbers (`explanations.py`)."""

from fractions import Fraction

import pytest

from competition.explanations import explain, share_of_value
from competition.keizer import settings_file
from competition.keizer.scoring import Appearance, Outcome


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


def keizer(**document):
    return settings_file.settings_from_document(document)


DSC = keizer()
# The Keizer of a club that scores a loss and halves each next absence, by hand.
LOSS_SIXTH = keizer(game_shares={"win": "1", "draw": "1/3", "loss": "1/6"})


@pytest.mark.parametrize(
    ("outcome", "settings", "values", "points", "text"),
    [
        (Outcome.WIN, DSC, (30, 40), 40, "won van Piet, waarde 40 → 40 punten"),
        (Outcome.DRAW, DSC, (30, 40), 20, "remise tegen Piet, de helft van waarde 40 → 20 punten"),
        (Outcome.LOSS, DSC, (30, 40), 0, "verloor van Piet → 0 punten"),
        (Outcome.LOSS, LOSS_SIXTH, (30, 42), 7, "verloor van Piet, ⅙ van waarde 42 → 7 punten"),
        (Outcome.DRAW, LOSS_SIXTH, (30, 30), 10, "remise tegen Piet, ⅓ van waarde 30 → 10 punten"),
        (
            Outcome.FORFEIT_LOSS,
            keizer(forfeit_shares={"win": "1", "loss": "1/2", "double": "0"}),
            (30, 40),
            20,
            "niet verschenen tegen Piet (reglementair verlies), de helft van waarde 40 → 20 punten",
        ),
    ],
)
def test_a_game_is_explained_with_the_variants_share(outcome, settings, values, points, text):
    own, opponent = values
    appearance = Appearance(outcome, "piet")
    assert explain(appearance, "Piet", own, opponent, Fraction(points), settings) == text


ILL = keizer(absence_fractions={"ziek": "1/2"})
DECAY = keizer(absence_decay=True)
LIMIT = keizer(absence_limit=2)


@pytest.mark.parametrize(
    ("outcome", "reason", "settings", "counted", "points", "text"),
    [
        (
            Outcome.EXCUSED,
            None,
            DSC,
            0,
            Fraction(16),
            "op tijd afgemeld: ⅓ van eigen waarde 48 = 16 punten",
        ),
        (Outcome.ABSENT, "ziek", ILL, 0, Fraction(24), "ziek: ½ van eigen waarde 48 = 24 punten"),
        (
            Outcome.EXCUSED,
            None,
            DECAY,
            0,
            Fraction(16),
            "op tijd afgemeld: ⅓ van eigen waarde 48 = 16 punten",
        ),
        (
            Outcome.EXCUSED,
            None,
            DECAY,
            2,
            Fraction(4),
            "op tijd afgemeld: ⅓ van eigen waarde 48 = 16 punten, 2 keer gehalveerd om de "
            "afwezigheden ervoor → 4 punten",
        ),
        (
            Outcome.EXCUSED,
            None,
            DECAY,
            1,
            Fraction(8),
            "op tijd afgemeld: ⅓ van eigen waarde 48 = 16 punten, gehalveerd om de afwezigheid "
            "ervoor → 8 punten",
        ),
        (
            Outcome.EXCUSED,
            None,
            LIMIT,
            1,
            Fraction(16),
            "op tijd afgemeld: ⅓ van eigen waarde 48 = 16 punten",
        ),
        (
            Outcome.EXCUSED,
            None,
            LIMIT,
            2,
            Fraction(0),
            "op tijd afgemeld: meer dan 2 keer afwezig → 0 punten",
        ),
        # A team match does not count towards the limit unless the club says so.
        (
            Outcome.TEAM,
            None,
            LIMIT,
            5,
            Fraction(32),
            "teamwedstrijd: ⅔ van eigen waarde 48 = 32 punten",
        ),
        (
            Outcome.BYE,
            None,
            keizer(fixed_points={"bye": "10"}),
            0,
            Fraction(10),
            "vrij (oneven): vast 10 punten",
        ),
    ],
)
def test_an_absence_is_explained_in_the_variants_words(
    outcome, reason, settings, counted, points, text
):
    appearance = Appearance(outcome, None, None, reason)
    assert explain(appearance, "", 48, 0, points, settings, counted=counted) == text


def test_a_round_before_joining_is_explained_with_the_newcomers_points():
    handicap = keizer(late_join="handicap", late_join_handicap="5")
    line = explain(None, "", 0, 0, Fraction(5), handicap, before_joining=True)
    assert line == "speelde nog niet mee: 5 punten per ronde voor de instap"
    assert explain(None, "", 0, 0, Fraction(0), DSC, before_joining=True) == (
        "deed niet mee → 0 punten"
    )
