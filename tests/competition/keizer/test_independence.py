"""The engine is plain Python: importing and running it never loads Django."""

import subprocess
import sys

from .conftest import DATA

PROBE = """
import sys
import competition.keizer.__main__, competition.keizer.pairing, competition.keizer.ranking
from competition.keizer import season_file
from competition.keizer.pairing import pair_next_round
from competition.keizer.ranking import compute_rankings
season = season_file.loads(open(sys.argv[1], encoding="utf-8").read())
compute_rankings(season); pair_next_round(season)
loaded = sorted(m for m in sys.modules if m == "django" or m.startswith("django."))
print(",".join(loaded) or "none")
"""


def test_importing_the_engine_does_not_import_django():
    process = subprocess.run(
        [sys.executable, "-c", PROBE, str(DATA / "worked_example.json")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert process.stdout.strip() == "none"


def test_the_probe_would_notice_django():
    """The same check reports Django when something does import it (the test can fail)."""
    process = subprocess.run(
        [sys.executable, "-c", "import django.conf\n" + PROBE, str(DATA / "worked_example.json")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "django.conf" in process.stdout
