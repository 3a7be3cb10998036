"""The engine's records are named tuples (docs/keizer.md, "Records are named tuples"): immutable,
picklable, a fresh `absent` dict each, and their modules load neither `dataclasses` nor the
modules it pulls in (the command line must start fast)."""

import pickle
import subprocess
import sys
from fractions import Fraction

import pytest

from competition.keizer.pairing import pair_next_round
from competition.keizer.season import (
    SETTING_NAMES,
    Absence,
    PairRequest,
    Round,
    Settings,
)

from .conftest import DATA


def test_a_season_with_rounds_survives_pickling(worked_example):
    asked = worked_example._replace(pair=PairRequest({"de-wit": Absence.EXCUSED}))
    assert asked.rounds and asked.rounds[0].games
    copy = pickle.loads(pickle.dumps(asked))
    assert copy == asked and type(copy) is type(asked)
    assert type(copy.rounds[0]) is Round and type(copy.pair) is PairRequest
    pairing = pair_next_round(asked)
    assert pickle.loads(pickle.dumps(pairing)) == pairing


def test_every_round_and_pair_request_has_its_own_absent_dict():
    assert Round().absent == {} and Round().absent is not Round().absent
    assert PairRequest().absent == {} and PairRequest().absent is not PairRequest().absent
    absent = {"a": Absence.TEAM}
    assert Round(absent=absent).absent is absent and PairRequest(absent).absent is absent


def test_records_are_immutable(worked_example):
    with pytest.raises(AttributeError):
        worked_example.rounds = ()
    with pytest.raises(AttributeError):
        worked_example.rounds[0].games[0].result = None
    with pytest.raises(AttributeError):  # no __dict__: nothing can be added either
        worked_example.note = "x"


def test_a_changed_copy_keeps_its_class(worked_example):
    first = worked_example.rounds[0]
    changed = first._replace(bye="de-wit")
    assert type(changed) is Round and changed.bye == "de-wit" and changed.games == first.games


def test_the_settings_names_are_the_fields_in_order():
    assert SETTING_NAMES == (
        "top_value",
        "step",
        "rounds_per_period",
        "full_revaluation_from_round",
        "bye_fraction",
        "excused_fraction",
        "team_fraction",
        "auto_absence_fraction",
    )
    assert Settings() == Settings(50, 1, 7, 10, 1, Fraction(1, 3), Fraction(2, 3), Fraction(1, 3))


IMPORT_PROBE = """
import sys
from competition.keizer import attendance, colours, output, pairing, ranking, record, scoring
from competition.keizer import season_file
season = season_file.loads(open(sys.argv[1], encoding="utf-8").read())
output.standings_json(season, ranking.compute_rankings(season))
print(",".join(m for m in ("dataclasses", "inspect", "typing") if m in sys.modules) or "none")
"""


def loaded_by(probe: str) -> str:
    process = subprocess.run(
        [sys.executable, "-c", probe, str(DATA / "worked_example.json")],
        capture_output=True,
        text=True,
        check=True,
    )
    return process.stdout.strip()


def test_the_records_modules_do_without_dataclasses_inspect_and_typing():
    assert loaded_by(IMPORT_PROBE) == "none"


def test_the_import_probe_would_notice_dataclasses():
    assert loaded_by("import dataclasses\n" + IMPORT_PROBE) == "dataclasses,inspect"
