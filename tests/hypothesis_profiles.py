"""How many examples the Hypothesis tests try: a few in `make test` on a laptop, the full count
in CI (`.ci/run` exports HYPOTHESIS_PROFILE=ci).

A test that asks for its own number writes it as CI runs it, through `examples(n)`: the full
profile runs n, the quick one a fifth of n. An explicit `@settings(max_examples=n)` would
otherwise override whichever profile is loaded.
"""

import os

from hypothesis import settings

# Hypothesis's own default: a test without a number of its own runs 100 examples in CI.
FULL = 100
settings.register_profile("ci", max_examples=FULL)
settings.register_profile("dev", max_examples=FULL // 5)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
settings.load_profile(PROFILE)  # a name that is not registered is an error


def examples(in_ci: int) -> int:
    """The number of examples for a test that runs `in_ci` of them in CI, scaled to the profile
    in use (read when the test module is imported, after the profile is loaded)."""
    return max(1, in_ci * settings.default.max_examples // FULL)
