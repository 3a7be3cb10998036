"""Reading, validating and writing the season file (`shared/spec/season-format.md`).

Every problem is reported as a `SeasonFileError` naming the place in the document
(`rounds[3].games[2].result`) and the problem, so the command line can print one line.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from fractions import Fraction

from .season import (
    Absence,
    Game,
    PairRequest,
    Player,
    Result,
    Round,
    Season,
    Settings,
    absence_reason,
    reason_text,
)

# `typing` is imported for the type checker only: the command line does without its import.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, BinaryIO


class SeasonFileError(ValueError):
    def __init__(self, where: str, problem: str):
        super().__init__(f"{where}: {problem}" if where else problem)
        self.where = where
        self.problem = problem


RESULT_ALIASES = {"½-½": Result.DRAW}
_FRACTION = re.compile(r"\s*(-?[0-9]{1,12})\s*(?:/\s*([0-9]{1,12})\s*)?")
_PLAIN_KEY = re.compile(r"[A-Za-z0-9_.-]+")
# Bounds that no real club reaches; they keep arithmetic and output sizes sane.
MAX_INTEGER = 1_000_000
MAX_NUMERATOR = 10**9
MAX_DENOMINATOR = 100
# A real season file is well under 1 MB (150 players, 28 rounds: about 150 kB).
MAX_FILE_BYTES = 5_000_000
# The work grows with players x rounds x rounds: 400 players and 100 rounds take 19 s to rank,
# 150 and 28 take 0.3 s. A club's season has some 30 rounds (a rapid one a few more).
MAX_PLAYERS = 300
MAX_ROUNDS = 100


def read(file: BinaryIO, where: str, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The text of a season file opened in binary mode, refusing more than `max_bytes` before
    reading them (a regular file by its size, a stream after `max_bytes` + 1 bytes)."""
    try:
        size = os.fstat(file.fileno()).st_size
    except (AttributeError, OSError, ValueError):  # not a real file (a pipe reports 0)
        size = 0
    if size > max_bytes:
        raise SeasonFileError(where, _too_large(max_bytes))
    data = file.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise SeasonFileError(where, _too_large(max_bytes))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise SeasonFileError(where, "the file is not UTF-8 text") from None


def _too_large(max_bytes: int) -> str:
    return f"the file is larger than {max_bytes} bytes, more than any season needs"


def loads(text: str, max_bytes: int = MAX_FILE_BYTES) -> Season:
    """Parse the season file's JSON text (at most `max_bytes` of UTF-8)."""
    if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise SeasonFileError("", _too_large(max_bytes))
    try:
        document = json.loads(text, object_pairs_hook=_refuse_duplicate_keys)
    except json.JSONDecodeError as error:
        raise SeasonFileError(
            f"line {error.lineno} column {error.colno}", f"malformed JSON: {error.msg}"
        ) from None
    except RecursionError:
        raise SeasonFileError("", "malformed JSON: nested too deeply") from None
    except ValueError as error:  # integers beyond Python's digit limit, duplicate keys
        raise SeasonFileError("", f"malformed JSON: {error}") from None
    return from_document(document)


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    document = dict(pairs)
    if len(document) < len(pairs):  # the first key that comes again
        seen: set[str] = set()
        key = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise ValueError(f"duplicate key {_shown(key)}")
    return document


def dumps(season: Season) -> str:
    return json.dumps(to_document(season), ensure_ascii=False, indent=2) + "\n"


