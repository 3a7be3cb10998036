"""`make bench`: every benchmark, each run even when an earlier one missed its target or broke;
exits 1 at the end when any target was missed."""

from __future__ import annotations

import importlib
import sys
import traceback

from benchmarks.report import Report

# Each module has `run(report)`.
BENCHMARKS = [
    "benchmarks.keizer",
    "benchmarks.site",
    "benchmarks.arbiter",
    "benchmarks.arbiter_cpu",
    "benchmarks.what_if",
    "benchmarks.mail",
    "benchmarks.rapid_evening",
    "benchmarks.load",
    "benchmarks.fair_use",
    "benchmarks.lighthouse",
]


def main() -> int:
    report = Report()
    for name in BENCHMARKS:
        try:
            importlib.import_module(name).run(report)
        except Exception:
            traceback.print_exc()
            report.missed.append(f"{name} (it broke)")
    if report.missed:
        print(f"\nmissed: {', '.join(report.missed)}")
        return 1
    print("\nevery target met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
