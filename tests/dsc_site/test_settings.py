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
        "SITE_URL",
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


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("CLUB_DEADLINE_TIME", "6pm", "CLUB_DEADLINE_TIME must be a time such as 18:00, not '6pm'"),
        ("CLUB_PUBLICATION_TIME", "25:00", "CLUB_PUBLICATION_TIME must be a time such as 18:00"),
        ("CLUB_DEADLINE_WEEKDAY", "friday", "CLUB_DEADLINE_WEEKDAY must be a weekday 0 (Monday)"),
        ("CLUB_DEADLINE_WEEKDAY", "7", "CLUB_DEADLINE_WEEKDAY must be a weekday 0 (Monday)"),
    ],
)
def test_the_club_week_refuses_a_malformed_setting(variable, value, message):
    process = manage("check", **PRODUCTION, **{variable: value})
    assert process.returncode != 0
    assert message in process.stderr


def test_the_club_week_comes_from_the_environment():
    show = (
        "from competition.schedule import club_week; w = club_week(); "
        "print(w.deadline_weekday, w.deadline_time, w.publication_time, w.results_final_time)"
    )
    process = manage(
        "shell",
        "-v",
        "0",
        "-c",
        show,
        **PRODUCTION,
        CLUB_DEADLINE_WEEKDAY="2",
        CLUB_DEADLINE_TIME="17:30",
        CLUB_PUBLICATION_TIME="19:00",
        CLUB_RESULTS_FINAL_TIME="23:00",
    )
    assert process.stdout.split() == ["2", "17:30:00", "19:00:00", "23:00:00"], process.stderr


def site_url_of(**env) -> str:
    process = manage(
        "shell", "-c", "from django.conf import settings; print(settings.SITE_URL)", **env
    )
    assert process.returncode == 0, process.stderr
    return process.stdout.strip().splitlines()[-1]


def test_links_in_e_mails_use_the_sites_own_address():
    assert site_url_of(**PRODUCTION) == "https://dsc.example.org"
    assert site_url_of(**PRODUCTION, SITE_URL="https://schaken.dsc.nl/") == "https://schaken.dsc.nl"
    assert site_url_of(DEBUG="true") == "http://127.0.0.1:8000"


def test_a_site_address_without_a_scheme_is_refused():
    process = manage("check", SITE_URL="dsc.example.org", **PRODUCTION)
    assert process.returncode != 0
    assert "SITE_URL must start with https:// or http://" in process.stderr
