"""The command line prints exactly the bytes it printed before the speed work (issue 12).

Each season of `golden_seasons.SEASONS` is stored in `golden/` with the output of `standings`
and `pair` as the engine printed it then: by SHA-256 digest and length, and whole (gzipped) where
it is small enough, so that a failure shows the first place the output differs.

Beyond the golden seasons, the standings document's one writer (`output.standings_json`, which
writes the text directly) prints what `json.dumps` makes of the plain document of the naive
reading of the rules (`reference.standings_document`), on any season Hypothesis makes.
"""

from __future__ import annotations

import gzip
import json
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings

from competition.keizer.output import standings_json
from competition.keizer.ranking import compute_rankings
from competition.keizer.season import Player, Season, Settings
from tests.hypothesis_profiles import examples

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
from .reference import standings_document
from .strategies import seasons

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


def plain(season: Season) -> str:
    return json.dumps(standings_document(season), ensure_ascii=False)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seasons())
def test_the_writer_prints_the_plain_document_of_any_season(season):
    assert standings_json(season, compute_rankings(season)) == plain(season)


def test_amounts_beyond_64_bits_are_written_exactly():
    """Start points with many denominators make a unit (their least common multiple) beyond
    2^64: Python's integers have no bound, and the texts are those of the fractions."""
    primes = [p for p in range(2, 100) if all(p % d for d in range(2, p))]
    players = tuple(
        Player(f"p{prime}", f"Speler {prime}", start_points=Fraction(1, prime)) for prime in primes
    )
    season = Season(Settings(), players, ())
    assert compute_rankings(season)[0].standings[0].unit > 2**64
    written = standings_json(season, compute_rankings(season))
    assert written == plain(season)
    assert '"id": "p2", "name": "Speler 2", "value": 50, "total": 50.5' in written
