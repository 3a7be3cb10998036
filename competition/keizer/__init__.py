"""The Keizer engine: plain Python, no Django (docs/keizer.md).

`RULES_VERSION` counts changes that make the engine compute differently (a rule, a decision).
Raise it with such a change: the stored rankings of the current season no longer match it and
are recomputed on the worker's next pass (`competition.services.refresh_rankings`).
"""

RULES_VERSION = 1
