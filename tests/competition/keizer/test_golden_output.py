"""The command line prints exactly the bytes it printed before the speed work (issue 12).

Each season of `golden_seasons.SEASONS` is stored in `golden/` with the output of `standings`
and `pair` as the engine printed it then: by SHA-256 digest and length, and whole (gzipped) where
it is small enough, so that a failure shows the first place the output differs.
"""

from __future__ import annotations

import gzip
import json

import pytest

from .golden_seasons import (
    COMMANDS,
    DIGESTS,
    GOLDEN,
    SEASONS,
    digest,
    output_path,
    run_command,
    season_path,
)

EXPECTED = json.loads(DIGESTS.read_text(encoding="utf-8"))


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("name", list(SEASONS))
def test_the_command_prints_the_golden_bytes(name, command):
    output = run_command(command, season_path(name))
    whole = output_path(name, command)
    if whole.exists():
        expected = gzip.decompress(whole.read_bytes())
        assert digest(expected) == EXPECTED[name][command]  # the two stores agree
        assert output == expected, first_difference(output, expected)
    assert digest(output) == EXPECTED[name][command]


def first_difference(output: bytes, expected: bytes) -> str:
    at = next(
        (i for i, (a, b) in enumerate(zip(output, expected, strict=False)) if a != b),
        min(len(output), len(expected)),
    )
    start = max(at - 120, 0)
    return (
        f"first difference at byte {at} of {len(expected)}:\n"
        f"  printed: {output[start : at + 80]!r}\n"
        f"  golden:  {expected[start : at + 80]!r}"
    )


def test_every_golden_file_belongs_to_a_season_and_every_season_has_its_files():
    names = {path.name for path in GOLDEN.iterdir()}
    wanted = {season_path(name).name for name in SEASONS} | {DIGESTS.name}
    assert wanted <= names
    outputs = names - wanted
    assert outputs <= {output_path(n, c).name for n in SEASONS for c in COMMANDS}
    assert set(EXPECTED) == set(SEASONS)
    assert all(set(EXPECTED[name]) == set(COMMANDS) for name in SEASONS)


def test_the_comparison_notices_a_single_changed_byte():
    """The check cannot pass by seeing nothing: one byte changed is a different digest and a
    shown difference."""
    expected = gzip.decompress(output_path("worked_example", "standings").read_bytes())
    changed = expected.replace(b'"total": 71.5', b'"total": 71.6', 1)
    assert changed != expected
    assert digest(changed) != EXPECTED["worked_example"]["standings"]
    assert "first difference at byte" in first_difference(changed, expected)
