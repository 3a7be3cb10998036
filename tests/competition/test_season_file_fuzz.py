"""Fuzzing `manage.py import_season`: a damaged file imports cleanly or is refused in one line,
and a refused file changes nothing (every table's rows counted before and after).

The files are the worked example damaged as in `tests.mutations`; the engine's reader alone is
fuzzed in `tests/competition/keizer/test_reader_fuzz.py`. Deterministic (derandomized) and
bounded, on SQLite and PostgreSQL alike.
"""

import itertools
import json
import unicodedata
from io import StringIO

from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competition.models import Competition
from members.models import Member
from tests.factories import WORKED_EXAMPLE
from tests.hypothesis_profiles import examples
from tests.mutations import damaged_bytes, damaged_document
from tests.rows import row_counts

EXAMPLE = json.loads(WORKED_EXAMPLE.read_text(encoding="utf-8"))
NAME_LENGTH = Member._meta.get_field("name").max_length


@st.composite
def damaged_files(draw) -> bytes:
    document = draw(damaged_document(EXAMPLE))
    text = json.dumps(document, ensure_ascii=False, indent=2).encode("utf-8")
    if draw(st.booleans()):
        return text
    return draw(damaged_bytes(text, max_changes=2))


def test_a_damaged_season_file_imports_cleanly_or_changes_nothing(db, tmp_path):
    names = (f"fuzz-{number}" for number in itertools.count())
    outcomes = {"imported": 0, "refused": 0}

    @settings(
        max_examples=examples(120),
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(damaged_files())
    def import_damaged(content):
        path = tmp_path / "season.json"
        path.write_bytes(content)
        season = next(names)
        before = row_counts()
        try:
            call_command(
                "import_season",
                str(path),
                "--season",
                season,
                "--first-evening",
                "2027-09-02",
                stdout=StringIO(),
            )
        except CommandError as error:
            assert "\n" not in str(error) and str(error)
            assert row_counts() == before
            outcomes["refused"] += 1
        else:
            competition = Competition.objects.get(season__name=season)
            for participant in competition.participants.select_related("member"):
                name = participant.member.name  # as the column keeps it, on one line
                assert len(name) <= NAME_LENGTH and name.strip()
                assert not any(unicodedata.category(c) == "Cc" for c in name)
            outcomes["imported"] += 1

    import_damaged()
    assert outcomes["imported"] and outcomes["refused"]  # both ends were reached
