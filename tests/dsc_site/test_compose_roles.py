"""The stack's roles started exactly as compose.yaml starts them (their `command`, run here by
`sh` with the checkout's Python first on PATH), with the mistakes a volunteer makes in `.env`
(issue 38, finding 1): each role stops at once with exit status 2 and the site's own reason in
one line of its log, where before web and worker waited for ever with an empty log; and a
database whose tables are not there yet is waited for with a line that says so."""

import re
import shlex
import subprocess

import pytest
import yaml

from tests.processes import ROOT, STARTUP, Output, dockerfile_cmd, production_env

__all__ = ["production_env"]

ROLES = ("migrate", "web", "worker")
# One line: the time with its zone, the level, and the reason.
REFUSAL = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[+-]\d{4} ERROR configuration: (.+)$")


def command_of(role: str) -> str:
    command = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"][role]["command"]
    assert command.startswith('sh -c "') and command.endswith('"')
    return command[len('sh -c "') : -1]


def started(role: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["sh", "-c", command_of(role)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=STARTUP,  # a role that waits instead of refusing fails here
    )


@pytest.mark.parametrize(
    ("mistake", "reason"),
    [
        ({"SECRET_KEY": "changeme"}, "SECRET_KEY is too short or too plain"),
        (
            {"ALLOWED_HOSTS": "dsc.example.org", "SITE_ADDRESS": "localhost"},
            "localhost (the site's address) is not in ALLOWED_HOSTS (dsc.example.org): every "
            "page would answer 400",
        ),
        ({"TRUSTED_PROXIES": "one"}, "TRUSTED_PROXIES must be a whole number of 0 or more"),
        ({"CLUB_PUBLICATION_TIME": "8pm"}, "CLUB_PUBLICATION_TIME must be a time such as 18:00"),
    ],
)
def test_every_role_refuses_a_mistake_in_the_environment_in_one_line(
    production_env, mistake, reason
):
    for role in ROLES:
        process = started(role, {**production_env, **mistake})
        lines = process.stderr.splitlines()
        assert process.returncode == 2, (role, process.stderr)
        assert len(lines) == 1, (role, lines)  # no traceback
        refused = REFUSAL.match(lines[0])
        assert refused and reason in refused[1], (role, lines[0])


def test_every_mistake_is_named_at_once(production_env):
    process = started(
        "web", {**production_env, "SECRET_KEY": "changeme", "BACKUP_KEEP": "0", "DEBUG": "ja"}
    )
    said = REFUSAL.match(process.stderr.strip())[1]
    assert said == (
        "DEBUG must be true or false, not 'ja'; "
        "SECRET_KEY is too short or too plain: use at least 50 random characters, e.g. the "
        "output of python -c 'import secrets; print(secrets.token_urlsafe(50))'; "
        "BACKUP_KEEP must be a whole number of 1 or more, not '0'"
    )


def test_gunicorn_stops_when_a_worker_cannot_boot(production_env):
    """Started without preflight (the image's own command): gunicorn's master stops, with the
    reason in one line, instead of booting one worker after another."""
    env = {**production_env, "SECRET_KEY": "changeme", "PORT": "0"}
    command = dockerfile_cmd()
    process = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=STARTUP
    )
    assert process.returncode != 0
    reasons = [REFUSAL.match(line) for line in process.stderr.splitlines()]
    assert {r[1] for r in reasons if r} == {  # once per worker that tried to boot
        "SECRET_KEY is too short or too plain: use at least 50 random characters, e.g. the "
        "output of python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    }
    # Not the settings' traceback. (gunicorn may print one of its own when two workers fail to
    # boot at once and the second ends while it halts: a race of its own, seen once in CI.)
    assert "ImproperlyConfigured" not in process.stderr


def test_web_says_what_it_waits_for_until_the_tables_are_there(production_env, tmp_path):
    """A database without its tables (the migrate role has not run yet): web waits, and says
    so, instead of waiting in silence; once migrated it starts gunicorn."""
    env = {**production_env, "DATABASE_URL": f"sqlite:///{tmp_path / 'new.sqlite3'}"}
    web = subprocess.Popen(
        ["sh", "-c", command_of("web").replace("0.0.0.0:8000", "127.0.0.1:0")],
        cwd=ROOT,
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    output = Output(web.stderr)
    try:
        output.wait_for("preflight: waiting: ")
        assert "database migrations not applied yet (the migrate role)" in output.seen[-1]
        migrated = started("migrate", env)
        assert migrated.returncode == 0, migrated.stderr
        output.wait_for("preflight: ready: the tables are up to date")
        output.wait_for("Booting worker")
    finally:
        web.terminate()
        web.wait(timeout=STARTUP)
        output.close()


def test_web_counts_the_one_migration_it_waits_for(production_env):
    """An upgrade that brings one migration (tried under Podman, 29 November 2026): the waiting
    line read "1 database migrations". The test's own copy of the migrated database, with
    training's last migration undone."""
    env = production_env
    manage = ["python", "manage.py", "migrate", "--noinput", "training", "0002"]
    subprocess.run(manage, cwd=ROOT, env=env, check=True, capture_output=True, timeout=STARTUP)
    # web's own first step, without sh (so that terminating it ends the process that waits).
    preflight = shlex.split(command_of("web").split(" && ")[0])
    assert preflight[:3] == ["python", "manage.py", "preflight"]
    web = subprocess.Popen(
        preflight,
        cwd=ROOT,
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    output = Output(web.stderr)
    try:
        output.wait_for("preflight: waiting: ")
        assert (
            output.seen[-1]
            .rstrip()
            .endswith("waiting: 1 database migration not applied yet (the migrate role)")
        )
    finally:
        web.terminate()
        web.wait(timeout=STARTUP)
        output.close()
