"""`make run` serves on PORT, and the links it writes (e-mails, the calendar) lead there too:
`PORT=8080 make run` wrote links to port 8000 (issue 37). The Makefile's own commands run with
a stand-in Python that shows the environment it got and stops."""

import os
import stat
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

STAND_IN = """#!/bin/sh
echo "SITE_URL=$SITE_URL"
echo "EMAIL_BACKEND=$EMAIL_BACKEND"
exit 3
"""


def environment_of_make_run(tmp_path: Path, **variables: str) -> str:
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    python = venv / "bin" / "python"
    python.write_text(STAND_IN)
    python.chmod(python.stat().st_mode | stat.S_IEXEC)
    (venv / ".installed").touch()  # newer than pyproject.toml: nothing to install
    ours = ("SITE_URL", "PORT", "EMAIL_BACKEND", "MAKEFLAGS")
    env = {k: v for k, v in os.environ.items() if k not in ours}
    result = subprocess.run(
        ["make", "--no-print-directory", "run", f"VENV={venv}"]
        + [f"{name}={value}" for name, value in variables.items()],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return result.stdout


def test_the_links_follow_the_port_make_run_serves_on(tmp_path):
    assert "SITE_URL=http://127.0.0.1:8080" in environment_of_make_run(tmp_path, PORT="8080")


def test_by_default_the_links_lead_to_port_8000(tmp_path):
    assert "SITE_URL=http://127.0.0.1:8000" in environment_of_make_run(tmp_path)


def test_a_site_url_given_wins(tmp_path):
    given = environment_of_make_run(tmp_path, SITE_URL="http://dsc.test:9000")
    assert "SITE_URL=http://dsc.test:9000" in given


def test_make_run_mails_a_line_each_to_the_console(tmp_path):
    """Not the console backend's whole messages (operations/dev_mail.py)."""
    given = environment_of_make_run(tmp_path)
    assert "EMAIL_BACKEND=operations.dev_mail.EmailBackend" in given


def test_make_test_prints_the_reason_of_every_skip(tmp_path):
    """`make test` said "140 skipped" and no more (issue 38): pytest's `-rs` names each skip
    and its reason in the summary."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    pytest = venv / "bin" / "pytest"
    pytest.write_text('#!/bin/sh\necho "pytest $*"\n')
    pytest.chmod(pytest.stat().st_mode | stat.S_IEXEC)
    (venv / ".installed").touch()
    env = {k: v for k, v in os.environ.items() if k != "MAKEFLAGS"}
    result = subprocess.run(
        ["make", "--no-print-directory", "test", f"VENV={venv}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    (called,) = [line for line in result.stdout.splitlines() if line.startswith("pytest ")]
    assert "-rs" in called.split()
