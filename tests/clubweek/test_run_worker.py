"""The worker's command (`manage.py run_worker`, clubweek/management/commands/run_worker.py):
its old name `publish_due_rounds` still runs the same pass, and in its loop a failing step or a
failed backup is logged with its traceback while everything else still runs.

The loop is stopped as a supervisor stops it: a SIGTERM, raised here from inside a step."""

import re
import signal
from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
import time_machine
from django.core.management import call_command, get_commands, load_command_class

from clubweek import worker
from clubweek.management.commands import run_worker
from operations import backups
from operations.models import WorkerHeartbeat
from tests.moments import at

FRIDAY_20 = at(20)


@pytest.fixture(autouse=True)
def signal_handlers():
    """The command installs its own SIGTERM and SIGINT handlers; the test run gets its own
    back afterwards."""
    before = {number: signal.getsignal(number) for number in (signal.SIGTERM, signal.SIGINT)}
    yield
    for number, handler in before.items():
        signal.signal(number, handler)


# Every line of the worker: the time and its zone, the level, then what it says.
LINE = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[+-]\d{4}) (INFO|WARNING) worker: (.+)$")


def said(out: str) -> str:
    """The worker's lines without their time (each must have one), a warning marked."""
    lines = []
    for line in out.splitlines():
        match = LINE.match(line)
        assert match, line
        lines.append(f"{'WARNING ' if match[2] == 'WARNING' else ''}{match[3]}\n")
    return "".join(lines)


def run(name: str, *args: str, moment=FRIDAY_20) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    with time_machine.travel(moment, tick=False):
        call_command(name, *args, stdout=out, stderr=err)
    assert all(
        LINE.match(line)[1] == f"{moment:%Y-%m-%d %H:%M:%S%z}"
        for line in out.getvalue().splitlines()
    )
    return said(out.getvalue()), err.getvalue()


def stop_the_worker():
    """What a supervisor does: SIGTERM, handled by the worker's own handler."""
    signal.raise_signal(signal.SIGTERM)


def test_the_old_name_publish_due_rounds_still_runs_a_pass(round_4):
    out, err = run("publish_due_rounds")
    round_4.refresh_from_db()
    assert round_4.published_at == FRIDAY_20 and round_4.games.count() == 5
    assert (out, err) == ("published: Ronde 4 (24-09-2026)\n", "")
    assert WorkerHeartbeat.objects.status(FRIDAY_20).seen_at == FRIDAY_20


def test_the_old_name_is_the_same_command_as_run_worker():
    assert get_commands()["publish_due_rounds"] == get_commands()["run_worker"] == "clubweek"
    old = load_command_class("clubweek", "publish_due_rounds")
    assert isinstance(old, run_worker.Command)
    assert old.help == run_worker.Command.help


def test_in_its_loop_a_failing_step_is_logged_and_the_rest_and_the_backup_still_run(
    round_4, monkeypatch, caplog
):
    def broken(now):
        stop_the_worker()  # meanwhile: the loop ends after this turn
        raise RuntimeError("the no-show rule broke")

    steps = [s._replace(run=broken) if s.name == "no-show rule" else s for s in worker.STEPS]
    monkeypatch.setattr(worker, "STEPS", tuple(steps))
    monkeypatch.setattr(backups, "make_daily_backup", lambda now: Path("/backups/dsc-daily.tar.gz"))
    out, _err = run("run_worker", "--loop", "--interval", "0")
    assert out == (
        "worker ready\npublished: Ronde 4 (24-09-2026)\n"
        "WARNING step no-show rule failing: RuntimeError: the no-show rule broke\n"
        "worker seen\nbackup: /backups/dsc-daily.tar.gz\nworker stopped\n"
    )
    [failure] = [r for r in caplog.records if r.levelname == "ERROR"]
    assert failure.getMessage() == "worker step 'no-show rule' failed"
    assert "RuntimeError: the no-show rule broke" in caplog.text  # with its traceback
    assert failure.exc_info is not None
    status = WorkerHeartbeat.objects.status(FRIDAY_20)
    assert status.seen_at == FRIDAY_20 and [s.name for s in status.failing] == ["no-show rule"]


def test_in_its_loop_a_failed_backup_is_logged_after_a_pass_that_did_its_work(
    round_4, monkeypatch, caplog
):
    def broken_backup(now):
        stop_the_worker()
        raise backups.BackupFailed("pg_dump: connection refused")

    monkeypatch.setattr(backups, "make_daily_backup", broken_backup)
    out, err = run("run_worker", "--loop", "--interval", "0")
    assert out == (
        "worker ready\npublished: Ronde 4 (24-09-2026)\nworker seen\n"
        "WARNING the daily backup failed: pg_dump: connection refused\nworker stopped\n"
    )
    assert err == ""
    [failure] = [r for r in caplog.records if r.levelname in ("WARNING", "ERROR")]
    assert failure.getMessage() == "the daily backup failed" and failure.exc_info is not None
    assert failure.levelname == "WARNING"  # the backup tells the administrators itself, once
    assert "BackupFailed: pg_dump: connection refused" in caplog.text
    assert WorkerHeartbeat.objects.status(FRIDAY_20).seen_at == FRIDAY_20


def test_the_log_tells_the_story_of_a_mail_server_that_went_away_and_came_back(db, settings):
    """Issue 38, finding 3: 79 e-mails delivered, then the mail server down for 12 minutes, and
    the worker's log said nothing. One line for a pass that sent mail, one when the trouble
    starts, none while it lasts, one when it ends."""
    from django.core import mail

    settings.EMAIL_BACKEND = "operations.outbox.OutboxBackend"  # as in production
    settings.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    command = run_worker.Command(stdout=StringIO())
    command.seen, command.troubles = True, {}

    def a_pass(minute: int) -> str:
        before = command.stdout.getvalue()
        with time_machine.travel(FRIDAY_20 + timedelta(minutes=minute), tick=False):
            command.club_week(FRIDAY_20 + timedelta(minutes=minute), loop=True)
        return said(command.stdout.getvalue()[len(before) :])

    with time_machine.travel(FRIDAY_20, tick=False):
        mail.send_mail("Indeling", "Ronde 4", "dsc@example.org", ["jan@example.org"])
    assert a_pass(0) == "e-mails sent: 1\n"
    assert a_pass(1) == ""  # nothing new
    settings.EMAIL_DELIVERY_BACKEND = "tests.operations.test_outbox.ServerAway"
    with time_machine.travel(FRIDAY_20 + timedelta(minutes=2), tick=False):
        mail.send_mail("Indeling", "Ronde 4", "dsc@example.org", ["piet@example.org"])
    assert a_pass(2) == (
        "WARNING the mail server does not take mail: 1 waiting "
        "(ConnectionRefusedError: [Errno 111] Connection refused)\n"
    )
    assert a_pass(3) == ""  # still away: said once
    settings.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert a_pass(14) == "e-mails sent: 1\nthe mail server takes mail again\n"