def from_document(document: Any) -> Season:
    """Build a validated Season from the decoded JSON document."""
    _expect(document, dict, "", "the season file must be a JSON object")
    _refuse_unknown_keys(document, {"settings", "players", "rounds", "pair"}, "")
    from .settings_file import settings_from_document  # (the settings' own module)

    settings = settings_from_document(document.get("settings", {}))
    players = _players(document.get("players"))
    known = {player.id: player for player in players}
    rounds_data = document.get("rounds", [])
    _expect(rounds_data, list, "rounds", "must be a list")
    if len(rounds_data) > MAX_ROUNDS:
        raise SeasonFileError("rounds", f"at most {MAX_ROUNDS} rounds, not {len(rounds_data)}")
    rounds = tuple(
        _round(data, f"rounds[{index}]", index + 1, known, settings)
        for index, data in enumerate(rounds_data)
    )
    pair = None
    if document.get("pair") is not None:
        where = "pair"
        _expect(document["pair"], dict, where, "must be an object")
        _refuse_unknown_keys(document["pair"], {"absent"}, where)
        absent = _absent(document["pair"].get("absent", {}), f"{where}.absent", known, settings)
        pair = PairRequest(absent=absent)
    return Season(settings=settings, players=players, rounds=rounds, pair=pair)


def to_document(season: Season) -> dict[str, Any]:
    """The season as a JSON-ready document; `from_document(to_document(s)) == s`."""
    from .settings_file import settings_document

    document: dict[str, Any] = {
        "settings": settings_document(season.settings),
        "players": [_player_document(player) for player in season.players],
        "rounds": [round_document(round_) for round_ in season.rounds],
    }
    if season.pair is not None:
        document["pair"] = {"absent": _absent_document(season.pair.absent)}
    return document


def fraction_text(value: Fraction) -> str:
    """A fraction in lowest terms as the file writes it: "143/2", "99"."""
    return str(Fraction(value))


def parse_fraction(value: Any, where: str) -> Fraction:
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value) if abs(value) <= MAX_NUMERATOR else None
    if isinstance(value, str):
        match = _FRACTION.fullmatch(value)
        if match:
            numerator, denominator = int(match.group(1)), int(match.group(2) or "1")
            if denominator == 0:
                raise SeasonFileError(where, f"bad fraction {_shown(value)}: division by zero")
            fraction = Fraction(numerator, denominator)
            if abs(fraction.numerator) > MAX_NUMERATOR or fraction.denominator > MAX_DENOMINATOR:
                raise SeasonFileError(
                    where,
                    f"bad fraction {_shown(value)}: at most {MAX_NUMERATOR} over {MAX_DENOMINATOR}",
                )
            return fraction
    raise SeasonFileError(
        where, f'bad fraction {_shown(value)}: expected an integer or a string like "2/3"'
    )


# -- reading ---------------------------------------------------------------------------------


def _expect(value: Any, kind: type, where: str, problem: str) -> None:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise SeasonFileError(where, problem)


def _refuse_unknown_keys(data: dict, allowed: set[str], where: str) -> None:
    for key in data:
        if key not in allowed:
            place = _key(where, key) if where else json.dumps(key)
            raise SeasonFileError(place, f"unknown key {_shown(key)}")


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 30 else text[:27] + "..."


def _positive_int(value: Any, where: str) -> int:
    problem = f"must be a whole number from 1 to {MAX_INTEGER}, not {_shown(value)}"
    _expect(value, int, where, problem)
    if not 1 <= value <= MAX_INTEGER:
        raise SeasonFileError(where, problem)
    return value


def _whole(value: Any, where: str) -> int:
    problem = f"must be a whole number from 0 to {MAX_INTEGER}, not {_shown(value)}"
    _expect(value, int, where, problem)
    if not 0 <= value <= MAX_INTEGER:
        raise SeasonFileError(where, problem)
    return value


def _key(where: str, key: str) -> str:
    """The place of an object key: plain keys as they are, others quoted."""
    return f"{where}.{key}" if _PLAIN_KEY.fullmatch(key) else f"{where}[{json.dumps(key)}]"


def _text(value: Any, where: str) -> str:
    """A string that can be written out again (no lone surrogates) and shown on one line (no
    control characters: NUL, tab, newline, ...)."""
    problem = text_problem(value)
    if problem:
        raise SeasonFileError(where, problem)
    return value


# Characters a name never holds: controls (NUL, tab, newline, ...) and format characters (the
# right-to-left override U+202E, the zero-width space U+200B, ...) that change how the text
# around them is shown without being seen. The line and paragraph separators (U+2028, U+2029)
# stay allowed: seasons written before this rule hold them, and the output escapes them.
NOT_IN_A_NAME = {"Cc", "Cf"}


