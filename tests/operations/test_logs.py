"""Errors are seen (operations/logs.py, LOGGING and ADMINS in the settings): an unhandled error
shows the Dutch 500 page, mails the administrators and is logged on one line with the request's
path and user id; production settings log to stderr and read ADMINS from the environment."""

import logging
import re
from io import StringIO

import pytest
from django.core import mail
from django.core.exceptions import ImproperlyConfigured
from django.template.loader import render_to_string
from django.test import Client, override_settings

from operations.logs import OneLineFormatter, RepeatsCounted
from tests.dsc_site.test_settings import PRODUCTION, manage, settings_of
from tests.processes import ROOT

ADMINS = [("Beheer DSC", "beheer@example.org")]


@pytest.fixture
def log_lines():
    """What the site's log handler (stderr in production) writes, as lines."""
    (handler,) = (h for h in logging.getLogger().handlers if h.name == "stderr")
    written = StringIO()
    previous = handler.setStream(written)
    yield lambda: written.getvalue().splitlines()
    handler.setStream(previous)


@override_settings(ROOT_URLCONF="tests.operations.failing_urls", ADMINS=ADMINS)
def test_an_unhandled_error_shows_the_dutch_page_mails_the_admins_and_logs_one_line(
    arbiter, log_lines
):
    client = Client(raise_request_exception=False)
    client.force_login(arbiter)
    response = client.get("/kapot/")

    assert response.status_code == 500
    page = response.content.decode()
    assert "Er ging iets mis" in page and '<html lang="nl">' in page
    (sent,) = mail.outbox
    assert sent.to == ["beheer@example.org"]
    assert "/kapot/" in sent.subject
    (line,) = [line for line in log_lines() if "Internal Server Error" in line]
    assert f"ERROR django.request path=/kapot/ user={arbiter.pk} Internal Server Error" in line
    assert "RuntimeError: a bug\\nover two lines" in line  # the traceback on the same line


@override_settings(ROOT_URLCONF="tests.operations.failing_urls")
def test_what_the_sites_code_logs_during_a_request_names_its_path_and_user(arbiter, log_lines):
    client = Client()
    client.force_login(arbiter)
    assert client.get("/meldt/").status_code == 200
    assert log_lines()[-1].endswith(
        f"WARNING competition.services path=/meldt/ user={arbiter.pk} something worth knowing"
    )


def test_a_line_logged_outside_a_request_says_so(log_lines):
    logging.getLogger("django.request").warning("no request here")
    assert log_lines()[-1].endswith("WARNING django.request path=- user=- no request here")


def test_the_500_page_needs_neither_a_request_nor_the_database():
    page = render_to_string("500.html")  # no `db` fixture: a query would fail the test
    assert "Er ging iets mis" in page


def test_production_logs_one_line_per_event_to_stderr_and_mails_the_admins(tmp_path):
    """An error logged anywhere (here by the competition's code, not a request) is one line on
    stderr and a report to ADMINS: with no tables in this database, straight to the mail
    server (the console's, which prints it)."""
    show = (
        "import logging; from django.conf import settings; "
        "print(settings.ADMINS); "
        "print([type(h).__name__ for h in logging.getLogger('django.request').handlers]); "
        "logging.getLogger('competition').error('first\\nsecond')"
    )
    process = manage(
        "shell",
        "-v",
        "0",
        "-c",
        show,
        **PRODUCTION,
        ADMINS="Beheer DSC <beheer@dsc.example.org>, noodgeval@dsc.example.org",
        REPORT_CACHE_DIR=str(tmp_path / "reports"),  # no report of an earlier run counts
    )
    assert process.returncode == 0, process.stderr
    printed = process.stdout.splitlines()
    assert printed[:2] == [
        "[('Beheer DSC', 'beheer@dsc.example.org'), "
        "('noodgeval@dsc.example.org', 'noodgeval@dsc.example.org')]",
        "['StreamHandler', 'GroupedAdminEmailHandler']",
    ]
    reports = [line for line in printed if line.startswith("To: ")]
    assert reports == ["To: beheer@dsc.example.org", "To: noodgeval@dsc.example.org"]
    assert "ERROR competition path=- user=- first\\nsecond" in process.stderr.splitlines()[-1]


def test_a_malformed_admins_setting_is_refused():
    with pytest.raises(ImproperlyConfigured) as refused:
        settings_of(**PRODUCTION, ADMINS="Beheer DSC")
    assert "ADMINS must list addresses such as Naam <a@b.nl>, not 'Beheer DSC'" in str(
        refused.value
    )


def gunicorn_access_line(path: str, query: str = "") -> str:
    """The access-log line gunicorn writes with gunicorn.conf.py as shipped."""
    import datetime
    import runpy
    from types import SimpleNamespace

    from gunicorn.config import Config

    shipped = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    config = Config()
    config.set("access_log_format", shipped["access_log_format"])
    config.set("logger_class", shipped["logger_class"])
    logger = config.logger_class(config)
    uri = f"{path}?{query}" if query else path
    environ = {
        "REMOTE_ADDR": "192.0.2.7",
        "RAW_URI": uri,
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REQUEST_METHOD": "GET",
    }
    request = SimpleNamespace(headers=[], method="GET", path=path, query=query, uri=uri)
    response = SimpleNamespace(status="200 OK", response_length=10, headers=[], sent=10)
    atoms = logger.atoms(response, request, environ, datetime.timedelta(milliseconds=3))
    return shipped["access_log_format"] % atoms


