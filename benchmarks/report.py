"""What every benchmark prints: one line per figure with its target, and a ratio where the same
run measured a reference. A miss is counted, never fatal: `python -m benchmarks` runs them all
and exits 1 at the end when any target was missed."""

from __future__ import annotations

import resource
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Report:
    missed: list[str] = field(default_factory=list)

    def heading(self, text: str) -> None:
        print(f"\n{text}", flush=True)

    def note(self, text: str) -> None:
        print(f"  {text}", flush=True)

    def at_most(self, name: str, figure: float, target: float, unit: str = "ms", ratio="") -> None:
        """A cost (time, memory): met when the figure is at most the target."""
        self._line(name, figure, "≤", target, unit, figure <= target, ratio)

    def at_least(self, name: str, figure: float, target: float, unit: str = "", ratio="") -> None:
        """A rate (requests a second, a ratio): met when the figure is at least the target."""
        self._line(name, figure, "≥", target, unit, figure >= target, ratio)

    def _line(self, name, figure, sign, target, unit, met, ratio) -> None:
        if not met:
            self.missed.append(name)
        shown = f"{_number(figure)} {unit}".rstrip()
        wanted = f"{sign} {_number(target)} {unit}".rstrip()
        extra = f"  ({ratio})" if ratio else ""
        verdict = "ok" if met else "MISSED"
        print(f"  {name:<52} {shown:>12}  target {wanted:<12} {verdict}{extra}", flush=True)


def _number(value: float) -> str:
    return f"{value:.0f}" if abs(value) >= 100 else f"{value:.3g}"


def cpu_ms(work: Callable[[], object], runs: int = 5) -> float:
    """The least CPU time (user + system) of `runs` calls, in ms: a busy machine disturbs it
    less than wall time."""
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best * 1000


def process_cpu_ms(command: list[str], runs: int = 5, **options) -> float:
    """The least CPU time (user + system) of `runs` runs of a whole process, in ms."""
    best = float("inf")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, **options)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best = min(best, used)
    return best * 1000


def wall_ms(work: Callable[[], object], runs: int = 5) -> float:
    """The least wall time of `runs` calls, in ms (for work that waits on a database)."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best * 1000
