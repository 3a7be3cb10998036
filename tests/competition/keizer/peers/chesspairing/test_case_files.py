"""The chesspairing case files are well-formed: JSON without duplicate keys, the keys the
case format requires, and expectations that name only the case's own players."""

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

HERE = Path(__file__).parent
CASES = sorted(HERE.glob("*.json"))
UNITS = sorted((HERE / "units").glob("*.json"))
RESULTS = {"1-0", "0-1", "1/2-1/2", "½-½", "1-0F", "0-1F", "0-0F"}
EXPECTATIONS = {"totals", "ranks", "points", "values", "pair", "rank_of"}
PAIR_KEYS = {
    "round",
    "pairs",
    "bye",
    "n_pairs",
    "boards_any_colour",
    "not_pairs",
    "repeat_warning",
}


def _no_duplicates(pairs):
    keys = [key for key, _ in pairs]
    duplicated = {key for key in keys if keys.count(key) > 1}
    assert not duplicated, f"duplicated keys {sorted(duplicated)}"
    return dict(pairs)


def _load(path):
    return json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_no_duplicates)


def test_there_are_cases():
    assert len(CASES) >= 40
    assert {path.name for path in UNITS} == {"amounts.json", "colours.json", "preferences.json"}


@pytest.mark.parametrize("path", CASES, ids=lambda path: path.stem)
def test_case_file(path):
    case = _load(path)
    assert set(case) == {"peer", "source", "what", "season", "expected", "needs", "notes"}
    assert case["peer"] == "chesspairing"
    source = case["source"]
    assert source["repo"] == "gnutterts/chesspairing"
    assert re.fullmatch(r"[0-9a-f]{40}", source["commit"])
    assert source["path"] in {"scoring/keizer/keizer_test.go", "pairing/keizer/keizer_test.go"}
    assert re.fullmatch(r"Test\w+ \(line \d+\)", source["test"])
    assert case["what"] and "\n" not in case["what"]

    season = case["season"]
    assert set(season) == {"settings", "players", "rounds"}
    assert season["settings"]["profile"] == "chesspairing"
    ids = [player["id"] for player in season["players"]]
    assert len(ids) == len(set(ids)) and all(re.fullmatch(r"[a-z][a-z0-9]*", i) for i in ids)
    for round_ in season["rounds"]:
        assert "games" in round_
        seen = []
        for game in round_["games"]:
            assert game["result"] in RESULTS
            seen += [game["white"], game["black"]]
        seen += list(round_.get("absent", {}))
        if "bye" in round_:
            seen.append(round_["bye"])
        assert set(seen) <= set(ids) and len(seen) == len(set(seen))

    expected = case["expected"]
    assert EXPECTATIONS & set(expected), "no expected outcome"
    assert 0 <= expected["ranking"] <= len(season["rounds"])
    for player, total in expected.get("totals", {}).items():
        assert player in ids
        Fraction(total)
    assert set(expected.get("ranks", [])) <= set(ids)
    assert set(expected.get("rank_of", {})) <= set(ids)
    if "pair" in expected:
        pair = expected["pair"]
        assert set(pair) <= PAIR_KEYS and pair["round"] == expected["ranking"] + 1
        named = [
            p
            for key in ("pairs", "boards_any_colour", "not_pairs")
            for q in pair.get(key, [])
            for p in q
        ]
        assert set(named) <= set(ids)
        assert pair.get("bye") in {None, *ids}
    assert isinstance(case["needs"], list) and isinstance(case["notes"], str)


@pytest.mark.parametrize("path", UNITS, ids=lambda path: path.stem)
def test_unit_table(path):
    table = _load(path)
    assert table["peer"] == "chesspairing"
    assert re.fullmatch(r"[0-9a-f]{40}", table["source"]["commit"])
    assert table["cases"]
    for row in table["cases"]:
        assert row["test"].startswith("Test")
        if path.name == "colours.json":
            assert row["white"] in {row["a"]["id"], row["b"]["id"]}
            for side in ("a", "b"):
                assert set(row[side]["history"]) <= {"W", "B", "WF", "BF", "bye"}
        if path.name == "amounts.json":
            Fraction(row["points"])
            assert ("share" in row) != ("fixed" in row)
