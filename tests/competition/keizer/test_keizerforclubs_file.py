"""KeizerForClubs' own tournament file read as a season (issue 39, point 4): its settings,
players and rounds, and our points against the ones it stored, to its ±0.01; a damaged or
foreign file refused with the problem named."""

from fractions import Fraction

import pytest

from competition.keizer import keizerforclubs
from competition.keizer.season import Absence, Result
from tests.competition.keizer.kfc_files import TOURNAMENT_2022, TOURNAMENT_2024, tournament_file


def test_the_shipped_tournament_is_read_with_its_settings_and_players(tmp_path):
    tournament = keizerforclubs.read(str(tournament_file(tmp_path)))
    season = tournament.season
    # Ranking 0 by rating, as it orders it: Amurru 1891, Helena 1816, … Ajax 1026.
    assert [p.name for p in season.players] == [
        "Amurru", "Helena", "Ninedena", "Inanna", "Hermes", "Isenbrink", "Achill", "Verdandi",
        "Ajax",
    ]  # fmt: skip
    retired = [p.name for p in season.players if p.withdrawn_after_round == 0]
    assert retired == ["Verdandi"]  # state 9
    settings = season.settings
    # Its ConfigTab: RatioFirst2Last 3, GameRepeat 4, Excused 35, Unexcused 5, Clubgame 70,
    # Freilos 50, Retired 75, Verlust 0.
    assert settings.top_value == "ratio:3" and settings.repeat_gap == 5
    assert (settings.excused_fraction, settings.team_fraction) == (
        Fraction(7, 20),
        Fraction(7, 10),
    )
    assert settings.absence_share("unexcused") == Fraction(1, 20)
    assert settings.bye_fraction == Fraction(1, 2)
    assert settings.withdrawn_opponent_fraction == Fraction(3, 4)
    assert settings.game_shares[2] == 0
    first = season.rounds[0]
    # Round 1: board 1 Helena–Amurru ½-½ (Result 2), Hermes and Ajax excused (6), Verdandi's
    # free win (4) is the bye.
    assert first.games[0].result is Result.DRAW
    assert first.absent == {"7": Absence.EXCUSED, "10": Absence.EXCUSED}
    assert first.bye == "12"
    assert len(season.rounds) == 5 and tournament.left_out is None


def test_our_points_are_the_ones_it_stored(tmp_path):
    """Every round's points of every player and every total, as KeizerForClubs stored them
    after round 5 (Pairing.Pts_W/Pts_B, Player.Keizer_SumPts), to its own ±0.01."""
    tournament = keizerforclubs.read(str(tournament_file(tmp_path)))
    compared, differing = keizerforclubs.differences(tournament)
    assert differing == []
    assert compared == 8 * 5 + 8  # eight ranked players' five rounds and totals


def test_a_last_round_paired_but_not_played_is_left_out(tmp_path):
    tournament = keizerforclubs.read(str(tournament_file(tmp_path, TOURNAMENT_2022)))
    assert tournament.left_out == 5
    assert len(tournament.season.rounds) == 4
    assert keizerforclubs.differences(tournament) == (0, [])  # its numbers include round 5
    assert tournament.season.settings.top_value == "ratio:3"  # no ConfigTab: its defaults


WICKER = "OPTION.WickerNormalization"  # its normalization of the points: not ours


@pytest.mark.parametrize(
    ("changes", "problem", "details"),
    [
        (["DROP TABLE Pairing"], "missing", {"table": "Pairing", "column": ""}),
        (["UPDATE Pairing SET Result = 13 WHERE Rnd = 2 AND board = 1"], "unknown_result",
         {"round": 2, "board": 1, "code": 13}),
        (["UPDATE Pairing SET PID_B = 99 WHERE Rnd = 3 AND board = 1"], "unknown_player",
         {"round": 3, "board": 1, "player": 99}),
        (["UPDATE Pairing SET PID_B = 3 WHERE Rnd = 1 AND board = 2"], "twice",
         {"round": 1, "player": 3}),
        (["UPDATE Pairing SET Result = -1 WHERE Rnd = 2 AND board = 1"], "unplayed",
         {"round": 2, "board": 1}),
        (["DELETE FROM Pairing WHERE Rnd = 3"], "round_missing", {"round": 3}),
        (["UPDATE Pairing SET Result = 4 WHERE Rnd = 1 AND board = 100"], "byes", {"round": 1}),
        (["DELETE FROM Player"], "no_players", {}),
        (["UPDATE Player SET name = 'Amurru' WHERE id = 4"], "same_name", {"name": "Amurru"}),
        (["UPDATE Player SET name = 'Hel' || char(7) || 'ena' WHERE id = 4"], "bad_name",
         {"player": 4}),
        (["UPDATE Player SET name = '  ' WHERE id = 4"], "bad_name", {"player": 4}),
        # A view of the same name is not its table.
        (["ALTER TABLE Player RENAME TO Spieler", "CREATE VIEW Player AS SELECT * FROM Spieler"],
         "missing", {"table": "Player", "column": ""}),
        ([f"UPDATE ConfigTab SET CfgValue = 1 WHERE CfgKey = '{WICKER}'"], "option",
         {"option": WICKER}),
    ],
)  # fmt: skip
def test_a_tournament_the_site_cannot_take_is_refused_with_its_problem(
    tmp_path, changes, problem, details
):
    path = tournament_file(tmp_path, TOURNAMENT_2024, *changes)
    with pytest.raises(keizerforclubs.TournamentFileError) as refused:
        keizerforclubs.read(str(path))
    assert (refused.value.problem, refused.value.details) == (problem, details)


def test_a_file_that_is_no_sqlite_or_is_damaged_is_refused(tmp_path):
    text = tmp_path / "toernooi.s3db"
    text.write_text("Naam;Rating\nAmurru;1891\n", encoding="utf-8")
    with pytest.raises(keizerforclubs.TournamentFileError) as refused:
        keizerforclubs.read(str(text))
    assert refused.value.problem == "not_sqlite"
    whole = tournament_file(tmp_path).read_bytes()
    cut = tmp_path / "afgebroken.s3db"
    cut.write_bytes(whole[:100] + b"\x00" * 50 + whole[150 : len(whole) // 2])
    with pytest.raises(keizerforclubs.TournamentFileError) as refused:
        keizerforclubs.read(str(cut))
    assert refused.value.problem == "damaged"


def test_a_read_that_runs_long_is_cut_short(tmp_path, monkeypatch):
    """A file is data only: the reading stops after a budget of SQLite's steps (a crafted file
    cannot keep the page busy), and the file is refused as damaged. Here with a budget no
    reading fits in."""
    monkeypatch.setattr(keizerforclubs, "MAX_STEPS", 0)
    with pytest.raises(keizerforclubs.TournamentFileError) as refused:
        keizerforclubs.read(str(tournament_file(tmp_path)))
    assert refused.value.problem == "damaged"