def unseen_character(value: str) -> str | None:
    """The first character of `value` that a name may not hold, or None."""
    return next((c for c in value if unicodedata.category(c) in NOT_IN_A_NAME), None)


def text_problem(value: str) -> str | None:
    """Why a name or id cannot be kept and shown as it is, or None."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "contains characters that are not valid text"
    character = unseen_character(value)
    if character is not None:
        return f"contains the control character {_shown(character)}"
    return None


_PLAYER_KEYS = {"id", "name", "joined_round", "start_points", "withdrawn_after_round"}


def _players(data: Any) -> tuple[Player, ...]:
    _expect(data, list, "players", "must be a list of players")
    if len(data) > MAX_PLAYERS:
        raise SeasonFileError("players", f"at most {MAX_PLAYERS} players, not {len(data)}")
    players: list[Player] = []
    seen: set[str] = set()
    for index, item in enumerate(data):
        where = f"players[{index}]"
        _expect(item, dict, where, "must be an object")
        _refuse_unknown_keys(item, _PLAYER_KEYS, where)
        player_id = item.get("id")
        if not isinstance(player_id, str) or not player_id.strip():
            raise SeasonFileError(f"{where}.id", "must be a non-empty string")
        _text(player_id, f"{where}.id")
        if player_id in seen:
            raise SeasonFileError(f"{where}.id", f"duplicate player id {_shown(player_id)}")
        seen.add(player_id)
        name = item.get("name", player_id)
        _expect(name, str, f"{where}.name", "must be a string")
        _text(name, f"{where}.name")
        joined_round = _positive_int(item.get("joined_round", 1), f"{where}.joined_round")
        start_points = parse_fraction(item.get("start_points", 0), f"{where}.start_points")
        if start_points < 0:
            raise SeasonFileError(f"{where}.start_points", "must not be negative")
        withdrawn = item.get("withdrawn_after_round")
        if withdrawn is not None:
            withdrawn = _whole(withdrawn, f"{where}.withdrawn_after_round")
        players.append(Player(player_id, name, joined_round, start_points, withdrawn))
    return tuple(players)


def _player_ref(value: Any, where: str, known: dict[str, Player], round_number: int) -> str:
    if not isinstance(value, str):
        raise SeasonFileError(where, f"must be a player id, not {_shown(value)}")
    if value not in known:
        raise SeasonFileError(where, f"unknown player id {_shown(value)}")
    player = known[value]
    if not player.has_joined(round_number):
        raise SeasonFileError(
            where, f"player {_shown(value)} joins in round {player.joined_round}, not yet"
        )
    if not player.plays_in(round_number):
        raise SeasonFileError(
            where,
            f"player {_shown(value)} withdrew after round {player.withdrawn_after_round}",
        )
    return value


def _absent(
    data: Any, where: str, known: dict[str, Player], settings: Settings
) -> dict[str, Absence | str]:
    """Who is absent, and why: one of DSC's reasons (`Absence`), or a reason of the club's
    own that the settings give a share (a string)."""
    _expect(data, dict, where, "must be an object of player id to reason")
    absent: dict[str, Absence | str] = {}
    for player_id, reason in data.items():
        place = _key(where, player_id)
        if player_id not in known:
            raise SeasonFileError(place, f"unknown player id {_shown(player_id)}")
        if isinstance(reason, str) and reason in settings.reasons:
            absent[player_id] = absence_reason(reason)
        else:
            reasons = ", ".join(settings.reasons)
            raise SeasonFileError(place, f"unknown reason {_shown(reason)} (one of {reasons})")
    return absent


def _result(value: Any, where: str) -> Result:
    if isinstance(value, str):
        if value in RESULT_ALIASES:
            return RESULT_ALIASES[value]
        try:
            return Result(value)
        except ValueError:
            pass
    raise SeasonFileError(where, f"unknown result {_shown(value)}")


_GAME_KEYS = frozenset({"white", "black", "result"})
# `Game(white, black, result)` without the call of its `__new__` (a season has thousands of
# games): 120 ns a game instead of 210.
_new = tuple.__new__
_RESULTS_BY_TEXT = {result.value: result for result in Result} | RESULT_ALIASES


def _round(
    data: Any, where: str, number: int, known: dict[str, Player], settings: Settings
) -> Round:
    _expect(data, dict, where, "must be an object")
    _refuse_unknown_keys(data, {"games", "absent", "bye"}, where)
    # where each player appears: a place, or (game index, colour) for a game's player
    seen: dict[str, str | tuple[int, str]] = {}

    def take(player_id: str, place: str) -> None:
        if player_id in seen:
            at = seen[player_id]
            if isinstance(at, tuple):
                at = f"{where}.games[{at[0]}].{at[1]}"
            raise SeasonFileError(
                place, f"player {_shown(player_id)} appears twice in this round (also at {at})"
            )
        seen[player_id] = place

    if "games" not in data:
        raise SeasonFileError(where, 'a round needs "games" (an empty list is allowed)')
    games_data = data["games"]
    _expect(games_data, list, f"{where}.games", "must be a list")
    games = []
    for index, item in enumerate(games_data):
        if type(item) is dict:
            # The usual game, accepted at a glance; anything else goes the long way below,
            # which names the first problem.
            white, black, result = item.get("white"), item.get("black"), item.get("result")
            if (
                type(white) is str
                and type(black) is str
                and type(result) is str
                and white != black
                and white in known
                and black in known
                and white not in seen
                and black not in seen
                and known[white].joined_round <= number
                and known[black].joined_round <= number
                and known[white].withdrawn_after_round is None
                and known[black].withdrawn_after_round is None
                and result in _RESULTS_BY_TEXT
                and _GAME_KEYS.issuperset(item)
            ):
                seen[white] = (index, "white")
                seen[black] = (index, "black")
                games.append(_new(Game, (white, black, _RESULTS_BY_TEXT[result])))
                continue
        place = f"{where}.games[{index}]"
        _expect(item, dict, place, "must be an object")
        _refuse_unknown_keys(item, _GAME_KEYS, place)
        white = _player_ref(item.get("white"), f"{place}.white", known, number)
        take(white, f"{place}.white")
        black = _player_ref(item.get("black"), f"{place}.black", known, number)
        take(black, f"{place}.black")
        games.append(Game(white, black, _result(item.get("result"), f"{place}.result")))
    bye = data.get("bye")
    if bye is not None:
        bye = _player_ref(bye, f"{where}.bye", known, number)
        take(bye, f"{where}.bye")
    absent = _absent(data.get("absent", {}), f"{where}.absent", known, settings)
    for player_id in absent:
        place = _key(f"{where}.absent", player_id)
        _player_ref(player_id, place, known, number)
        take(player_id, place)
    return Round(games=tuple(games), absent=absent, bye=bye)


# -- writing ---------------------------------------------------------------------------------


def _player_document(player: Player) -> dict[str, Any]:
    document: dict[str, Any] = {"id": player.id, "name": player.name}
    if player.joined_round != 1:
        document["joined_round"] = player.joined_round
    if player.start_points:
        document["start_points"] = fraction_text(player.start_points)
    if player.withdrawn_after_round is not None:
        document["withdrawn_after_round"] = player.withdrawn_after_round
    return document


def _absent_document(absent: dict[str, Absence | str]) -> dict[str, str]:
    return {player_id: reason_text(reason) for player_id, reason in absent.items()}


def round_document(round_: Round) -> dict[str, Any]:
    document: dict[str, Any] = {
        "games": [
            {"white": game.white, "black": game.black, "result": game.result.value}
            for game in round_.games
        ]
    }
    if round_.absent:
        document["absent"] = _absent_document(round_.absent)
    if round_.bye is not None:
        document["bye"] = round_.bye
    return document
