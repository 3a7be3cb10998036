"""The standings document has two writers: `output.standings_json` in Python and its compiled
twin `_standings.c` (issue 28), which the command uses where it was built. Both give the golden
bytes; the compiled one is built here (`make install`), so the command's golden test runs it,
and the Python one is held to the same bytes in-process."""

from __future__ import annotations

import gzip
import json
from fractions import Fraction

import pytest
from hypothesis import given

from competition.keizer import output, season_file
from competition.keizer.output import compiled_standings, standings_bytes, standings_json
from competition.keizer.ranking import compute_rankings, states_and_terms
from competition.keizer.season import Player, Season, Settings

from .golden_seasons import DIGESTS, SEASONS, digest, season_path
from .strategies import seasons

EXPECTED = json.loads(DIGESTS.read_text(encoding="utf-8"))


def load(name: str) -> Season:
    with gzip.open(season_path(name), "rb") as file:
        return season_file.loads(file.read().decode("utf-8"))


def python_standings(season: Season) -> bytes:
    return standings_json(season, compute_rankings(season)).encode()


def test_the_compiled_writer_is_built():
    """`make install` compiles it (a C compiler and Python's headers are needed); without it
    the command is correct but slow, which must not go unnoticed where the suite runs."""
    assert output._standings is not None, "competition/keizer/_standings.c was not built"


@pytest.mark.parametrize("name", list(SEASONS))
def test_both_writers_give_the_golden_bytes(name):
    season = load(name)
    python = python_standings(season)
    assert digest(python + b"\n") == EXPECTED[name]["standings"]
    try:
        assert compiled_standings(season) == python
    except OverflowError:  # its totals beyond 10^16 are more than 2^63 units of 1/unit
        assert name == "extreme_7x60"
    assert standings_bytes(season) == python


@given(seasons(max_players=10, max_rounds=8))
def test_both_writers_agree_on_any_season(season):
    assert compiled_standings(season) == python_standings(season)


def test_amounts_beyond_64_bits_are_written_by_python():
    """Start points with many denominators make a unit (their least common multiple) beyond
    what a C integer holds: the compiled writer refuses, and the command writes in Python."""
    primes = [p for p in range(2, 100) if all(p % d for d in range(2, p))]
    players = tuple(
        Player(f"p{prime}", f"Speler {prime}", start_points=Fraction(1, prime)) for prime in primes
    )
    season = Season(Settings(), players, ())
    assert states_and_terms(season)[1].unit > 2**63
    with pytest.raises(OverflowError):
        compiled_standings(season)
    assert standings_bytes(season) == python_standings(season)
    assert b'"id": "p2", "name": "Speler 2", "value": 50, "total": 50.5' in standings_bytes(season)


WHO = [b'"id": "a", "name": "A"']


def test_the_compiled_writer_writes_what_it_is_given():
    """One player, one round: a point of 1 × the value 1 of player 0, a total of 5."""
    texts = output.AmountTexts(1)
    written = output._standings.document(
        WHO, [50, 49], [[1]], [[0]], [{}], [(1, [0], [5], [1])], texts.rounded, texts.exact
    )
    assert written == (
        b'{"rankings": [[{"rank": 1, "id": "a", "name": "A", "value": 50, "total": 5.0, '
        b'"total_exact": "5", "points": [1.0], "points_exact": ["1"]}]]}'
    )


class Unkept(dict):
    """A mapping that makes a new text at every lookup and keeps none of them."""

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, units):
        return self.make(units)


def test_the_compiled_writer_holds_the_texts_it_uses():
    """The C writer keeps a reference to each text it holds, so a mapping that keeps nothing
    gives the same bytes (no pointer into a freed string)."""
    season = load("everything_41x30")
    states, terms = states_and_terms(season)
    unkept = (  # each text made by a memo of its own, freed with it
        Unkept(lambda units: output.AmountTexts(terms.unit).rounded[units]),
        Unkept(lambda units: output.AmountTexts(terms.unit).exact[units]),
    )
    written = output._standings.document(
        [output._who(player).encode() for player in season.players],
        terms.position_values,
        terms.factors,
        terms.targets,
        terms.extra,
        [(k, order, totals, values) for k, order, totals, _, values, _, _ in states],
        *unkept,
    )
    assert written == python_standings(season)


@pytest.mark.parametrize(
    "factors, targets, extra, states",
    [
        pytest.param([[1]], [[7]], [{}], [(1, [0], [5], [1])], id="target beyond the players"),
        pytest.param([[1]], [[0]], [{}], [(1, [3], [5], [1])], id="order beyond the players"),
        pytest.param([[1]], [[0]], [{}], [(2, [0], [5], [1])], id="ranking beyond the rounds"),
        pytest.param([[1]], [[0]], [{}], [(1, [0], [5, 6], [1])], id="totals too long"),
        pytest.param([[1]], [[0]], [{4: 1}], [(1, [0], [5], [1])], id="extra beyond the rounds"),
        pytest.param([[1]], [[0]], [{}], [[1, [0], [5], [1]]], id="state not a tuple"),
        pytest.param([[1, 2]], [[0]], [{}], [(1, [0], [5], [1])], id="terms of two lengths"),
    ],
)
def test_a_malformed_call_is_refused_not_crashed(factors, targets, extra, states):
    """The C function checks what it reads: a wrong shape is a ValueError, never a crash."""
    texts = output.AmountTexts(1)
    with pytest.raises(ValueError):
        output._standings.document(
            WHO, [50, 49], factors, targets, extra, states, texts.rounded, texts.exact
        )
