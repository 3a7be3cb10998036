"""What the Docker image runs, run directly (no Docker engine here): the web process from the
Dockerfile's CMD with production settings and collected static files, and the worker role."""

import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
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
def production_env(tmp_path):
    ours = ("DEBUG", "SECURE_SSL_REDIRECT", "STATICFILES_BACKEND", "DJANGO_SETTINGS_MODULE")
    env = {k: v for k, v in os.environ.items() if k not in ours}
    env.update(
        SECRET_KEY="image-test-secret-key-with-enough-characters-0123456789",
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="false",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        STATIC_ROOT=str(tmp_path / "static"),
        PATH=f"{BIN}{os.pathsep}{env['PATH']}",
    )
    for step in (["collectstatic", "--noinput"], ["migrate", "--noinput"]):
        subprocess.run(
            [sys.executable, "manage.py", *step], cwd=ROOT, env=env, check=True, capture_output=True
        )
    return env


def dockerfile_cmd() -> list[str]:
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    line = next(text for text in lines if text.startswith("CMD "))
    return json.loads(line[4:])


def test_the_web_process_serves_pages_and_static_files(production_env):
    port = free_port()
    server = subprocess.Popen(
        dockerfile_cmd(),
        cwd=ROOT,
        env={**production_env, "PORT": str(port)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    output = Output(server.stderr)
    try:
        # gunicorn logs "Booting worker" once its socket listens and a worker takes requests.
        output.wait_for("Booting worker")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=STARTUP) as response:
            page = response.read().decode()
        assert "Er is nog geen competitie." in page
        stylesheet = re.search(
            r'href="(/static/vendor/bootstrap/bootstrap\.min\.[0-9a-f]+\.css)"', page
        )
        assert stylesheet, "the page links the hashed, collected stylesheet"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{stylesheet.group(1)}") as response:
            assert response.status == 200
            assert "max-age" in response.headers["Cache-Control"]
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=STARTUP)
        output.close()


def test_the_worker_runs_a_pass_and_stops_cleanly_on_sigterm(production_env):
    once = subprocess.run(
        [sys.executable, "manage.py", "publish_due_rounds"],
        cwd=ROOT,
        env=production_env,
        capture_output=True,
        text=True,
    )
    assert once.returncode == 0, once.stderr
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "publish_due_rounds", "--loop", "--interval", "0.5"],
        cwd=ROOT,
        env=production_env,
        stdout=subprocess.PIPE,
        text=True,
    )
    output = Output(worker.stdout)
    output.wait_for("worker ready")  # its signal handlers are in place
    worker.send_signal(signal.SIGTERM)
    output.wait_for("worker stopped")
    assert worker.wait(timeout=STARTUP) == 0
    output.close()
