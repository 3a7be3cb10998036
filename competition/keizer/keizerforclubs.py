"""A KeizerForClubs tournament file (`.s3db`) read as a season (issue 39, point 4).

KeizerForClubs (github.com/Dumuzy/KeizerForClubs) keeps a tournament in one SQLite file:
`Player` (id, name, rating, state, ...), `Pairing` (Rnd, board, PID_W, PID_B, Result, Pts_W,
Pts_B; from board 100 on a row holds one player: a bye or an absence) and `ConfigTab` (its
settings, CfgKey and CfgValue). `read` gives the season under the `keizerforclubs` preset with
the file's own settings, and the points KeizerForClubs stored, to compare with ours. Its codes
and rules are those of its source (`cSqliteInterface.cs`, `RankingCalculator.cs`), described in
docs/keizer.md ("Variants"). A file that is not such a tournament, or holds what the engine
cannot score as KeizerForClubs does, is refused: `TournamentFileError` names the problem with a
code and its details, for the site to word.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from fractions import Fraction

from .ranking import compute_rankings
from .season import Absence, Game, Player, Result, Round, Season
from .season_file import text_problem
from .settings_file import settings_from_document

# Its `Results` codes: the games, the bye, and the absences (a late start is a reason of the
# club's own here, scored as KeizerForClubs scores it: with the unexcused share).
GAMES = {
    1: Result.WHITE_WINS,
    2: Result.DRAW,
    3: Result.BLACK_WINS,
    8: Result.WHITE_WINS_BY_FORFEIT,
    9: Result.BLACK_WINS_BY_FORFEIT,
    10: Result.DOUBLE_FORFEIT,
}
FREE_WIN = 4
LATE_START = "late_start"
ABSENCES = {5: Absence.TEAM, 6: Absence.EXCUSED, 7: Absence.UNEXCUSED, 12: LATE_START}
NON_BOARD = 100  # the first board of a one-player row
RETIRED = 9  # its `PlayerState.Retired`: its games count for nobody (withdrawn from the start)
TABLES = {
    "Player": ("id", "name", "rating", "state", "Keizer_SumPts"),
    "Pairing": ("Rnd", "board", "PID_W", "PID_B", "Result", "Pts_W", "Pts_B"),
    "ConfigTab": ("CfgKey", "CfgValue"),
}
# Its options that change the points and that the engine does not score: refused when on.
UNSUPPORTED = ("OPTION.WickerNormalization", "OPTION.DecayPrevRound")
SQLITE_HEADER = b"SQLite format 3\x00"
MAX_STEPS = 200_000  # of 100 SQLite instructions each: 20 million (the shipped file needs 5,000)


class TournamentFileError(ValueError):
    """Not a KeizerForClubs tournament the site can take: `problem` is one of `not_sqlite`,
    `damaged`, `missing` (table, column), `no_players`, `bad_name` (player), `same_name`
    (name), `no_rounds`, `round_missing` (round),
    `unplayed` (round, board), `unknown_result` (round, board, code), `unknown_player` (round,
    board, player), `twice` (round, player), `byes` (round), `option` (option)."""

    def __init__(self, problem: str, **details):
        super().__init__(problem, details)
        self.problem = problem
        self.details = details


@dataclass(frozen=True)
class Tournament:
    season: Season
    points: dict[tuple[int, str], Fraction]  # (round, player id): the round's stored points
    totals: dict[str, Fraction]  # player id: the stored total (Keizer_SumPts)
    left_out: int | None = None  # a last round paired but not played, left out


def read(path: str) -> Tournament:
    """The tournament in the file at `path`, opened read-only."""
    with open(path, "rb") as file:
        if file.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
            raise TournamentFileError("not_sqlite")
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error:
        raise TournamentFileError("damaged") from None
    # A file is data: no query may run long (a crafted view could compute for ever).
    budget = iter(range(MAX_STEPS))
    connection.set_progress_handler(lambda: next(budget, None) is None, 100)
    try:
        return _tournament(connection)
    except sqlite3.DatabaseError:  # damaged, or the budget spent (interrupted)
        raise TournamentFileError("damaged") from None
    finally:
        connection.close()


def _tournament(connection: sqlite3.Connection) -> Tournament:
    config = _check_tables(connection)
    for option in UNSUPPORTED:
        if config.get(option):
            raise TournamentFileError("option", option=option)
    rows = connection.execute("SELECT id, name, rating, state, Keizer_SumPts FROM Player")
    players = sorted(rows, key=lambda row: (-(row[2] or 0), row[0]))  # its ranking 0: rating
    if not players:
        raise TournamentFileError("no_players")
    known = {row[0]: str(row[0]) for row in players}
    names: set[str] = set()
    for pid, name, *_rest in players:
        if not isinstance(name, str) or not name.strip() or text_problem(name):
            raise TournamentFileError("bad_name", player=pid)
        if name in names:  # the site keeps one member per name
            raise TournamentFileError("same_name", name=name)
        names.add(name)
    pairings = list(
        connection.execute(
            "SELECT Rnd, board, PID_W, PID_B, Result, Pts_W, Pts_B FROM Pairing ORDER BY Rnd, board"
        )
    )
    last = max((row[0] for row in pairings), default=0)
    unplayed = [row for row in pairings if row[1] < NON_BOARD and row[4] in (0, -1, 11)]
    left_out = None
    if unplayed and all(row[0] == last for row in unplayed):
        left_out = last  # paired, not played: left out, to be paired again on the site
        last -= 1
    rounds, points = [], {}
    late_start = False
    for number in range(1, last + 1):
        in_round = [row for row in pairings if row[0] == number]
        if not in_round:
            raise TournamentFileError("round_missing", round=number)
        games, absent, byes, seen = [], {}, [], set()
        for _number, board, white, black, code, white_points, black_points in in_round:
            for pid in (white, black) if board < NON_BOARD else (white,):
                if pid not in known:
                    raise TournamentFileError(
                        "unknown_player", round=number, board=board, player=pid
                    )
                if pid in seen:
                    raise TournamentFileError("twice", round=number, player=pid)
                seen.add(pid)
            points[number, known[white]] = _amount(white_points)
            if board < NON_BOARD:
                points[number, known[black]] = _amount(black_points)
                if code in (0, -1, 11):  # not played yet, or adjourned
                    raise TournamentFileError("unplayed", round=number, board=board)
                if code not in GAMES:
                    raise TournamentFileError(
                        "unknown_result", round=number, board=board, code=code
                    )
                games.append(Game(known[white], known[black], GAMES[code]))
            elif code == FREE_WIN:
                byes.append(known[white])
            elif code in ABSENCES:
                absent[known[white]] = ABSENCES[code]
                late_start = late_start or code == 12
            else:
                raise TournamentFileError("unknown_result", round=number, board=board, code=code)
        if len(byes) > 1:
            raise TournamentFileError("byes", round=number)
        rounds.append(Round(games=tuple(games), absent=absent, bye=byes[0] if byes else None))
    if not rounds:
        raise TournamentFileError("no_rounds")
    season = Season(
        settings=settings_from_document(_settings(config, late_start)),
        players=tuple(
            Player(
                known[pid],
                name,
                withdrawn_after_round=0 if state == RETIRED else None,
            )
            for pid, name, _rating, state, _total in players
        ),
        rounds=tuple(rounds),
    )
    totals = {known[pid]: _amount(total) for pid, _name, _rating, _state, total in players}
    return Tournament(season, points, totals, left_out)


def _check_tables(connection: sqlite3.Connection) -> dict:
    """Refuse a file without its tables and columns; its settings (`ConfigTab`, which its
    older files do not have: then its defaults, those of the preset)."""
    tables = {
        row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    for table, columns in TABLES.items():
        present = set()
        if table in tables:  # a table, not a view of the same name
            present = {row[1] for row in connection.execute(f'PRAGMA table_info("{table}")')}
        if not present and table == "ConfigTab":
            return {}
        if not present:
            raise TournamentFileError("missing", table=table, column="")
        for column in columns:
            if column not in present:
                raise TournamentFileError("missing", table=table, column=column)
    return dict(connection.execute("SELECT CfgKey, CfgValue FROM ConfigTab"))


def _percent(config: dict, key: str, default: float) -> str:
    """A percentage of its ConfigTab as the settings' fraction ("35" → "7/20")."""
    value = config.get(key)
    return str(Fraction(round((default if value is None else value) * 100), 10000))


