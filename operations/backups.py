"""A backup of the whole site in one file, and its restore.

The site's state is its database: it keeps no uploaded files (a rating list is read, then
dropped), so there is no media to save. A backup is a gzip'd tar archive of `manifest.json`
and the database in its engine's own format: `pg_dump -Fc` for PostgreSQL, SQLite's online
backup API for SQLite. The manifest names the engine, the migrations applied and the SHA-256 of
the database file. A restore checks all of that before it touches the database and refuses a
damaged or foreign file, a backup of the other engine or one made by a newer version of the
site, with one line; it then replaces the whole database at once (SQLite's backup API, or one
`psql --single-transaction`), so a restore that fails half-way changes nothing.

Moving between SQLite and PostgreSQL is not a restore: it is refused (use `dumpdata`/`loaddata`).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import sqlite3
import subprocess
import tarfile
import tempfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone
from django.utils.translation import gettext as _

from base import page_cache
from operations.letters import Kind, Letter, send
from operations.models import DailyBackup

FORMAT = "dsc-site-backup"
VERSION = 1
MANIFEST = "manifest.json"
DATABASE_FILES = {"sqlite": "database.sqlite3", "postgresql": "database.pgdump"}
ENGINE_NAMES = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}
MANUAL_PREFIX = "dsc-backup-"
DAILY_PREFIX = "dsc-daily-"  # only these are pruned: a backup made by hand stays
SUFFIX = ".tar.gz"
CHUNK = 1 << 20
# The largest database a restore unpacks: a club's database of many seasons is a few MB; an
# archive claiming more (a gzip bomb) is refused before a byte of it is written out.
MAX_DATABASE_SIZE = 256 << 20


class BackupRefused(Exception):
    """The file cannot be restored here; the message is one line naming the file."""


class BackupFailed(Exception):
    """pg_dump, pg_restore or psql failed; the message is their last line of error."""


# -- making a backup ---------------------------------------------------------------------------


def make_backup(directory: Path, now: datetime, prefix: str = MANUAL_PREFIX) -> Path:
    """The whole database as one archive in `directory`, named for the local time `now`.
    The archive appears complete or not at all, readable by its owner only (it holds the
    accounts' password hashes)."""
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / f"{prefix}{timezone.localtime(now):%Y%m%d-%H%M%S}{SUFFIX}"
    vendor = connection.vendor
    with tempfile.TemporaryDirectory(dir=directory, prefix=".making-") as work:
        database = Path(work) / DATABASE_FILES[vendor]
        if vendor == "postgresql":
            _pg_dump(database)
        else:
            _sqlite_copy(database)
        manifest = {
            "format": FORMAT,
            "version": VERSION,
            "engine": vendor,
            "made_at": now.isoformat(),
            "migrations": _applied_migrations(),
            "database": {"name": database.name, "sha256": _sha256(database)},
        }
        partial = Path(work) / target.name
        with tarfile.open(partial, "w:gz") as archive:
            text = json.dumps(manifest, indent=2).encode()
            info = tarfile.TarInfo(MANIFEST)
            info.size = len(text)
            info.mtime = int(now.timestamp())
            archive.addfile(info, io.BytesIO(text))
            archive.add(database, arcname=database.name)
        partial.chmod(0o600)
        os.replace(partial, target)
    return target


def make_daily_backup(now: datetime) -> Path | None:
    """The worker's backup of the day, made once a day by one worker (the first pass after
    midnight); keeps the last BACKUP_KEEP. None when BACKUP_DIR is not set, or today's backup
    was made (or is being made by another worker)."""
    if not settings.BACKUP_DIR:
        return None
    today = timezone.localdate(now)
    claim = DailyBackup.objects.claim(today, now)
    if claim is None:
        return None
    directory = Path(settings.BACKUP_DIR)
    try:
        path = make_backup(directory, now, prefix=DAILY_PREFIX)
    except Exception as error:
        if DailyBackup.objects.fail(claim, f"{type(error).__name__}: {error}", now):
            tell_the_administrators(now, error)
        raise
    DailyBackup.objects.finish(claim, path.name, timezone.now())
    DailyBackup.objects.forget_before(today)
    prune(directory, settings.BACKUP_KEEP)
    return path


def tell_the_administrators(now: datetime, error: Exception) -> None:
    """Once a day at most: the day's backup failed, and why (a letter of the outbox)."""
    when = timezone.localtime(now)
    send(
        [
            Letter(
                Kind.ERROR,
                address,
                _("the daily backup failed"),
                [
                    _(
                        "The daily backup of %(day)s failed at %(time)s: %(error)s. The worker "
                        "tries again every few minutes; this e-mail is sent once a day."
                    )
                    % {
                        "day": when.strftime("%d-%m-%Y"),
                        "time": when.strftime("%H:%M"),
                        "error": f"{type(error).__name__}: {error}",
                    },
                ],
            )
            for _name, address in settings.ADMINS
        ],
        now,
    )


def prune(directory: Path, keep: int) -> list[Path]:
    """Deletes all but the newest `keep` daily backups (their names sort by time)."""
    daily = sorted(directory.glob(f"{DAILY_PREFIX}*{SUFFIX}"))
    old = daily[:-keep] if keep else daily
    for path in old:
        path.unlink()
    return old


# -- restoring ---------------------------------------------------------------------------------


def check_backup(path: Path, work: Path) -> tuple[dict, Path]:
    """The manifest and the database file of `path`, unpacked into `work`, after every check
    a restore needs; raises BackupRefused with one line otherwise. Changes nothing."""
    manifest, database = _unpack(path, work)
    made_on = manifest["engine"]
    if made_on != connection.vendor:
        raise BackupRefused(
            f"{path}: a backup of a {ENGINE_NAMES.get(made_on, made_on)} database; this site "
            f"uses {ENGINE_NAMES[connection.vendor]} (move between them with dumpdata/loaddata)"
        )
    known = {f"{app}.{name}" for app, name in MigrationLoader(None).disk_migrations}
    unknown = sorted(set(manifest["migrations"]) - known)
    if unknown:
        raise BackupRefused(
            f"{path}: made by a newer version of the site (it has migration {unknown[0]})"
        )
    if made_on == "sqlite":
        _check_sqlite(path, database)
    return manifest, database


@dataclass(frozen=True)
class CheckedBackup:
    """A backup that passed every check a restore makes, ready to replace the database."""

    path: Path
    manifest: dict
    database: Path  # the database file unpacked (SQLite) or the dump (PostgreSQL)
    script: Path | None  # PostgreSQL: the dump as SQL, read by pg_restore already

    def restore(self) -> dict:
        """Replaces the whole database at once; returns the manifest. Raises BackupFailed
        (nothing changed: the restore is one transaction)."""
        if self.script is not None:
            _pg_replace(self.script)
        else:
            _sqlite_restore(self.database)
        page_cache.changed()  # the pages' cache did not see these writes
        return self.manifest


@contextlib.contextmanager
def checked(path: Path) -> Iterator[CheckedBackup]:
    """The backup `path` after every check a restore makes (a dump pg_restore cannot read
    included), before anything changes: ask the person restoring only then. Raises
    BackupRefused with one line."""
    with tempfile.TemporaryDirectory(prefix="dsc-restore-") as folder:
        work = Path(folder)
        manifest, database = check_backup(path, work)
        script = _pg_script(path, database, work) if manifest["engine"] == "postgresql" else None
        yield CheckedBackup(path, manifest, database, script)


def restore_backup(path: Path) -> dict:
    """Replaces the whole database with the backup `path` at once; returns its manifest.
    Raises BackupRefused (nothing changed) or BackupFailed (nothing changed: the restore is
    one transaction)."""
    with checked(path) as backup:
        return backup.restore()


def _unpack(path: Path, work: Path) -> tuple[dict, Path]:
    foreign = BackupRefused(f"{path}: not a backup of this site, or damaged")
    try:
        with tarfile.open(path, "r:gz") as archive:
            manifest = _read_manifest(archive)
            if manifest is None:
                raise foreign
            database = work / DATABASE_FILES[manifest["engine"]]
            digest = _extract(archive, manifest["database"]["name"], database)
    except FileNotFoundError:
        raise BackupRefused(f"{path}: no such file") from None
    except PermissionError:  # a copy made by root into the container, say (README)
        raise BackupRefused(
            f"{path}: cannot be read by this user (uid {os.getuid()}): give the file to the "
            "site's user first (chown 10001)"
        ) from None
    except (tarfile.TarError, EOFError, zlib.error, OSError, KeyError) as error:
        raise foreign from error
    if digest != manifest["database"]["sha256"]:
        raise BackupRefused(f"{path}: damaged (the database's checksum does not match)")
    return manifest, database


def _read_manifest(archive: tarfile.TarFile) -> dict | None:
    try:
        member = archive.getmember(MANIFEST)
    except KeyError:
        return None
    if not member.isfile() or member.size > CHUNK:
        return None
    try:
        manifest = json.loads(archive.extractfile(member).read())
    except (ValueError, UnicodeDecodeError):
        return None
    valid = (
        isinstance(manifest, dict)
        and manifest.get("format") == FORMAT
        and manifest.get("version") == VERSION
        and manifest.get("engine") in DATABASE_FILES
        and isinstance(manifest.get("migrations"), list)
        and isinstance(manifest.get("database"), dict)
        and manifest["database"].get("name") == DATABASE_FILES[manifest["engine"]]
        and isinstance(manifest["database"].get("sha256"), str)
    )
    return manifest if valid else None


def _extract(archive: tarfile.TarFile, name: str, target: Path) -> str:
    """Copies the member `name` to `target` (never to a path the archive chooses)."""
    member = archive.getmember(name)
    if not member.isfile():
        raise KeyError(name)
    if member.size > MAX_DATABASE_SIZE:
        raise BackupRefused(
            f"{archive.name}: its database is {member.size >> 20} MB, more than a backup of "
            f"this site holds ({MAX_DATABASE_SIZE >> 20} MB): refused before unpacking"
        )
    digest = hashlib.sha256()
    source = archive.extractfile(member)
    with target.open("wb") as out:
        while block := source.read(CHUNK):
            digest.update(block)
            out.write(block)
    return digest.hexdigest()


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while block := file.read(CHUNK):
            digest.update(block)
    return digest.hexdigest()


def _applied_migrations() -> list[str]:
    return sorted(
        f"{app}.{name}" for app, name in MigrationRecorder(connection).applied_migrations()
    )


# -- SQLite ------------------------------------------------------------------------------------


def _sqlite_copy(target: Path) -> None:
    """SQLite's online backup: a consistent copy while other processes keep writing. Never
    inside a transaction of our own: the copy would wait for it to end, for ever."""
    if connection.in_atomic_block:
        raise BackupFailed("a backup cannot be made inside a transaction")
    connection.ensure_connection()
    copy = sqlite3.connect(target)
    try:
        connection.connection.backup(copy)
    finally:
        copy.close()


def _check_sqlite(path: Path, database: Path) -> None:
    try:
        source = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
        try:
            (verdict,) = source.execute("PRAGMA integrity_check").fetchone()
            tables = source.execute(
                "SELECT count(*) FROM sqlite_master WHERE name = 'django_migrations'"
            ).fetchone()[0]
        finally:
            source.close()
    except sqlite3.DatabaseError:
        verdict, tables = "unreadable", 0
    if verdict != "ok" or not tables:
        raise BackupRefused(f"{path}: damaged (the SQLite database inside does not check out)")


def _sqlite_restore(database: Path) -> None:
    """SQLite's backup API in reverse: the live database becomes the copy in one step."""
    if connection.in_atomic_block:
        raise BackupFailed("a restore cannot run inside a transaction")
    source = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        connection.close()
        connection.ensure_connection()
        source.backup(connection.connection)
    finally:
        source.close()


# -- PostgreSQL --------------------------------------------------------------------------------


def _pg_environment() -> dict[str, str]:
    """libpq's variables for the site's database (the password never on a command line)."""
    db = connection.settings_dict
    values = {
        "PGDATABASE": db["NAME"],
        "PGHOST": db.get("HOST") or "",
        "PGPORT": str(db.get("PORT") or ""),
        "PGUSER": db.get("USER") or "",
        "PGPASSWORD": db.get("PASSWORD") or "",
        "PGSSLMODE": (db.get("OPTIONS") or {}).get("sslmode", ""),
        "PGOPTIONS": "-c client_min_messages=warning",
    }
    return {**os.environ, **{key: value for key, value in values.items() if value}}


def _run(command: list[str]) -> None:
    try:
        done = subprocess.run(command, env=_pg_environment(), capture_output=True, text=True)
    except FileNotFoundError:
        raise BackupFailed(f"{command[0]} is not installed (Debian: postgresql-client)") from None
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
        raise BackupFailed(f"{command[0]}: {lines[-1]}")


def _pg_dump(target: Path) -> None:
    _run(["pg_dump", "--format=custom", "--no-owner", "--no-privileges", f"--file={target}"])


def _pg_script(path: Path, dump: Path, work: Path) -> Path:
    """The dump as SQL: a dump pg_restore cannot read is refused before anything changes."""
    script = work / "restore.sql"
    try:
        _run(["pg_restore", "--no-owner", "--no-privileges", f"--file={script}", str(dump)])
    except BackupFailed as error:
        raise BackupRefused(f"{path}: damaged ({error})") from None
    return script


def _pg_replace(script: Path) -> None:
    """One transaction empties the schema and replays the dump's SQL."""
    connection.close()  # our own connection must hold no lock on the tables it drops
    _run(
        [
            "psql",
            "--no-psqlrc",
            "--quiet",
            "--set=ON_ERROR_STOP=1",
            "--single-transaction",
            "--command=DROP SCHEMA public CASCADE",
            "--command=CREATE SCHEMA public",
            f"--file={script}",
        ]
    )
