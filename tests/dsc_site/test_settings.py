"""Settings come from the environment, with safe defaults and refusals. A real process where
starting is the point (a refusal stops the start, `check --deploy`); the settings module read
with a given environment everywhere else."""

import json
import os
import runpy
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings

from club.models import initial_values

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "SECRET_KEY": "a-long-production-secret-key-with-enough-variety-1234567890-xyz",
    "ALLOWED_HOSTS": "dsc.example.org",
    "DATABASE_URL": "sqlite:///:memory:",
}


# The test process set test values in its own environment; production has none of them.
OURS = (
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "DEBUG",
    "DJANGO_SETTINGS_MODULE",
    "SECURE_SSL_REDIRECT",
    "STATICFILES_BACKEND",
    "SITE_URL",
)


def manage(*args, **env):
    clean = {k: v for k, v in os.environ.items() if k not in OURS}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**clean, **env},
    )


def settings_of(**env) -> dict:
    """dsc_site/settings.py as a process started with `env` reads it (the same environment as
    `manage` gives, in this process): its settings, or the error that stops the start."""
    clean = {k: v for k, v in os.environ.items() if k not in OURS}
    with mock.patch.dict(os.environ, {**clean, **env}, clear=True):
        return runpy.run_path(str(ROOT / "dsc_site" / "settings.py"))


@pytest.mark.parametrize("missing", ["SECRET_KEY", "ALLOWED_HOSTS"])
def test_production_refuses_to_start_without_secret_key_or_hosts(missing):
    env = {k: v for k, v in PRODUCTION.items() if k != missing}
    process = manage("check", **env)
    assert process.returncode != 0
    assert "Set SECRET_KEY and ALLOWED_HOSTS" in process.stderr


@pytest.mark.parametrize("key", ["abcde", "x" * 60, "short-but-not-fifty-characters-long-0123"])
def test_production_refuses_to_start_with_a_short_or_plain_secret_key(key):
    """Issue 26: a 5-character SECRET_KEY started the site (its links could be forged)."""
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is too short or too plain"):
        settings_of(**{**PRODUCTION, "SECRET_KEY": key})


def test_database_connections_are_checked_before_they_are_used_again():
    """A database restart costs a new connection, not a visitor's 500 (issue 26)."""
    database = settings_of(**PRODUCTION)["DATABASES"]["default"]
    assert database["CONN_MAX_AGE"] > 0 and database["CONN_HEALTH_CHECKS"] is True


def test_check_deploy_is_clean_with_production_values():
    process = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert process.returncode == 0, process.stderr
    assert "no issues" in process.stdout


def test_debug_accepts_only_true_or_false():
    with pytest.raises(ImproperlyConfigured, match=r"^DEBUG must be true or false, not 'maybe'$"):
        settings_of(DEBUG="maybe", **PRODUCTION)


def test_debug_is_off_unless_asked():
    production = settings_of(**PRODUCTION)
    shown = [production[name] for name in ("DEBUG", "TIME_ZONE", "USE_TZ", "LANGUAGE_CODE")]
    assert shown == [False, "Europe/Amsterdam", True, "nl"]
    assert settings_of(**PRODUCTION, DEBUG="true")["DEBUG"] is True


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
    with pytest.raises(ImproperlyConfigured) as refused:
        settings_of(**PRODUCTION, **{variable: value})
    assert message in str(refused.value)


def test_the_environment_seeds_the_club_week():
    """The club's week is data (issue 40); a deployment's environment gives the values its
    row starts with (the data migration stores `initial_values`)."""
    read = settings_of(
        **PRODUCTION,
        CLUB_DEADLINE_WEEKDAY="2",
        CLUB_DEADLINE_TIME="17:30",
        CLUB_PUBLICATION_TIME="19:00",
        CLUB_RESULTS_FINAL_TIME="23:00",
    )
    with override_settings(**{name: read[name] for name in read if name.startswith("CLUB_")}):
        seeded = initial_values()
    shown = [
        seeded["deadline_weekday"],
        seeded["deadline_time"],
        seeded["publication_time"],
        seeded["results_final_time"],
    ]
    assert [str(value) for value in shown] == ["2", "17:30:00", "19:00:00", "23:00:00"]


def site_url_of(**env) -> str:
    return settings_of(**env)["SITE_URL"]


def test_links_in_e_mails_use_the_sites_own_address():
    assert site_url_of(**PRODUCTION) == "https://dsc.example.org"
    other = {**PRODUCTION, "ALLOWED_HOSTS": "schaken.dsc.nl"}
    assert site_url_of(**other, SITE_URL="https://schaken.dsc.nl/") == "https://schaken.dsc.nl"
    assert site_url_of(DEBUG="true") == "http://127.0.0.1:8000"


def test_a_site_address_without_a_scheme_is_refused():
    with pytest.raises(ImproperlyConfigured, match="SITE_URL must start with https:// or http://"):
        settings_of(SITE_URL="dsc.example.org", **PRODUCTION)


def test_djangos_smtp_backend_in_the_environment_delivers_through_the_sites_own():
    """The SMTP backend .env.example names is the site's subclass (operations/smtp.py), which
    gives the reply to a whole message the ten minutes of RFC 5321, 4.5.3.2.6; any other
    backend is taken as named."""
    smtp = settings_of(**PRODUCTION, EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend")
    assert smtp["EMAIL_DELIVERY_BACKEND"] == "operations.smtp.EmailBackend"
    assert smtp["EMAIL_DATA_REPLY_TIMEOUT"] == 10 * 60
    console = "django.core.mail.backends.console.EmailBackend"
    assert settings_of(**PRODUCTION)["EMAIL_DELIVERY_BACKEND"] == console


def test_the_suite_runs_with_its_own_values_whatever_the_shell_exported():
    """tests/settings.py drops every variable the site reads before setting its own: a shell
    with ALLOWED_HOSTS=* once made the page cache's test of a foreign host get a page."""
    shell = {
        "ALLOWED_HOSTS": "*",
        "SECURE_SSL_REDIRECT": "true",
        "SITE_URL": "https://elders.example.org",
        "CLUB_DEADLINE_TIME": "17:00",
        "TRUSTED_PROXIES": "3",
    }
    show = (
        "import json, tests.settings as s; print(json.dumps([s.ALLOWED_HOSTS, "
        "s.SECURE_SSL_REDIRECT, s.SITE_URL, str(s.CLUB_DEADLINE_TIME), s.TRUSTED_PROXIES]))"
    )
    process = subprocess.run(
        [sys.executable, "-c", show],
        cwd=ROOT,
        env={**os.environ, **shell},
        capture_output=True,
        text=True,
    )
    assert process.returncode == 0, process.stderr
    assert json.loads(process.stdout) == [
        ["testserver", "localhost", "127.0.0.1"],
        False,
        "http://127.0.0.1:8000",
        "18:00:00",
        0,
    ]
