"""Engine benchmark: `make bench` (or `python -m benchmarks.keizer`).

1. Standings: a generated season of 150 players and 28 rounds, full re-valuation from round 10:
   all 29 rankings. Target: under 0.3 s.
2. A plain season of 200 players and 60 rounds (issue 12: four times faster than the engine
   was, without changing a byte, which tests/competition/keizer/test_golden_output.py guards):
   all rankings with their per-round points in-process under 0.15 s, the whole standings
   command under 0.3 s; and time growing linearly with the players (400 against 200).
3. Pairing: 200 present players late in a 28-round period (20 rounds of history, each player has
   met 20 others, mostly the neighbours in the ranking: the hard case for backtracking).
   Target: under 0.2 s.
4. The standings command on the plain 200x60 season and on a club's 40x28 season, as
   information (no target: issue 28's target for the command's speed, FreeKeizer -O2's time,
   was withdrawn with the C writer in issue 36; no one waits for the command, the site computes
   in-process). FreeKeizer (the C++ Keizer program) is never part of the project: to see it
   beside ours, build it under /tmp and give the command that runs it on the same season, in
   its own input format, in FREEKEIZER_200X60 and FREEKEIZER_40X28 (split as a shell splits
   words, e.g. FREEKEIZER_200X60="/tmp/freekeizer/build/freekeizer /tmp/freekeizer/200x60.txt");
   the two commands then run in turn and the line gives both figures and their paired ratio.

Each is measured in-process (best of several runs) and as the whole command
`python -m competition.keizer standings|pair FILE` (best of several processes). Exits 1 when a
target is missed.
"""

from __future__ import annotations

import gc
import os
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.report import Report, cpu_ms, process_cpu_ms
from competition.keizer import season_file
from competition.keizer.pairing import pair_next_round
from competition.keizer.ranking import compute_rankings
from competition.keizer.season import Absence, Game, Player, Result, Round, Season, Settings
from competition.keizer.variants import PRESETS

TARGETS = {
    "standings": 0.3,
    "pair": 0.2,
    "200x60": 0.15,
    "200x60 command": 0.3,
}
LINEAR = 2.5  # 400 players may take at most this many times as long as 200
VARIANT_RATIO = 2.0  # a preset's rankings may take at most this many times DSC's


def generated_season(players: int, rounds: int, rounds_per_period: int, seed: int) -> Season:
    """A realistic season: each round paired by the engine, stronger players win more often."""
    rng = random.Random(seed)
    season = Season(
        Settings(rounds_per_period=rounds_per_period),
        tuple(Player(f"p{i:03d}", f"Speler {i}") for i in range(players)),
    )
    for _ in range(rounds):
        ranking = compute_rankings(season)[-1]
        absent = {}
        for player in ranking.order:
            if rng.random() < 0.1:
                absent[player] = rng.choice(
                    [Absence.EXCUSED] * 6 + [Absence.TEAM] * 2 + [Absence.LATE, Absence.UNEXCUSED]
                )
        pairing = pair_next_round(
            season.__class__(season.settings, season.players, season.rounds, _request(absent)),
            ranking,
        )
        games = tuple(Game(pair.white, pair.black, _result(rng)) for pair in pairing.pairs)
        season = Season(
            season.settings, season.players, (*season.rounds, Round(games, absent, pairing.bye))
        )
    return season


def _request(absent):
    from competition.keizer.season import PairRequest

    return PairRequest(absent=absent)


def _result(rng: random.Random) -> Result:
    roll = rng.random()
    if roll < 0.02:
        return rng.choice([Result.WHITE_WINS_BY_FORFEIT, Result.BLACK_WINS_BY_FORFEIT])
    if roll < 0.45:
        return Result.WHITE_WINS
    if roll < 0.75:
        return Result.BLACK_WINS
    return Result.DRAW


def run(report: Report) -> None:
    # Whole commands are timed as a deployment runs them: with compiled bytecode (this machine
    # sets PYTHONDONTWRITEBYTECODE, which would make every run compile the engine afresh).
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "competition/__init__.py", "competition/keizer"],
        check=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": ""},
    )
    report.heading(
        "Engine (CPU time, user + system: a busy machine disturbs it less than wall time)"
    )
    standings_season = generated_season(150, 28, rounds_per_period=7, seed=1)
    pairing_season = generated_season(200, 20, rounds_per_period=28, seed=2)
    pairing_ranking = compute_rankings(pairing_season)[-1]
    met = max(_meetings(pairing_season).values())
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "standings.json"
        path.write_text(season_file.dumps(standings_season), encoding="utf-8")
        report.note("standings: 150 players, 28 rounds, full re-valuation from round 10")
        report.at_most(
            "standings, in-process",
            cpu_ms(lambda: compute_rankings(standings_season)),
            TARGETS["standings"] * 1000,
        )
        report.at_most(
            "standings, whole command",
            command_cpu_ms("standings", path),
            TARGETS["standings"] * 1000,
        )
        big = generated_season(200, 60, rounds_per_period=7, seed=3)
        path = Path(folder) / "200x60.json"
        path.write_text(season_file.dumps(big), encoding="utf-8")
        report.note("standings: a plain season of 200 players and 60 rounds")
        in_process = cpu_ms(lambda: compute_rankings(big))
        report.at_most("200x60, all rankings, in-process", in_process, TARGETS["200x60"] * 1000)
        report.at_most(
            "200x60, whole command",
            command_cpu_ms("standings", path),
            TARGETS["200x60 command"] * 1000,
        )
        double = generated_season(400, 60, rounds_per_period=7, seed=3)
        report.at_most(
            "400x60 against 200x60 (linear: 2; collector off)",
            scaling(lambda: compute_rankings(double), lambda: compute_rankings(big)),
            LINEAR,
            unit="x",
        )
        variant_speed(report, big)
        command_speed(report, Path(folder), big)
        path = Path(folder) / "pair.json"
        path.write_text(season_file.dumps(pairing_season), encoding="utf-8")
        report.note(f"pair: 200 players, round 21 of a 28-round period, up to {met} meetings each")
        report.at_most(
            "pair, in-process",
            cpu_ms(lambda: pair_next_round(pairing_season, pairing_ranking)),
            TARGETS["pair"] * 1000,
        )
        report.at_most("pair, whole command", command_cpu_ms("pair", path), TARGETS["pair"] * 1000)


