"""The KeizerForClubs case files are well-formed data (they are not run through the engine here).

Each file in keizerforclubs/ transcribes one ranking that the peer's shipped test tournament
(cfg/Test-Tournament.s3db) stores; this checks the shape the lead's peer runner relies on and the
inner consistency of each transcription, so a typo in a hand-written file shows at once.
"""

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

CASES = sorted((Path(__file__).parent / "keizerforclubs").glob("*.json"))
RESULTS = {"1-0", "0-1", "1/2-1/2", "½-½", "1-0F", "0-1F", "0-0F"}
REASONS = {"excused", "team", "late", "unexcused", "auto"}
TOP_KEYS = {"peer", "source", "what", "season", "expected", "needs", "notes"}


def refuse_duplicates(pairs):
    keys = [key for key, _ in pairs]
    duplicated = {key for key in keys if keys.count(key) > 1}
    assert not duplicated, f"duplicated keys {duplicated}"
    return dict(pairs)


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=refuse_duplicates)


def test_every_checkable_ranking_of_the_file_has_its_case():
    # 2024 file: rankings 5 and 4; its Dec 2022 version: ranking 5.
    assert [path.name for path in CASES] == [
        "kfc-2022-ranking-5.json",
        "kfc-2024-ranking-4.json",
        "kfc-2024-ranking-5.json",
    ]


@pytest.mark.parametrize("path", CASES, ids=lambda path: path.stem)
def test_a_case_file_has_the_agreed_shape(path):
    case = load(path)
    assert set(case) == TOP_KEYS
    assert case["peer"] == "keizerforclubs"
    assert case["source"]["repo"] == "Dumuzy/KeizerForClubs"
    assert re.fullmatch(r"[0-9a-f]{40}", case["source"]["commit"])
    assert case["source"]["path"] == "cfg/Test-Tournament.s3db"
    assert case["season"]["settings"] == {"profile": "keizerforclubs"}
    assert case["expected"]["tolerance"] == "0.01"
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
        assert set(round_.get("absent", {}).values()) <= REASONS
    assert 0 <= expected["ranking"] <= len(season["rounds"])
    for key in ("totals", "values"):
        for player_id, amount in expected.get(key, {}).items():
            assert player_id in ids
            Fraction(amount)
    for player_id, points in expected.get("points", {}).items():
        assert player_id in ids
        assert len(points) == expected["ranking"]
        [Fraction(amount) for amount in points]
    assert expected.keys() & {"totals", "ranks", "values", "points"}


@pytest.mark.parametrize("path", CASES, ids=lambda path: path.stem)
def test_the_transcribed_ranking_is_one_ordering_of_the_ranked_players(path):
    case = load(path)
    expected = case["expected"]
    withdrawn = {p["id"] for p in case["season"]["players"] if "withdrawn_after_round" in p}
    ranked = [p["id"] for p in case["season"]["players"] if p["id"] not in withdrawn]
    assert sorted(expected["ranks"]) == sorted(ranked)
    # The values fall by one per position (step 1), whatever the top value.
    values = [Fraction(expected["values"][player_id]) for player_id in expected["ranks"]]
    assert values == [values[0] - position for position in range(len(values))]
    if "totals" in expected:
        assert set(expected["totals"]) == set(ranked)
        totals = [Fraction(expected["totals"][player_id]) for player_id in expected["ranks"]]
        assert totals == sorted(totals, reverse=True)
    if "points" in expected:
        assert set(expected["points"]) == set(ranked)


def test_the_2024_cases_share_one_season():
    by_name = {path.name: load(path) for path in CASES}
    assert (
        by_name["kfc-2024-ranking-4.json"]["season"] == by_name["kfc-2024-ranking-5.json"]["season"]
    )
