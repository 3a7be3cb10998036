"""The demo's rows as the tests store them (tests/demo.py: read from a file once per process,
then one INSERT per table) are the rows of the file, which `load_demo` wrote, also after a
flush has given the rows migrations make (permissions) new keys, as between transactional
tests."""

import json
from io import StringIO

import pytest
import time_machine
from django.core.management import call_command

from tests.demo import DEMO_NOW, NOT_DUMPED, insert_rows


def normalized(rows: list[dict]) -> list[str]:
    return sorted(json.dumps(row, sort_keys=True) for row in rows)


def stored() -> list[str]:
    out = StringIO()
    call_command("dumpdata", natural_foreign=True, exclude=NOT_DUMPED, stdout=out)
    return normalized(json.loads(out.getvalue()))


@pytest.mark.django_db(transaction=True)
def test_the_rows_stored_are_the_rows_load_demo_wrote(demo_rows):
    with time_machine.travel(DEMO_NOW):
        demo_rows.load()  # the file exists from here on
        expected = normalized(json.loads(demo_rows.path.read_text(encoding="utf-8")))
        for _ in range(2):
            # as a transactional test ends: the sequences go on, permissions get new keys
            call_command("flush", "--noinput", reset_sequences=False, verbosity=0)
            insert_rows(demo_rows.path)
            assert stored() == expected
    assert len(expected) > 2900
