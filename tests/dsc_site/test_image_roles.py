"""What the Docker image runs, run directly (no Docker engine here): the web process from the
Dockerfile's CMD with production settings and collected static files, and the worker role."""

import re
import signal
import urllib.request

from tests.processes import STARTUP, manage, production_env, web_process, worker_process

__all__ = ["production_env"]  # the fixture: a migrated SQLite file, production settings


def test_the_web_process_serves_pages_and_static_files(production_env):
    with web_process(production_env) as port:
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


def test_the_worker_runs_a_pass_and_stops_cleanly_on_sigterm(production_env):
    # One pass under the worker's old name, as cron lines and older deployments call it;
    # the loop as compose runs it (`run_worker --loop`).
    once = manage(production_env, "publish_due_rounds")
    assert once.returncode == 0, once.stderr
    with worker_process(production_env, interval=0.5) as (worker, output):
        worker.send_signal(signal.SIGTERM)
        output.wait_for("worker stopped")
        assert worker.wait(timeout=STARTUP) == 0
