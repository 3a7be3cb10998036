"""Engine benchmark: `make bench` (or `python -m benchmarks.keizer`).

1. Standings: a generated season of 150 players and 28 rounds, full re-valuation from round 10:
   all 29 rankings. Target: under 0.3 s.
2. Pairing: 200 present players late in a 28-round period (20 rounds of history, each player has
   met 20 others, mostly the neighbours in the ranking: the hard case for backtracking).
   Target: under 0.2 s.

Each is measured in-process (best of several runs) and as the whole command
`python -m competition.keizer standings|pair FILE` (best of several processes). Exits 1 when a
target is missed.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from competition.keizer import season_file
from competition.keizer.pairing import pair_next_round
from competition.keizer.ranking import compute_rankings
from competition.keizer.season import Absence, Game, Player, Result, Round, Season, Settings

TARGETS = {"standings": 0.3, "pair": 0.2}


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


def best_of(runs: int, work) -> float:
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        timings.append(time.perf_counter() - start)
    return min(timings)


def command_time(command: str, path: Path, runs: int = 5) -> float:
    def run():
        subprocess.run(
            [sys.executable, "-m", "competition.keizer", command, str(path)],
            check=True,
            stdout=subprocess.DEVNULL,
        )

    return best_of(runs, run)


def main() -> int:
    # Whole commands are timed as a deployment runs them: with compiled bytecode (this machine
    # sets PYTHONDONTWRITEBYTECODE, which would make every run compile the engine afresh).
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "competition/keizer"],
        check=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": ""},
    )
    print("generating seasons (not timed) ...", flush=True)
    standings_season = generated_season(150, 28, rounds_per_period=7, seed=1)
    pairing_season = generated_season(200, 20, rounds_per_period=28, seed=2)
    pairing_ranking = compute_rankings(pairing_season)[-1]
    met = max(_meetings(pairing_season).values())
    results = []
    with tempfile.TemporaryDirectory() as folder:
        for name, season in (("standings", standings_season), ("pair", pairing_season)):
            path = Path(folder) / f"{name}.json"
            path.write_text(season_file.dumps(season), encoding="utf-8")
            if name == "standings":
                in_process = best_of(5, lambda s=season: compute_rankings(s))
                detail = "150 players, 28 rounds, full re-valuation from round 10 (29 rankings)"
            else:
                in_process = best_of(5, lambda s=season: pair_next_round(s, pairing_ranking))
                detail = f"200 players, round 21 of a 28-round period, up to {met} meetings each"
            whole = command_time(name, path)
            results.append((name, detail, in_process, whole))
    failed = False
    for name, detail, in_process, whole in results:
        target = TARGETS[name]
        verdict = "ok" if max(in_process, whole) < target else "TOO SLOW"
        failed |= verdict != "ok"
        print(
            f"{name:9} {detail}\n          in-process {in_process * 1000:7.1f} ms   "
            f"whole command {whole * 1000:7.1f} ms   target < {target * 1000:.0f} ms   {verdict}"
        )
    passes = [r.passes for r in compute_rankings(standings_season)]
    print(f"standings: re-valuation passes per ranking from round 10: {passes[10:]}")
    return 1 if failed else 0


def _meetings(season: Season) -> dict[str, int]:
    counts: dict[str, int] = {p.id: 0 for p in season.players}
    for round_ in season.rounds:
        for game in round_.games:
            if not game.result.is_forfeit:
                counts[game.white] += 1
                counts[game.black] += 1
    return counts


if __name__ == "__main__":
    sys.exit(main())
