"""The Sharly-Chess case files are well-formed data (they are not run through the engine here).

Each file in sharly-chess/ transcribes one assertion of the peer's published Keizer tests; this
checks the shape the lead's peer runner relies on, so a typo in a hand-written file shows at once.
"""

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

CASES = sorted((Path(__file__).parent / "sharly-chess").glob("*.json"))
RESULTS = {"1-0", "0-1", "1/2-1/2", "½-½", "1-0F", "0-1F", "0-0F"}
TOP_KEYS = {"peer", "source", "what", "season", "expected", "needs", "notes"}


def refuse_duplicates(pairs):
    keys = [key for key, _ in pairs]
    duplicated = {key for key in keys if keys.count(key) > 1}
    assert not duplicated, f"duplicated keys {duplicated}"
    return dict(pairs)


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=refuse_duplicates)


def test_every_published_test_of_the_peer_has_its_files():
    # 7 tests in tests/unit/test_keizer.py; the rescoring test asserts two rankings (2 files).
    assert len(CASES) == 8


@pytest.mark.parametrize("path", CASES, ids=lambda path: path.stem)
def test_a_case_file_has_the_agreed_shape(path):
    case = load(path)
    assert set(case) == TOP_KEYS
    assert case["peer"] == "sharly-chess"
    assert case["source"]["repo"] == "Sharly-Chess/sharly-chess"
    assert re.fullmatch(r"[0-9a-f]{40}", case["source"]["commit"])
    assert case["source"]["path"] == "tests/unit/test_keizer.py"
    assert case["season"]["settings"]["profile"] == "sharly-chess"
    assert isinstance(case["needs"], list)


@pytest.mark.parametrize("path", CASES, ids=lambda path: path.stem)
def test_a_case_names_only_its_own_players_and_known_results(path):
    case = load(path)
    season, expected = case["season"], case["expected"]
    ids = [player["id"] for player in season["players"]]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[a-z][a-z0-9-]*", player_id) for player_id in ids)
    for round_ in season["rounds"]:
        seen = [id_ for game in round_["games"] for id_ in (game["white"], game["black"])]
        seen += list(round_.get("absent", {}))
        seen += [round_["bye"]] if round_.get("bye") else []
        assert set(seen) <= set(ids) and len(seen) == len(set(seen))
        assert all(game["result"] in RESULTS for game in round_["games"])
    assert 0 <= expected["ranking"] <= len(season["rounds"])
    for key in ("totals", "values"):
        for player_id, amount in expected.get(key, {}).items():
            assert player_id in ids
            Fraction(amount)
    if "ranks" in expected:
        assert set(expected["ranks"]) <= set(ids)
    if "pair" in expected:
        pair = expected["pair"]
        assert pair["round"] == expected["ranking"] + 1
        paired = [player_id for two in pair["pairs"] for player_id in two]
        assert set(paired) <= set(ids) and len(paired) == len(set(paired))
    assert expected.keys() & {"totals", "ranks", "values", "points", "pair"}
