"""Fuzzing the KNSB rating list: a damaged list (CSV or zip) is read or refused, line by line
or as a whole; `manage.py import_knsb_ratings` imports it or refuses it in one line, and a
refused list changes nothing (every table's rows counted before and after)."""

import io
import itertools
import zipfile
from datetime import date, timedelta
from io import StringIO

from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from members import knsb
from members.models import Member
from tests.hypothesis_profiles import examples
from tests.members.test_knsb import csv_bytes
from tests.mutations import damaged_bytes
from tests.rows import row_counts

LIST = csv_bytes(
    "8100001;Zeeuw, Jan de;;NED;1850;12;1975;M",
    "8100002;Hoekstra, Anne;WFM;NED;2105;30;1990;V",
    "8100003;Sánchez, José;;ESP;1702;0;2001;M",
    "8100004;Visser, Jelle;;NED;1420;5;2010;M",
)
BOUNDED = {
    "deadline": None,
    "derandomize": True,
    "database": None,
    "suppress_health_check": [HealthCheck.too_slow],
}


def zipped(content: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("KNSB-ratinglijst.csv", content)
    return buffer.getvalue()


@st.composite
def damaged_lists(draw) -> bytes:
    """A damaged CSV, the zip of a damaged CSV, or a damaged zip."""
    form = draw(st.sampled_from(["csv", "zip of damaged csv", "damaged zip"]))
    if form == "damaged zip":
        return draw(damaged_bytes(zipped(LIST)))
    damaged = draw(damaged_bytes(LIST))
    return zipped(damaged) if form == "zip of damaged csv" else damaged


@settings(max_examples=examples(400), **BOUNDED)
@given(damaged_lists())
def test_a_damaged_list_is_read_or_refused_in_lines(content):
    parsed = knsb.parse(content)
    for error in parsed.errors:
        assert "\n" not in str(error) and str(error)
    assert parsed.is_valid == (not parsed.errors)


def test_the_command_imports_a_damaged_list_or_changes_nothing(db, tmp_path):
    for number in range(8100001, 8100005):
        Member.objects.create(name=f"Lid {number}", knsb_number=number)
    dates = (date(2026, 1, 1) + timedelta(days=day) for day in itertools.count())
    outcomes = {"imported": 0, "refused": 0}

    @settings(max_examples=examples(120), **BOUNDED)
    @given(damaged_lists())
    def import_damaged(content):
        path = tmp_path / "KNSB.zip"
        path.write_bytes(content)
        before = row_counts()
        try:
            call_command(
                "import_knsb_ratings",
                str(path),
                "--date",
                next(dates).isoformat(),
                stdout=StringIO(),
                stderr=StringIO(),
            )
        except CommandError as error:
            assert "\n" not in str(error) and str(error)
            assert row_counts() == before
            outcomes["refused"] += 1
        else:
            outcomes["imported"] += 1

    import_damaged()
    assert outcomes["imported"] and outcomes["refused"]  # both ends were reached
