"""The seasons of the golden-output test (`test_golden_output.py`) and how their files were made.

The golden files in `golden/` hold each season's input and the exact bytes the command line
printed for it, so an optimisation that changes a single byte of output fails the test. They were
written once, from the engine as it was before the speed work of issue 12, by

    .venv/bin/python -m tests.competition.keizer.golden_seasons

Run it again only for a deliberate change of output (a rule change raises `RULES_VERSION`), and
say so in the commit: the test then compares with the new bytes.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

GOLDEN = Path(__file__).parent / "golden"
DATA = Path(__file__).parent / "data"
COMMANDS = ("standings", "pair")
# Outputs up to this size are stored whole (gzipped), so a failure shows where they differ;
# larger ones by their SHA-256 digest and length only.
WHOLE_UP_TO = 2_000_000

# Names that a writer of JSON must escape or pass through: quotes, backslashes, accents, other
# scripts, characters outside the Basic Multilingual Plane, the line separator U+2028.
NAMES = [
    "Jan de Vries",
    'Ödön "de toren" Kovács',
    "Back\\slash",
    "Zoë Hoekstra",
    "王小明",
    "Émile 🐴 Dijkstra",
    "Line\u2028Separator",
    "Sjoerd Bakker",
    "Ænne Æbelø",
    "</script>",
]

# Each season by name: how it is made (see `make`).
SEASONS = {
    "worked_example": "the worked example of the rules (tests/competition/keizer/data)",
    "generated_150x28": "benchmarks.keizer.generated_season(150, 28, 7, seed=1)",
    "generated_200x60": "benchmarks.keizer.generated_season(200, 60, 7, seed=3): plain settings",
    "everything_41x30": "newcomers, start points, every result and absence kind, byes, players "
    "left out of a round, escaped names, a pair request",
    "rapid_20x9": "the rapid settings of the demo (top value 30, periods of 9, no full "
    "re-valuation), newcomers, every absence kind",
    "odd_settings_23x16": "step 2 (values reach the floor), shares 1/2, 1/4, 3/4, 1/5, full "
    "re-valuation from round 3, periods of 4",
    "extreme_7x60": "values and shares near the largest the file allows: totals from 10^13 "
    "to beyond 10^16 (floats lose the hundredths), units with large denominators",
    "repeats_8x7": "eight players who met everyone in the period: the pairing must repeat",
    "tiny_1x2": "one player, two rounds",
    "empty_0x0": "no players, no rounds",
}


def make(name: str):
    """The season called `name` (the engine as it was pairs the generated ones)."""
    from benchmarks.keizer import generated_season
    from competition.keizer import season_file
    from competition.keizer.season import Player, Season, Settings

    if name == "worked_example":
        return season_file.loads((DATA / "worked_example.json").read_text(encoding="utf-8"))
    if name == "generated_150x28":
        return generated_season(150, 28, rounds_per_period=7, seed=1)
    if name == "generated_200x60":
        return generated_season(200, 60, rounds_per_period=7, seed=3)
    if name == "everything_41x30":
        return season_with_everything(41, 30, Settings(), seed=4)
    if name == "rapid_20x9":
        settings = Settings(top_value=30, rounds_per_period=9, full_revaluation_from_round=None)
        return season_with_everything(20, 9, settings, seed=5)
    if name == "odd_settings_23x16":
        settings = Settings(
            top_value=40,
            step=2,
            rounds_per_period=4,
            full_revaluation_from_round=3,
            bye_fraction=Fraction(1, 2),
            excused_fraction=Fraction(1, 4),
            team_fraction=Fraction(3, 4),
            auto_absence_fraction=Fraction(1, 5),
        )
        return season_with_everything(23, 16, settings, seed=6)
    if name == "extreme_7x60":
        settings = Settings(
            top_value=1_000_000,
            step=3,
            rounds_per_period=3,
            full_revaluation_from_round=1,
            bye_fraction=Fraction(999_999_999, 97),
            excused_fraction=Fraction(1_000_000_000),
            team_fraction=Fraction(999_999_999, 7),
            auto_absence_fraction=Fraction(1_000_000_000),
        )
        start = Fraction(999_999_999, 100)
        return season_with_everything(7, 60, settings, seed=7, start=start, absence_rate=0.7)
    if name == "repeats_8x7":
        season = Season(
            Settings(rounds_per_period=10), tuple(Player(f"r{i}", f"R {i}") for i in range(8))
        )
        return season_with_rounds(season, 7, random.Random(9), absence_rate=0.0)
    if name == "tiny_1x2":
        season = Season(Settings(), (Player("solo", "Solo"),))
        return season_with_rounds(season, 2, random.Random(8))
    if name == "empty_0x0":
        return Season(Settings(), ())
    raise KeyError(name)


def season_with_everything(
    players: int, rounds: int, settings, seed: int, start=None, absence_rate: float = 0.2
):
    """Players of whom a quarter join later and a third bring start points; each round paired
    by the engine, with every result and absence kind, and now and then a game or an absence
    left out of the round (those players took no part)."""
    from competition.keizer.season import Player, Season

    rng = random.Random(seed)
    roster = []
    for i in range(players):
        joined = 1 if i < players - players // 4 or rounds < 2 else rng.randint(2, rounds)
        points = Fraction(0)
        if rng.random() < 0.35:
            points = start or Fraction(rng.randint(1, 60), rng.choice([1, 2, 3, 6]))
        roster.append(Player(f"s{i:02d}", f"{NAMES[i % len(NAMES)]} {i}", joined, points))
    season = Season(settings, tuple(roster))
    season = season_with_rounds(season, rounds, rng, absence_rate)
    return _with_pair_request(season, rng)


def season_with_rounds(season, rounds: int, rng: random.Random, absence_rate: float = 0.2):
    from competition.keizer.pairing import pair_next_round
    from competition.keizer.ranking import compute_rankings
    from competition.keizer.season import Absence, Game, PairRequest, Result, Round, Season

    for _ in range(rounds):
        ranking = compute_rankings(season, with_points=False)[-1]
        absent = {
            player: rng.choice(list(Absence))
            for player in ranking.order
            if rng.random() < absence_rate
        }
        request = Season(season.settings, season.players, season.rounds, PairRequest(absent))
        pairing = pair_next_round(request, ranking)
        games = []
        for pair in pairing.pairs:
            if rng.random() < 0.04:
                continue  # neither player is in the round's result: they took no part
            result = rng.choice([*Result, Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW])
            games.append(Game(pair.white, pair.black, result))
        for player in list(absent):
            if rng.random() < 0.05:
                del absent[player]
        round_ = Round(tuple(games), absent, pairing.bye)
        season = Season(season.settings, season.players, (*season.rounds, round_))
    return season


def _with_pair_request(season, rng: random.Random):
    from competition.keizer.season import Absence, PairRequest, Season

    joined = [p.id for p in season.players if p.has_joined(season.next_round)]
    absent = {player: rng.choice(list(Absence)) for player in joined if rng.random() < 0.2}
    return Season(season.settings, season.players, season.rounds, PairRequest(absent))


def run_command(command: str, season_path: Path) -> bytes:
    """What `python -m competition.keizer COMMAND FILE` prints (the file may be gzipped)."""
    with gzip.open(season_path, "rb") as file:
        text = file.read()
    process = subprocess.run(
        [sys.executable, "-m", "competition.keizer", command, "-"],
        input=text,
        capture_output=True,
        check=True,
        # Output buffered as a shell runs the command: it leaves without the interpreter's
        # teardown (os._exit), so all it wrote must have been flushed by then.
        env={name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"},
    )
    return process.stdout


def season_path(name: str) -> Path:
    return GOLDEN / f"{name}.season.json.gz"


def output_path(name: str, command: str) -> Path:
    return GOLDEN / f"{name}.{command}.json.gz"


DIGESTS = GOLDEN / "digests.json"


def digest(output: bytes) -> dict:
    return {"sha256": hashlib.sha256(output).hexdigest(), "bytes": len(output)}


def write_gzip(path: Path, data: bytes) -> None:
    """Gzip without a timestamp or file name, so the same data gives the same file."""
    with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as f:
        f.write(data)


def main() -> None:
    from competition.keizer import season_file

    GOLDEN.mkdir(exist_ok=True)
    digests = {}
    for name in SEASONS:
        print(name, flush=True)
        season = make(name)
        write_gzip(season_path(name), season_file.dumps(season).encode("utf-8"))
        digests[name] = {}
        for command in COMMANDS:
            output = run_command(command, season_path(name))
            digests[name][command] = digest(output)
            if len(output) <= WHOLE_UP_TO:
                write_gzip(output_path(name, command), output)
    DIGESTS.write_text(json.dumps(digests, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