@pytest.mark.parametrize(
    ("path", "query", "shown"),
    [
        ("/kalender/s3cr3t-token.ics", "", "/kalender/….ics"),
        ("/welkom/MQ/d1p-s3cr3t/", "", "/welkom/…/"),
        ("/accounts/reset/MQ/d1p-s3cr3t/", "", "/accounts/reset/…/"),
        ("/afmelden/link/", "code=s3cr3t", "/afmelden/link/"),
    ],
)
def test_no_secret_reaches_the_access_log(path, query, shown):
    """Issue 26: calendar tokens were written to gunicorn's access log."""
    line = gunicorn_access_line(path, query)
    assert f'"GET {shown} HTTP/1.1" 200' in line and "s3cr3t" not in line


@override_settings(ROOT_URLCONF="tests.operations.failing_urls")
def test_no_secret_reaches_the_sites_own_log_lines(log_lines, client):
    import logging

    from django.test import RequestFactory

    from operations.logs import _request

    token = _request.set(RequestFactory().get("/kalender/s3cr3t-token.ics"))
    try:
        logging.getLogger("clubweek").warning("feed asked")
    finally:
        _request.reset(token)
    (line,) = [line for line in log_lines() if "feed asked" in line]
    assert "path=/kalender/….ics" in line and "s3cr3t" not in line


def test_repeats_of_a_warning_or_error_are_counted_and_different_ones_written():
    """The log's `RepeatsCounted`: the same line again within ten minutes is counted, the next
    one written says how many; another message (another step of the worker failing with the
    same error) is its own line; below WARNING nothing is held back."""
    repeats = RepeatsCounted()

    def record(message, level=logging.ERROR, at=0.0, args=()):
        made = logging.LogRecord("clubweek.worker", level, __file__, 1, message, args, None)
        made.created = 1_800_000_000 + at
        return made

    step = "worker step %r failed"
    assert repeats.filter(record(step, args=("publication",)))
    assert not repeats.filter(record(step, at=20, args=("publication",)))
    assert not repeats.filter(record(step, at=40, args=("publication",)))
    assert repeats.filter(record(step, at=40, args=("delivery",)))  # another step
    assert repeats.filter(record("published: %s", logging.INFO, at=41, args=("Ronde 4",)))
    assert repeats.filter(record("published: %s", logging.INFO, at=42, args=("Ronde 4",)))
    later = record(step, at=600, args=("publication",))
    assert repeats.filter(later)
    assert later.getMessage() == "worker step 'publication' failed"  # as made: for the reports
    assert OneLineFormatter("%(message)s").format(later) == (
        "worker step 'publication' failed (and 2 more like it in the ten minutes before)"
    )


# --- One clock, and no line per health check (issue 38, finding 3) -----------------------------

MOMENT = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[+-]\d{4} "


@pytest.fixture
def gunicorn_logger(tmp_path):
    """gunicorn's logger as gunicorn.conf.py ships it, its access and error logs into files."""
    import runpy

    from gunicorn.config import Config

    shipped = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    config = Config()
    config.set("access_log_format", shipped["access_log_format"])
    config.set("logger_class", shipped["logger_class"])
    config.set("accesslog", str(tmp_path / "access.log"))
    config.set("errorlog", str(tmp_path / "error.log"))
    logger = config.logger_class(config)
    yield logger
    for handler in [*logger.error_log.handlers, *logger.access_log.handlers]:
        handler.close()


def access(logger, path: str, status: str) -> None:
    """A request to `path` answered with `status`, as gunicorn reports it to its logger."""
    import datetime
    from types import SimpleNamespace

    environ = {
        "REMOTE_ADDR": "192.0.2.7",
        "RAW_URI": path,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REQUEST_METHOD": "GET",
    }
    request = SimpleNamespace(headers=[], method="GET", path=path, query="", uri=path)
    response = SimpleNamespace(status=status, response_length=3, headers=[], sent=3)
    logger.access(response, request, environ, datetime.timedelta(milliseconds=2))


def written(logger, tmp_path, name: str) -> list[str]:
    for handler in [*logger.error_log.handlers, *logger.access_log.handlers]:
        handler.flush()
    return (tmp_path / name).read_text().splitlines()


def test_every_line_of_every_log_starts_with_the_time_and_its_zone(
    tmp_path, log_lines, gunicorn_logger
):
    """gunicorn wrote UTC, its access lines another zone, Django local time without one."""
    logging.getLogger("competition").warning("from the site")
    assert re.match(f"{MOMENT}WARNING competition ", log_lines()[-1])
    access(gunicorn_logger, "/", "200 OK")
    line = written(gunicorn_logger, tmp_path, "access.log")[-1]
    assert re.match(f'{MOMENT}INFO access 192.0.2.7 "GET / HTTP/1.1" 200 3 ', line)
    gunicorn_logger.info("Booting worker with pid: %s", 42)
    line = written(gunicorn_logger, tmp_path, "error.log")[-1]
    assert re.fullmatch(f"{MOMENT}INFO gunicorn \\[\\d+\\] Booting worker with pid: 42", line)


def test_a_passing_health_check_writes_no_access_line(tmp_path, gunicorn_logger):
    """122 of 139 lines of the web log were the container's checks; a failing one is kept."""
    for path, status in (
        ("/gezond/", "200 OK"),
        ("/gezond/", "503 Service Unavailable"),
        ("/", "200 OK"),
    ):
        access(gunicorn_logger, path, status)
    lines = written(gunicorn_logger, tmp_path, "access.log")
    assert [line.split('"')[1] + line.split('"')[2][:4] for line in lines] == [
        "GET /gezond/ HTTP/1.1 503",
        "GET / HTTP/1.1 200",
    ]
