"""What the Docker image runs, run directly (no Docker engine here): the web process from the
Dockerfile's CMD with production settings and collected static files, and the worker role."""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


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
        stderr=subprocess.DEVNULL,
    )
    try:
        page = None
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/") as response:
                    page = response.read().decode()
                break
            except OSError:
                time.sleep(0.1)
        assert page is not None, "gunicorn did not answer"
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
        server.wait(timeout=10)


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
    time.sleep(1.5)
    worker.send_signal(signal.SIGTERM)
    output, _ = worker.communicate(timeout=10)
    assert worker.returncode == 0
    assert "worker stopped" in output
