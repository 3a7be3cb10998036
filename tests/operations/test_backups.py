"""A backup of the whole site and its restore (operations/backups.py, `backup_site`,
`restore_site`), on the engine the suite runs on (SQLite, or PostgreSQL with DATABASE_URL):
restored into an empty database, every row, the standings and the history are back; a damaged
or foreign file is refused with one line and changes nothing; the worker's daily backup."""

import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tarfile
from datetime import timedelta
from io import StringIO
from pathlib import Path

import psycopg
import pytest
import time_machine
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import override_settings

from competition.models import Season
from operations import backups
from operations.models import DailyBackup
from tests.moments import AMSTERDAM, at

ROOT = Path(__file__).resolve().parents[2]
NOW = at(12)
# A backup is made outside any transaction, as the worker and the command make it.
outside_transactions = pytest.mark.django_db(transaction=True)


# A command that waits for an answer fails its test after this long instead of hanging it.
COMMAND_TIMEOUT = 60


def manage(*args, database_url: str) -> subprocess.CompletedProcess:
    """A command in a process of its own, on another database than the test's, with no one at
    the keyboard: its stdin is a pipe nobody writes to or closes (not a terminal), as under
    cron or `docker compose run -T`."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", "DATABASE_URL": database_url}
    silent, unused = os.pipe()
    try:
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=env,
            stdin=silent,
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT,
        )
    finally:
        os.close(silent)
        os.close(unused)


SHOW = """
import json
from django.apps import apps
from django.core.management import call_command
from django.test import Client
from io import StringIO
out = StringIO()
call_command("dumpdata", stdout=out)
print(json.dumps({
    "counts": {m._meta.label: m._default_manager.count() for m in apps.get_models()},
    "rows": out.getvalue(),
    "standings": Client().get("/ranglijst/").content.decode(),
}))
"""


def shown_here(client) -> dict:
    out = StringIO()
    call_command("dumpdata", stdout=out)
    return {
        "counts": {m._meta.label: m._default_manager.count() for m in apps.get_models()},
        "rows": out.getvalue(),
        "standings": client.get("/ranglijst/").content.decode(),
    }


def shown_in(database_url: str) -> dict:
    process = manage("shell", "-v", "0", "-c", SHOW, database_url=database_url)
    assert process.returncode == 0, process.stderr
    return json.loads(process.stdout)


@contextlib.contextmanager
def empty_database(tmp_path):
    """A database of the suite's engine with nothing in it, not even tables."""
    if connection.vendor == "sqlite":
        yield f"sqlite:///{tmp_path / 'restored.sqlite3'}"
        return
    db = connection.settings_dict
    name = f"{db['NAME']}_restored"
    server = {
        "host": db["HOST"],
        "port": db["PORT"] or 5432,
        "user": db["USER"],
        "password": db["PASSWORD"],
    }
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
        yield f"postgres://{db['USER']}{password}@{db['HOST']}:{server['port']}/{name}"
    finally:
        with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.django_db(transaction=True)
def test_a_backup_restored_into_an_empty_database_has_every_row_the_standings_and_history(
    tmp_path, client, demo_rows
):
    demo_rows.load()
    here = shown_here(client)
    # The comparison covers what the season file leaves out, and the history.
    for label in (
        "auth.User",
        "members.ListedRating",
        "members.TeamMatch",
        "competition.Standing",
        "competition.HistoricalGame",
        "competition.HistoricalAbsence",
    ):
        assert here["counts"][label] > 0, label
    assert "Ranglijst" in here["standings"]

    made = StringIO()
    call_command("backup_site", "--to", str(tmp_path / "backups"), stdout=made)
    (path,) = (tmp_path / "backups").glob("dsc-backup-*.tar.gz")
    assert made.getvalue().startswith(f"backup: {path}")

    with empty_database(tmp_path) as database_url:
        restored = manage("restore_site", str(path), "--no-input", database_url=database_url)
        assert restored.returncode == 0, restored.stderr
        assert restored.stdout.startswith(f"restored: {path}")
        there = shown_in(database_url)
    assert there["counts"] == here["counts"]
    assert there["rows"] == here["rows"]
    assert there["standings"] == here["standings"]


# -- refusals ----------------------------------------------------------------------------------


