"""`make test` runs a fifth of each Hypothesis test's examples, CI every one of them."""

from pathlib import Path

import pytest
from hypothesis import settings

from tests import hypothesis_profiles
from tests.hypothesis_profiles import examples

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def profile():
    """Loads a profile for the test, and the one in use again afterwards."""
    yield settings.load_profile
    settings.load_profile(hypothesis_profiles.PROFILE)


def test_ci_runs_every_example_a_test_asks_for_and_a_laptop_a_fifth(profile):
    profile("ci")
    assert (examples(300), settings.default.max_examples) == (300, 100)
    profile("dev")
    assert (examples(300), settings.default.max_examples) == (60, 20)
    assert examples(3) == 1  # never none


def test_ci_selects_the_full_profile():
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert "export HYPOTHESIS_PROFILE=ci" in lines
    assert lines.index("export HYPOTHESIS_PROFILE=ci") < lines.index("make test")