def variant_speed(report: Report, big: Season) -> None:
    """Issue 39: every preset computes the 200x60 season's rankings within VARIANT_RATIO of
    DSC's own time: the same games, read with the preset's settings. Each is timed in turn with
    DSC's and the median of the pairs' ratios is the figure (the machine's speed drifts).

    DSC's top value of 50 leaves 150 of the 200 players at the value floor of 1, whose values
    never change, while the presets' top values follow the field (200 and more): every value
    then moves from one ranking to the next, and with it every player's points of every round.
    As information, each preset also against DSC's rules with a top value of 250 (every value
    distinct), the same work as the presets', and per valuation pass: a fixed point from ranking
    0 (chesspairing) takes passes that DSC's rule does not, and those passes are its rule."""
    report.note("other clubs' Keizer: the 200x60 season under each preset, against DSC's time")
    distinct = big._replace(settings=big.settings._replace(top_value=250))
    dsc_passes = valuation_passes(big)
    for profile in PRESETS:
        if profile == "dsc":
            continue
        document = season_file.to_document(big)
        document["settings"] = {"profile": profile}
        variant = season_file.from_document(document)
        pairs = [paired(variant, big) for _ in range(5)]
        ratio = statistics.median(ours / dsc for ours, dsc in pairs)
        wide = statistics.median(a / b for a, b in [paired(variant, distinct) for _ in range(3)])
        shown = f"{min(ours for ours, _ in pairs):.0f} ms; {wide:.2f} x DSC at top value 250"
        passes = valuation_passes(variant)
        if passes > dsc_passes:  # a cascade's time is its points, not its one pass a ranking
            per_pass = ratio * dsc_passes / passes
            shown += f"; {passes} passes to DSC's {dsc_passes}: {per_pass:.2f} x DSC per pass"
        report.at_most(f"{profile} against DSC, in-process", ratio, VARIANT_RATIO, "x", shown)


def valuation_passes(season: Season) -> int:
    """How many valuation passes all the season's rankings take."""
    return sum(ranking.passes for ranking in compute_rankings(season, with_points=False))


def paired(variant: Season, dsc: Season) -> tuple[float, float]:
    return (
        cpu_ms(lambda: compute_rankings(variant), runs=2),
        cpu_ms(lambda: compute_rankings(dsc), runs=2),
    )


def command_speed(report: Report, folder: Path, big: Season) -> None:
    """The standings command's CPU time, as information, with FreeKeizer's beside it when a
    build is given (see the module's docstring)."""
    report.note(
        "the standings command (information, no target), and FreeKeizer -O2 (C++) if given:"
    )
    report.note(f"  `python -c pass` takes {process_cpu_ms([sys.executable, '-c', 'pass']):.0f} ms")
    seasons = {"200x60": big, "40x28": generated_season(40, 28, rounds_per_period=7, seed=1)}
    for name, season in seasons.items():
        path = folder / f"command-{name}.json"
        path.write_text(season_file.dumps(season), encoding="utf-8")
        ours = [sys.executable, "-m", "competition.keizer", "standings", str(path)]
        theirs = os.environ.get(f"FREEKEIZER_{name.upper()}")
        if theirs:
            figure, freekeizer, ratio = paired_cpu_ms(ours, shlex.split(theirs))
            beside = f"FreeKeizer {freekeizer:.0f} ms in the same run; ours / its {ratio:.2f}"
        else:
            figure, beside = command_cpu_ms("standings", path), f"FREEKEIZER_{name.upper()} not set"
        shown = f"{figure:.0f} ms"  # in the column of the lines with a target
        report.note(f"  {name + ', whole command':<50} {shown:>12}  information ({beside})")


def paired_cpu_ms(ours: list[str], theirs: list[str], runs: int = 9) -> tuple[float, float, float]:
    """Both commands' least CPU time in ms, run in turn, and the median of the pairs' ratios
    ours / theirs (pairs keep the ratio fair while the machine's speed drifts)."""
    pairs = [(process_cpu_ms(ours, runs=1), process_cpu_ms(theirs, runs=1)) for _ in range(runs)]
    ratio = statistics.median(a / b for a, b in pairs if b > 0) if any(b for _, b in pairs) else 0
    return min(a for a, _ in pairs), min(b for _, b in pairs), ratio


def scaling(larger, smaller) -> float:
    """How many times as long `larger` takes as `smaller`, with the cyclic collector off (as
    the command runs): its passes grow with everything alive in the process, and would make
    the ratio a measure of the benchmark's own heap rather than of the engine."""
    gc.collect()
    gc.disable()
    try:
        return cpu_ms(larger) / cpu_ms(smaller)
    finally:
        gc.enable()


def command_cpu_ms(command: str, path: Path) -> float:
    return process_cpu_ms([sys.executable, "-m", "competition.keizer", command, str(path)])


def _meetings(season: Season) -> dict[str, int]:
    counts: dict[str, int] = {p.id: 0 for p in season.players}
    for round_ in season.rounds:
        for game in round_.games:
            if not game.result.is_forfeit:
                counts[game.white] += 1
                counts[game.black] += 1
    return counts


if __name__ == "__main__":
    run(Report())
