"""Fuzzing the season file reader: a damaged file is read, or refused with one line.

Each example damages the worked example (values replaced by any JSON value, keys deleted, then
bytes flipped, lines deleted or repeated (a repeated key), control characters and long strings
inserted, the end cut off). The reader must return a season the engine can rank, or raise a
`SeasonFileError` of one line; never any other exception.
"""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competition.keizer import season_file
from competition.keizer.ranking import compute_rankings
from competition.keizer.season_file import SeasonFileError
from tests.hypothesis_profiles import examples
from tests.mutations import damaged_bytes, damaged_document

from .conftest import DATA

EXAMPLE = json.loads((DATA / "worked_example.json").read_text(encoding="utf-8"))


@st.composite
def damaged_files(draw) -> bytes:
    document = draw(damaged_document(EXAMPLE))
    text = json.dumps(document, ensure_ascii=False, indent=2).encode("utf-8")
    if draw(st.booleans()):  # most byte damage breaks the JSON: half the files keep it
        return text
    return draw(damaged_bytes(text))


def read(content: bytes):
    """As the command line reads a file: UTF-8 text first, then the document."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return season_file.loads(text)


@settings(
    max_examples=examples(300),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(damaged_files())
def test_a_damaged_file_is_read_or_refused_in_one_line(content):
    try:
        season = read(content)
    except SeasonFileError as error:
        assert "\n" not in str(error) and str(error)
        return
    if season is not None:
        compute_rankings(season)  # what the reader accepts, the engine can rank
        assert season_file.loads(season_file.dumps(season)) == season
