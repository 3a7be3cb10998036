"""Games over the board: wins, draws, losses and the score (chess convention)."""

from collections import Counter
from fractions import Fraction

from competition.keizer.record import Record, record_of
from competition.keizer.scoring import Outcome as O


def test_only_games_played_over_the_board_count():
    outcomes = [O.WIN, O.WIN, O.WIN, O.DRAW, O.DRAW, O.LOSS]
    extras = [O.FORFEIT_WIN, O.FORFEIT_LOSS, O.DOUBLE_FORFEIT, O.BYE, O.EXCUSED, O.TEAM]
    record = record_of(Counter(outcomes + extras))
    assert record == Record(wins=3, draws=2, losses=1)
    assert record.games == 6
    assert record.score == 4  # 3 + ½ + ½
    assert record.percentage == Fraction(200, 3)  # 4 of 6 = 66⅔ %


def test_without_a_game_there_is_no_percentage():
    record = record_of(Counter([O.BYE, O.FORFEIT_WIN, O.EXCUSED]))
    assert record.games == 0 and record.percentage is None
