"""Settings come from the environment, with safe defaults and refusals."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "SECRET_KEY": "a-long-production-secret-key-with-enough-variety-1234567890-xyz",
    "ALLOWED_HOSTS": "dsc.example.org",
    "DATABASE_URL": "sqlite:///:memory:",
}


def manage(*args, **env):
    # The test process set test values in its own environment; production has none of them.
    ours = (
        "SECRET_KEY",
        "ALLOWED_HOSTS",
        "DEBUG",
        "DJANGO_SETTINGS_MODULE",
        "SECURE_SSL_REDIRECT",
        "STATICFILES_BACKEND",
    )
    clean = {k: v for k, v in os.environ.items() if k not in ours}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**clean, **env},
    )


@pytest.mark.parametrize("missing", ["SECRET_KEY", "ALLOWED_HOSTS"])
def test_production_refuses_to_start_without_secret_key_or_hosts(missing):
    env = {k: v for k, v in PRODUCTION.items() if k != missing}
    process = manage("check", **env)
    assert process.returncode != 0
    assert "Set SECRET_KEY and ALLOWED_HOSTS" in process.stderr


def test_check_deploy_is_clean_with_production_values():
    process = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert process.returncode == 0, process.stderr
    assert "no issues" in process.stdout


def test_debug_accepts_only_true_or_false():
    process = manage("check", DEBUG="maybe", **PRODUCTION)
    assert process.returncode != 0
    assert "DEBUG must be true or false, not 'maybe'" in process.stderr


def test_debug_is_off_unless_asked():
    show = (
        "from django.conf import settings; print(settings.DEBUG, settings.TIME_ZONE, "
        "settings.USE_TZ, settings.LANGUAGE_CODE)"
    )
    process = manage("shell", "-v", "0", "-c", show, **PRODUCTION)
    assert process.stdout.split() == ["False", "Europe/Amsterdam", "True", "nl"]
    asked = manage("shell", "-v", "0", "-c", show, **PRODUCTION, DEBUG="true")
    assert asked.stdout.split()[0] == "True"
