"""The site's real processes for tests: gunicorn as the image starts it and the worker as
compose runs it, each on a fresh SQLite file with production settings. Tests wait for a line a
process prints, never for a fixed time."""

import json
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.shared_files import built_once, shared_folder

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
# An upper bound for a process to start, far above what it needs on a busy machine: the tests
# wait for a line the process prints, never for a fixed time.
STARTUP = 120


class Output:
    """A process's output, read line by line in the background until it ends."""

    def __init__(self, stream):
        self.lines = queue.Queue()
        self.seen: list[str] = []
        self.reader = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.reader.start()

    def _read(self, stream):
        with stream:
            for line in stream:
                self.lines.put(line)
        self.lines.put(None)

    def wait_for(self, text: str) -> None:
        """Until a line containing `text` arrives (fails if the process ends first, or after
        STARTUP seconds without it)."""
        while True:
            line = self.lines.get(timeout=STARTUP)
            assert line is not None, f"the process ended before printing {text!r}: {self.seen}"
            self.seen.append(line)
            if text in line:
                return

    def close(self) -> None:
        """After the process ended: the rest is read and the stream closed."""
        self.reader.join(timeout=STARTUP)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def production_env(tmp_path, tmp_path_factory):
    """Production settings on a migrated SQLite file of the test's own, with collected static
    files: `collectstatic` and `migrate` run as the image runs them, once per test run (the
    static files are shared, each test gets a copy of the migrated database)."""
    ours = ("DEBUG", "SECURE_SSL_REDIRECT", "STATICFILES_BACKEND", "DJANGO_SETTINGS_MODULE")
    env = {k: v for k, v in os.environ.items() if k not in ours}
    env.update(
        SECRET_KEY="image-test-secret-key-with-enough-characters-0123456789",
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="false",
        PATH=f"{BIN}{os.pathsep}{env['PATH']}",
    )

    def build(folder: Path):
        folder.mkdir()
        files = {
            "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
            "STATIC_ROOT": str(folder / "static"),
        }
        for step in (["collectstatic", "--noinput"], ["migrate", "--noinput"]):
            subprocess.run(
                [sys.executable, "manage.py", *step],
                cwd=ROOT,
                env={**env, **files},
                check=True,
                capture_output=True,
            )

    built = shared_folder(tmp_path_factory) / "production"
    built_once(built, build)
    shutil.copyfile(built / "db.sqlite3", tmp_path / "db.sqlite3")
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        STATIC_ROOT=str(built / "static"),
        # The file caches of the test's own: a fair-use count or an error report of an
        # earlier run (they live for minutes) never reaches this one.
        PAGE_CACHE_DIR=str(tmp_path / "pages"),
        LIMITS_CACHE_DIR=str(tmp_path / "limits"),
        REPORT_CACHE_DIR=str(tmp_path / "reports"),
    )
    return env


def dockerfile_cmd() -> list[str]:
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    line = next(text for text in lines if text.startswith("CMD "))
    return json.loads(line[4:])


@contextmanager
def web_process(env: dict, cwd: Path = ROOT, python: str = "") -> Iterator[int]:
    """gunicorn as the image's CMD starts it, on a free port; yields the port once it serves.
    From `cwd` (the checkout, or an image's tree), its gunicorn run by `python` when given."""
    port = free_port()
    command = dockerfile_cmd()
    if python:
        command = [part.replace("exec gunicorn", f"exec {python} -m gunicorn") for part in command]
    server = subprocess.Popen(
        command,
        cwd=cwd,
        env={**env, "PORT": str(port)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    output = Output(server.stderr)
    try:
        # gunicorn logs "Booting worker" once its socket listens and a worker takes requests.
        output.wait_for("Booting worker")
        yield port
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=STARTUP)
        output.close()


@contextmanager
def worker_process(env: dict, interval: float) -> Iterator[tuple[subprocess.Popen, Output]]:
    """The worker in its loop; yields it and its output once its signal handlers are in place.
    Killed afterwards if the test did not stop it."""
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "run_worker", "--loop", "--interval", str(interval)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    output = Output(worker.stdout)
    try:
        output.wait_for("worker ready")
        yield worker, output
    finally:
        if worker.poll() is None:
            worker.kill()
        worker.wait(timeout=STARTUP)
        output.close()


def manage(env: dict, *args: str) -> subprocess.CompletedProcess:
    """A management command in a process of its own."""
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
