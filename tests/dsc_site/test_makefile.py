"""`make` picks the newest Python 3.11 or later that runs: a newcomer with only Python 3.12
or 3.13 is not refused, and a pyenv shim of a version that is not installed is passed over."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAKE = shutil.which("make")
WORKS = "#!/bin/sh\nexit 0\n"  # answers the version check as a Python 3.11+ does
TOO_OLD = "#!/bin/sh\nexit 1\n"  # sys.version_info < (3, 11)
SHIM = '#!/bin/sh\necho "pyenv: $(basename $0): command not found" >&2\nexit 127\n'


def chosen(tmp_path, **interpreters) -> str:
    """What `make which-python` picks with only these interpreters on the PATH."""
    for name, script in interpreters.items():
        path = tmp_path / name.replace("_", ".")
        path.write_text(script)
        path.chmod(0o755)
    env = {**os.environ, "PATH": str(tmp_path)}  # only these (make and sh by full path)
    env.pop("PYTHON", None)
    result = subprocess.run(
        [MAKE, "-s", "-C", str(ROOT), "which-python"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()


@pytest.mark.skipif(MAKE is None, reason="make is not installed")
@pytest.mark.parametrize(
    ("interpreters", "expected"),
    [
        ({"python3_13": WORKS}, "python3.13"),
        ({"python3_12": WORKS}, "python3.12"),
        ({"python3_11": WORKS, "python3_13": WORKS}, "python3.13"),
        ({"python3_13": SHIM, "python3_11": WORKS}, "python3.11"),
        ({"python3": WORKS}, "python3"),
        ({"python3": TOO_OLD}, ""),
    ],
)
def test_make_picks_the_newest_python_that_runs(tmp_path, interpreters, expected):
    picked = chosen(tmp_path, **interpreters)
    assert picked == (str(tmp_path / expected) if expected else "")