def _settings(config: dict, late_start: bool) -> dict:
    """The season file's settings of the file's ConfigTab, over the `keizerforclubs` preset
    (whose values are its defaults, `docs/keizer.md`)."""
    unexcused = _percent(config, "BONUS.Unexcused", 5)
    absences = {
        "excused": _percent(config, "BONUS.Excused", 35),
        "unexcused": unexcused,
        "late": unexcused,
        "team": _percent(config, "BONUS.Clubgame", 70),
    }
    if late_start:
        absences[LATE_START] = unexcused
    document = {
        "profile": "keizerforclubs",
        "absence_fractions": absences,
        "bye_fraction": _percent(config, "BONUS.Freilos", 50),
        "game_shares": {"loss": _percent(config, "BONUS.Verlust", 0)},
        "withdrawn_opponent_fraction": _percent(config, "BONUS.Retired", 75),
    }
    if config.get("OPTION.RatioFirst2Last"):
        document["top_value"] = f"ratio:{Fraction(str(config['OPTION.RatioFirst2Last']))}"
    if config.get("OPTION.GameRepeat") is not None:
        document["repeat_gap"] = int(config["OPTION.GameRepeat"]) + 1
    if config.get("OPTION.DecayBonus"):
        document["absence_decay"] = True
        document["absence_limit_reasons"] = ["excused", "unexcused"]
    return document


def _amount(value: float | None) -> Fraction:
    """A stored amount as it prints it, at two decimals (it computes in float32)."""
    return Fraction(round((value or 0) * 100), 100)


TOLERANCE = Fraction(1, 100)  # it prints two decimals of float32 amounts


def differences(tournament: Tournament) -> tuple[int, list[tuple[int, str, Fraction, Fraction]]]:
    """Our points of every round and our totals against those it stored, to its ±0.01: how
    many amounts were compared, and those that differ as (round, or 0 for the total, player id,
    ours, its own). Nothing to compare when a round was left out (its numbers include it)."""
    if tournament.left_out is not None:
        return 0, []
    last = compute_rankings(tournament.season, since=len(tournament.season.rounds))[-1]
    compared, differing = 0, []
    for standing in last.standings:
        player = standing.player_id
        ours = [Fraction(units, standing.unit) for units in standing.points_units]
        amounts = [(number, points) for number, points in enumerate(ours, start=1)]
        amounts.append((0, Fraction(standing.total_units, standing.unit)))
        for number, points in amounts:
            stored = (
                tournament.totals[player]
                if number == 0
                else tournament.points.get((number, player))
            )
            if stored is None:  # no row of theirs: the round did not count for the player
                continue
            compared += 1
            if abs(points - stored) > TOLERANCE:
                differing.append((number, player, points, stored))
    return compared, differing
