"""The points table of `keizer-rules.md` section 3, outcome by outcome."""

from fractions import Fraction

import pytest

from competition.keizer.scoring import (
    ATTENDED,
    NO_SHOWS,
    POINTS_TABLE,
    Appearance,
    Outcome,
    appearances,
    own_share,
    points,
    share,
)
from competition.keizer.season import SHARE_SETTINGS, Absence, Game, Result, Round, Settings

SETTINGS = Settings()
OWN, OPPONENT = 42, 30


@pytest.mark.parametrize(
    ("result", "white_points", "black_points"),
    [
        (Result.WHITE_WINS, OPPONENT, 0),
        (Result.BLACK_WINS, 0, 42),
        (Result.DRAW, Fraction(OPPONENT, 2), Fraction(42, 2)),
        (Result.WHITE_WINS_BY_FORFEIT, OPPONENT, 0),  # white vrijgesteld: the absent's value
        (Result.BLACK_WINS_BY_FORFEIT, 0, 42),
        (Result.DOUBLE_FORFEIT, 0, 0),
    ],
)
def test_games_earn_the_opponents_value(result, white_points, black_points):
    parts = appearances(Round(games=(Game("w", "b", result),)))
    assert points(parts["w"], OWN, OPPONENT, SETTINGS) == white_points
    assert points(parts["b"], OPPONENT, OWN, SETTINGS) == black_points


@pytest.mark.parametrize(
    ("reason", "expected"),
    [
        (Absence.EXCUSED, Fraction(42, 3)),
        (Absence.TEAM, Fraction(2 * 42, 3)),
        (Absence.AUTO, Fraction(42, 3)),
        (Absence.LATE, 0),
        (Absence.UNEXCUSED, 0),
    ],
)
def test_absences_earn_a_share_of_the_own_value(reason, expected):
    part = appearances(Round(absent={"p": reason}))["p"]
    assert points(part, OWN, 0, SETTINGS) == expected


def test_the_bye_earns_the_own_value_and_settings_change_the_shares():
    part = appearances(Round(bye="p"))["p"]
    assert points(part, OWN, 0, SETTINGS) == OWN
    half = Settings(bye_fraction=Fraction(1, 2), excused_fraction=Fraction(1, 4))
    assert points(part, OWN, 0, half) == 21
    excused = appearances(Round(absent={"p": Absence.EXCUSED}))["p"]
    assert points(excused, OWN, 0, half) == Fraction(21, 2)


def test_forfeits_give_no_colour_and_played_games_do():
    parts = appearances(
        Round(games=(Game("a", "b", Result.WHITE_WINS_BY_FORFEIT), Game("c", "d", Result.DRAW)))
    )
    assert parts["a"].colour is None and parts["b"].colour is None
    assert (parts["c"].colour, parts["d"].colour) == ("white", "black")


def test_attendance_counts_games_forfeit_wins_byes_and_team_matches():
    assert {
        Outcome.WIN,
        Outcome.DRAW,
        Outcome.LOSS,
        Outcome.FORFEIT_WIN,
        Outcome.BYE,
        Outcome.TEAM,
    } == ATTENDED


def test_the_table_has_a_row_for_every_outcome_and_names_only_shares_of_the_settings():
    assert set(POINTS_TABLE) == set(Outcome)
    named = {name for row in POINTS_TABLE.values() for name in row if isinstance(name, str)}
    assert named == {
        "win",
        "draw",
        "loss",
        "forfeit_win",
        "forfeit_loss",
        "double_forfeit",
        "bye",
        "excused",
        "team",
        "late",
        "unexcused",
        "auto",
        "reason",
    }
    own_reason = Settings(absence_fractions=(("rest", Fraction(1, 4)),))
    shares = {name: share(name, own_reason, "rest") for name in named}
    assert shares == {
        "win": 1,
        "draw": Fraction(1, 2),
        "loss": 0,
        "forfeit_win": 1,
        "forfeit_loss": 0,
        "double_forfeit": 0,
        "bye": 1,
        "excused": Fraction(1, 3),
        "team": Fraction(2, 3),
        "late": 0,
        "unexcused": 0,
        "auto": Fraction(1, 3),
        "reason": Fraction(1, 4),
    }
    assert SHARE_SETTINGS == (
        "bye_fraction",
        "excused_fraction",
        "team_fraction",
        "auto_absence_fraction",
    )


@pytest.mark.parametrize("outcome", [Outcome.LATE, Outcome.UNEXCUSED, Outcome.FORFEIT_LOSS])
def test_late_cancellations_and_no_shows_score_nothing_whatever_the_shares(outcome):
    generous = Settings(
        bye_fraction=Fraction(2),
        excused_fraction=Fraction(9, 10),
        team_fraction=Fraction(9, 10),
        auto_absence_fraction=Fraction(9, 10),
    )
    own, opponent = POINTS_TABLE[outcome]
    assert share(own, generous) == share(opponent, generous) == 0
    assert own_share(outcome, generous) == 0
    opponent = "x" if outcome is Outcome.FORFEIT_LOSS else None
    assert points(Appearance(outcome, opponent), OWN, OPPONENT, generous) == 0


def test_the_shares_come_from_the_competitions_settings():
    settings = Settings(excused_fraction=Fraction(2, 5))
    assert POINTS_TABLE[Outcome.EXCUSED][0] == "excused"
    assert own_share(Outcome.EXCUSED, settings) == Fraction(2, 5)
    assert own_share(Outcome.TEAM, settings) == Fraction(2, 3)


@pytest.mark.parametrize(
    ("white_came", "black_came", "result"),
    [
        (True, False, Result.WHITE_WINS_BY_FORFEIT),
        (False, True, Result.BLACK_WINS_BY_FORFEIT),
        (False, False, Result.DOUBLE_FORFEIT),
    ],
)
def test_whoever_came_wins_by_default(white_came, black_came, result):
    assert Result.by_default(white_came, black_came) is result
    assert result.is_forfeit


def test_a_game_both_came_to_has_no_default_result():
    with pytest.raises(ValueError):
        Result.by_default(True, True)


def test_no_shows_are_the_absent_without_cancelling_and_the_default_losers():
    assert {
        Outcome.UNEXCUSED,
        Outcome.FORFEIT_LOSS,
        Outcome.DOUBLE_FORFEIT,
    } == NO_SHOWS