def archive(path: Path, members: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def members_of(path: Path) -> dict[str, bytes]:
    with tarfile.open(path, "r:gz") as tar:
        return {m.name: tar.extractfile(m).read() for m in tar.getmembers()}


def with_manifest(members: dict[str, bytes], **changes) -> dict[str, bytes]:
    manifest = json.loads(members["manifest.json"])
    manifest.update(changes)
    return {**members, "manifest.json": json.dumps(manifest).encode()}


def other_engine(members: dict[str, bytes]) -> dict[str, bytes]:
    other = "postgresql" if connection.vendor == "sqlite" else "sqlite"
    (name,) = (n for n in members if n != "manifest.json")
    data = members[name]
    manifest = json.loads(members["manifest.json"])
    manifest["engine"] = other
    manifest["database"]["name"] = backups.DATABASE_FILES[other]
    return {
        "manifest.json": json.dumps(manifest).encode(),
        backups.DATABASE_FILES[other]: data,
    }


def damaged(good: Path, tmp_path: Path, kind: str) -> Path:
    data = good.read_bytes()
    bad = tmp_path / f"{kind}.tar.gz"
    members = members_of(good)
    (database,) = (n for n in members if n != "manifest.json")
    match kind:
        case "truncated":
            bad.write_bytes(data[: len(data) // 2])
        case "a flipped byte":
            middle = len(data) // 2
            bad.write_bytes(data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1 :])
        case "not an archive":
            bad.write_bytes(b"SQLite format 3\x00 or anything else")
        case "no manifest":
            archive(bad, {database: members[database]})
        case "another database":
            archive(bad, {**members, database: members[database][:-10] + b"0123456789"})
        case "a foreign format":
            archive(bad, with_manifest(members, format="something-else"))
        case "an unknown migration":
            later = json.loads(members["manifest.json"])["migrations"] + ["competition.9999_later"]
            archive(bad, with_manifest(members, migrations=later))
        case "the other engine":
            archive(bad, other_engine(members))
    return bad


FOREIGN = r"not a backup of this site, or damaged$"
REFUSALS = {  # what the one line says after the file's name
    "truncated": FOREIGN,
    "a flipped byte": r".*damaged",  # by gzip's check or by the checksum, whichever sees it
    "not an archive": FOREIGN,
    "no manifest": FOREIGN,
    "a foreign format": FOREIGN,
    "another database": r"damaged \(the database's checksum does not match\)$",
    "an unknown migration": r"made by a newer version of the site \(it has migration "
    r"competition\.9999_later\)$",
    "the other engine": r"a backup of a (SQLite|PostgreSQL) database; this site uses ",
}


@pytest.mark.parametrize("kind", REFUSALS)
@outside_transactions
def test_a_damaged_or_foreign_backup_is_refused_with_one_line_and_changes_nothing(
    kind, tmp_path, example_competition
):
    good = backups.make_backup(tmp_path, NOW)
    bad = damaged(good, tmp_path, kind)
    before = StringIO()
    call_command("dumpdata", stdout=before)
    Season.objects.update(name="changed")  # what the restore would bring back
    changed = StringIO()
    call_command("dumpdata", stdout=changed)

    with pytest.raises(CommandError) as refused:
        call_command("restore_site", str(bad), "--no-input", stdout=StringIO())
    message = str(refused.value)
    assert re.match(re.escape(f"{bad}: ") + REFUSALS[kind], message), message
    assert "\n" not in message
    after = StringIO()
    call_command("dumpdata", stdout=after)
    assert after.getvalue() == changed.getvalue() != before.getvalue()


def test_a_missing_file_is_refused(tmp_path, db):
    with pytest.raises(CommandError, match=r"nothing\.tar\.gz: no such file$"):
        call_command("restore_site", str(tmp_path / "nothing.tar.gz"), "--no-input")


def test_a_file_this_user_cannot_read_is_refused_as_such(tmp_path, db, monkeypatch):
    """Not "damaged": a backup copied into the container by root is the site's user's to read
    (the README's restore step gives it to that user). The tests run as root, who reads any
    file, so the refusal of the file system is the one opening the archive."""
    copied = tmp_path / "dsc-backup-copied.tar.gz"
    copied.write_bytes(b"")

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied", str(copied))

    monkeypatch.setattr(tarfile, "open", refused)
    with pytest.raises(CommandError, match=r"copied\.tar\.gz: cannot be read by this user .*chown"):
        call_command("restore_site", str(copied), "--no-input")


class Terminal(io.StringIO):
    """Someone at the keyboard (stdin is a terminal)."""

    def isatty(self):
        return True


@outside_transactions
def test_at_a_terminal_the_restore_asks_first(tmp_path, example_competition, monkeypatch):
    good = backups.make_backup(tmp_path, NOW)
    Season.objects.update(name="changed")  # what the restore would bring back
    asked = []
    monkeypatch.setattr("sys.stdin", Terminal())
    monkeypatch.setattr("builtins.input", lambda prompt: asked.append(prompt) or "no")
    with pytest.raises(CommandError, match="restore cancelled"):
        call_command("restore_site", str(good), stdout=StringIO())
    (prompt,) = asked
    assert prompt.startswith(f"{good} (made ") and prompt.endswith("Type 'yes': ")
    assert set(Season.objects.values_list("name", flat=True)) == {"changed"}


@pytest.mark.parametrize("kind", ["missing", "truncated"])
@outside_transactions
def test_at_a_terminal_a_bad_file_is_refused_before_anything_is_asked(
    kind, tmp_path, example_competition, monkeypatch
):
    good = backups.make_backup(tmp_path, NOW)
    bad = tmp_path / "nothing.tar.gz" if kind == "missing" else damaged(good, tmp_path, kind)
    monkeypatch.setattr("sys.stdin", Terminal())
    monkeypatch.setattr("builtins.input", lambda prompt: pytest.fail(f"asked: {prompt}"))
    with pytest.raises(CommandError, match=re.escape(f"{bad}: ")):
        call_command("restore_site", str(bad), stdout=StringIO())


# -- without a terminal: a process of its own, no one at the keyboard ---------------------------


def test_without_a_terminal_a_missing_file_is_refused_at_once(tmp_path):
    missing = tmp_path / "dsc-backup-missing.tar.gz"
    database_url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    done = manage("restore_site", str(missing), database_url=database_url)
    assert done.returncode != 0
    assert done.stderr.strip() == f"CommandError: {missing}: no such file"
    assert "Type 'yes'" not in done.stdout


@pytest.mark.django_db(transaction=True)
def test_without_a_terminal_a_damaged_file_is_refused_at_once(tmp_path, example_competition):
    bad = damaged(backups.make_backup(tmp_path, NOW), tmp_path, "another database")
    with empty_database(tmp_path) as database_url:
        done = manage("restore_site", str(bad), database_url=database_url)
    assert done.returncode != 0
    assert done.stderr.strip() == (
        f"CommandError: {bad}: damaged (the database's checksum does not match)"
    )
    assert "Type 'yes'" not in done.stdout


TABLES = "from django.db import connection; print(len(connection.introspection.table_names()))"
SEASONS = (
    "import json; from competition.models import Season; "
    "print(json.dumps([s.name for s in Season.objects.all()]))"
)


@pytest.mark.django_db(transaction=True)
def test_without_a_terminal_a_good_file_is_restored_only_when_told_yes(
    tmp_path, example_competition
):
    good = backups.make_backup(tmp_path, NOW)
    with empty_database(tmp_path) as database_url:
        refused = manage("restore_site", str(good), database_url=database_url)
        assert refused.returncode != 0
        assert refused.stderr.strip() == (
            f"CommandError: {good}: checked, not restored: no terminal to ask 'yes' at; "
            "add --yes to replace the database without asking"
        )
        untouched = manage("shell", "-v", "0", "-c", TABLES, database_url=database_url)
        assert untouched.stdout.strip() == "0"  # not one table: the database was not touched

        restored = manage("restore_site", str(good), "--yes", database_url=database_url)
        assert restored.returncode == 0, restored.stderr
        assert restored.stdout.startswith(f"restored: {good} (made ")
        seasons = manage("shell", "-v", "0", "-c", SEASONS, database_url=database_url)
    assert json.loads(seasons.stdout) == list(Season.objects.values_list("name", flat=True))


@outside_transactions
def test_a_backup_is_readable_by_its_owner_only(tmp_path):
    path = backups.make_backup(tmp_path, NOW)
    assert path.name == "dsc-backup-20260918-120000.tar.gz"  # local time in the name
    assert path.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # nothing left half-made


# -- the worker's daily backup -----------------------------------------------------------------


def run_worker(moment) -> str:
    out = StringIO()
    with time_machine.travel(moment, tick=False):
        call_command("run_worker", stdout=out)
    return out.getvalue()


def daily(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.glob("dsc-daily-*.tar.gz"))


@outside_transactions
def test_the_worker_backs_up_once_a_day_and_keeps_the_last_n(tmp_path, example_competition):
    kept_by_hand = backups.make_backup(tmp_path, at(9, day=NOW.date() - timedelta(days=30)))
    with override_settings(BACKUP_DIR=str(tmp_path), BACKUP_KEEP=2):
        assert "backup: " in run_worker(at(0, minute=1))
        assert run_worker(at(0, minute=2)) == ""  # the next pass, or a restarted worker
        assert run_worker(at(23, minute=59)) == ""
        assert daily(tmp_path) == ["dsc-daily-20260918-000100.tar.gz"]
        for day in (1, 2, 3):
            run_worker(at(0, minute=1, day=NOW.date() + timedelta(days=day)))
    assert daily(tmp_path) == [
        "dsc-daily-20260920-000100.tar.gz",
        "dsc-daily-20260921-000100.tar.gz",
    ]
    assert kept_by_hand.exists()  # a backup made by hand is never pruned
    assert list(DailyBackup.objects.values_list("day", flat=True)) == [
        (NOW + timedelta(days=3)).date()
    ]


def test_without_a_backup_directory_the_worker_makes_no_backup(tmp_path, example_competition):
    run_worker(at(0, minute=1))
    assert not DailyBackup.objects.exists()


def test_two_workers_claim_the_days_backup_once_and_a_dead_claim_expires(db):
    today = NOW.astimezone(AMSTERDAM).date()
    first = DailyBackup.objects.claim(today, NOW)
    assert first is not None
    assert DailyBackup.objects.claim(today, NOW + timedelta(seconds=1)) is None
    assert DailyBackup.objects.claim(today, NOW + timedelta(minutes=59)) is None
    # The claiming worker died before it finished: an hour later another one takes over.
    assert DailyBackup.objects.claim(today, NOW + timedelta(minutes=61)) == first
    DailyBackup.objects.finish(first, "dsc-daily-x.tar.gz", NOW + timedelta(minutes=62))
    assert DailyBackup.objects.claim(today, NOW + timedelta(hours=5)) is None


@outside_transactions
def test_a_failing_backup_is_reported_and_not_retried_every_pass(
    tmp_path, example_competition, monkeypatch
):
    def broken(target):
        raise backups.BackupFailed("pg_dump: connection refused")

    copy = "_sqlite_copy" if connection.vendor == "sqlite" else "_pg_dump"
    monkeypatch.setattr(backups, copy, broken)
    with override_settings(BACKUP_DIR=str(tmp_path)):
        with pytest.raises(CommandError, match="failed: daily backup"):
            run_worker(at(0, minute=1))
        assert run_worker(at(0, minute=2)) == ""  # claimed: no new attempt each 20 s
    assert daily(tmp_path) == []
    assert [p for p in tmp_path.iterdir()] == []  # no half-made file left


@outside_transactions
def test_a_failing_daily_backup_is_seen_told_once_and_tried_again_within_minutes(
    tmp_path, example_competition, client, mailoutbox
):
    """Issue 26: on a full disk the worker wrote one stderr line and nothing else. Now the
    start page and /gezond/ warn, the administrators get one e-mail, and the worker tries
    again within minutes until it works."""
    from arbiter.week import this_week

    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the backups' folder should be")
    with override_settings(BACKUP_DIR=str(blocked / "backups"), ADMINS=[("Beheer", "b@x.nl")]):
        with pytest.raises(CommandError, match="failed: daily backup"):
            run_worker(at(0, minute=1))
        with time_machine.travel(at(0, minute=2), tick=False):
            health = client.get("/gezond/")
            week = this_week(at(0, minute=2))
        assert health.status_code == 503
        assert health.content.decode().startswith("backup failed at 2026-09-18 00:01: ")
        assert week["failed_backup"].error.startswith("NotADirectoryError")
        [told] = mailoutbox  # and no error report for the 503 the monitor got
        assert (told.to, told.subject) == (["b@x.nl"], "DSC: de dagelijkse back-up is mislukt")

        assert run_worker(at(0, minute=4)) == ""  # not every pass
        with pytest.raises(CommandError, match="failed: daily backup"):
            run_worker(at(0, minute=7))  # within minutes, again
        assert len([m for m in mailoutbox if m.to == ["b@x.nl"]]) == 1  # told once

    with override_settings(BACKUP_DIR=str(tmp_path / "backups")):  # room again
        assert "backup: " in run_worker(at(0, minute=13))
        with time_machine.travel(at(0, minute=14), tick=False):
            assert client.get("/gezond/").content == b"ok\n"
            assert this_week(at(0, minute=14))["failed_backup"] is None


@outside_transactions
def test_a_gzip_bomb_is_refused_before_anything_is_unpacked(tmp_path, monkeypatch):
    """Issue 26: restoring a gzip bomb wrote 1 GiB to the temporary folder before refusing
    it. Its database's size is read from the archive and refused first (the limit is made
    small here, so the bomb need not be large)."""
    good = members_of(backups.make_backup(tmp_path, NOW))
    monkeypatch.setattr(backups, "MAX_DATABASE_SIZE", 1 << 20)
    (name,) = (n for n in good if n != "manifest.json")
    bomb = archive(tmp_path / "bomb.tar.gz", {**good, name: bytes(2 << 20)})  # 2 MB of zeros
    assert bomb.stat().st_size < 20_000
    work = tmp_path / "work"
    work.mkdir()
    with pytest.raises(backups.BackupRefused, match=r"its database is 2 MB, more than"):
        backups.check_backup(bomb, work)
    assert list(work.iterdir()) == []
