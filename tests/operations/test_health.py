"""`/gezond/` and `worker_health` (operations/health.py): healthy only while the database
answers and the worker was seen within five minutes; plain, uncached, for any host, without
login or session; and the real web process and worker, as compose.yaml checks them."""

import json
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from datetime import timedelta
from io import StringIO

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import OperationalError
from django.test import override_settings

from operations import outbox
from operations.models import HeartbeatQuerySet, OutgoingMail, WorkerHeartbeat
from tests.moments import at
from tests.processes import ROOT, STARTUP, manage, production_env, web_process, worker_process
from tests.smtp import HANG_UP, smtp_server

# The fixtures: a migrated SQLite file with production settings; a real SMTP server.
__all__ = ["production_env", "smtp_server"]

NOW = at(12)


def health(client, **headers):
    with time_machine.travel(NOW, tick=False):
        return client.get("/gezond/", **headers)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("seen", "status", "text"),
    [
        (timedelta(seconds=20), 200, "ok\n"),
        (timedelta(minutes=5), 200, "ok\n"),
        (timedelta(minutes=5, seconds=1), 503, "worker not seen since 2026-09-18 11:54\n"),
        (None, 503, "worker never seen\n"),
    ],
)
def test_the_site_is_healthy_only_while_the_worker_was_seen_within_five_minutes(
    client, seen, status, text
):
    if seen is not None:
        WorkerHeartbeat.objects.record(NOW - seen)
    response = health(client)
    assert response.status_code == status
    assert response.content.decode() == text
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Cache-Control"] == "no-store"
    assert not response.cookies  # no session, no CSRF cookie


@pytest.mark.django_db
def test_the_site_is_unhealthy_when_the_database_does_not_answer(client, monkeypatch):
    def unreachable(self, now):
        raise OperationalError("connection refused")

    monkeypatch.setattr(HeartbeatQuerySet, "status", unreachable)
    response = health(client)
    assert response.status_code == 503
    assert response.content == b"database unavailable\n"


@pytest.mark.django_db
@override_settings(ALLOWED_HOSTS=["dsc.example.org"], SECURE_SSL_REDIRECT=True)
@override_settings(
    ALLOWED_HOSTS=["dsc.example.org"],
    SECURE_SSL_REDIRECT=True,
    SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"),
)
def test_health_is_what_a_visitors_request_like_it_gets(client):
    """Issue 38, finding 2: with ALLOWED_HOSTS left at the example's host and the site reached
    as localhost, every page answered 400 while /gezond/ said "ok". It now answers as a page
    would: healthy only for a host the site serves, marked https by the proxy."""
    WorkerHeartbeat.objects.record(NOW)
    as_caddy = {"HTTP_HOST": "dsc.example.org", "HTTP_X_FORWARDED_PROTO": "https"}
    assert health(client, **as_caddy).content.decode() == "ok\n"
    foreign = health(client, **{**as_caddy, "HTTP_HOST": "localhost"})
    assert (foreign.status_code, foreign.content.decode()) == (
        503,
        "host localhost is not in ALLOWED_HOSTS (dsc.example.org): every page answers 400\n",
    )
    assert client.get("/", **{**as_caddy, "HTTP_HOST": "localhost"}).status_code == 400
    plain = health(client, HTTP_HOST="dsc.example.org")
    assert plain.status_code == 503
    assert plain.content.decode().startswith("not marked https by the proxy (X-Forwarded-Proto)")
    assert client.get("/", HTTP_HOST="dsc.example.org").status_code == 301


@pytest.mark.django_db
def test_the_worker_health_command_says_ok_or_why_not():
    WorkerHeartbeat.objects.record(NOW - timedelta(minutes=1))
    out = StringIO()
    with time_machine.travel(NOW, tick=False):
        call_command("worker_health", stdout=out)
    assert out.getvalue() == "ok\n"
    later = time_machine.travel(NOW + timedelta(minutes=10), tick=False)
    with later, pytest.raises(CommandError, match=r"^worker not seen since 2026-09-18 11:59$"):
        call_command("worker_health")


AS_CADDY = {"Host": "dsc.example.org", "X-Forwarded-Proto": "https"}


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    try:
        request = urllib.request.Request(url, headers=headers or {})
        with urllib.request.urlopen(request, timeout=STARTUP) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def compose_web_check(env: dict[str, str], port: int) -> subprocess.CompletedProcess:
    """compose.yaml's health check of the web service, run here against `port`."""
    line = next(
        text
        for text in (ROOT / "compose.yaml").read_text().splitlines()
        if "test:" in text and "operations.healthcheck" in text
    )
    command = json.loads(line.split("test:", 1)[1])
    assert command == ["CMD", "python", "-m", "operations.healthcheck"]
    return subprocess.run(
        [sys.executable, "-m", "operations.healthcheck", "--port", str(port)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=STARTUP,
    )


def test_the_web_process_reports_the_real_worker_alive(production_env):
    """gunicorn as the image runs it, with production's https redirect and host; the worker
    as compose runs it; the checks as compose.yaml makes them."""
    env = {
        **production_env,
        "SECURE_SSL_REDIRECT": "true",
        "ALLOWED_HOSTS": "dsc.example.org",
        "SITE_URL": "https://dsc.example.org",
    }
    with web_process(env) as port:
        url = f"http://127.0.0.1:{port}/gezond/"
        assert get(url, AS_CADDY) == (503, "worker never seen\n")
        checked = compose_web_check(env, port)
        assert (checked.returncode, checked.stdout) == (1, "503: worker never seen\n")
        assert get(f"http://127.0.0.1:{port}/")[0] == 400  # any page: not this host
        assert get(url)[0] == 503  # nor this one

        with worker_process(env, interval=0.2) as (worker, output):
            output.wait_for("worker seen")  # its first pass wrote the heartbeat
            assert get(url, AS_CADDY) == (200, "ok\n")
            checked = compose_web_check(env, port)
            assert (checked.returncode, checked.stdout) == (0, "ok\n")
            worker.send_signal(signal.SIGTERM)
            output.wait_for("worker stopped")
            assert worker.wait(timeout=STARTUP) == 0

        checked = manage(env, "worker_health")
        assert (checked.returncode, checked.stdout) == (0, "ok\n")


@pytest.mark.django_db
def test_mail_the_server_has_not_taken_for_ten_minutes_is_reported_as_mail_trouble(
    client, settings
):
    """The worker keeps passing while the mail server is away: /gezond/ names the mail."""
    settings.EMAIL_BACKEND = "operations.outbox.OutboxBackend"
    settings.EMAIL_DELIVERY_BACKEND = "tests.operations.test_outbox.ServerAway"
    WorkerHeartbeat.objects.record(NOW)
    with time_machine.travel(NOW - timedelta(minutes=11), tick=False):
        mail.send_mail("Indeling", "Bord 1", None, ["lid@example.org"])
        outbox.deliver(NOW - timedelta(minutes=11))
    response = health(client)
    assert response.status_code == 503
    assert response.content.decode() == (
        "mail not delivered since 2026-09-18 11:49: 1 waiting "
        "(ConnectionRefusedError: [Errno 111] Connection refused)\n"
    )
    settings.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    outbox.deliver(NOW)
    assert health(client).content == b"ok\n"


def test_the_mail_alarm_ends_in_the_first_pass_after_the_server_is_back(client, smtp_server, db):
    """Issue 38, finding 4: /gezond/ stayed 503 for 236 s after the mail server came back, and
    the mail waited as long, until its back-off. Each pass now looks whether the server is back
    (no message sent, no try counted while it is away); the first pass that finds it delivers."""
    smtp_server.stop()
    WorkerHeartbeat.objects.record(NOW)
    with time_machine.travel(NOW - timedelta(minutes=40), tick=False):
        mail.send_mail("Indeling", "Bord 1", None, ["lid@example.org"])
    for minutes in (40, 39, 37, 33, 25, 9):  # each try when its back-off has passed
        outbox.deliver(NOW - timedelta(minutes=minutes))
    waiting = OutgoingMail.objects.get(recipient="lid@example.org")
    assert (waiting.tries, waiting.next_try_at) == (6, NOW + timedelta(minutes=23))
    greylisted = OutgoingMail.objects.create(  # refused for now by the server: its own back-off
        created_at=NOW - timedelta(minutes=1),
        next_try_at=NOW + timedelta(minutes=1),
        kind="pairing",
        recipient="grijs@example.org",
        subject="Indeling",
        message={},
        tries=1,
        last_error="SMTPRecipientsRefused: {'grijs@example.org': (450, b'Greylisted')}",
    )
    outbox.deliver(NOW)  # still away: looked, and nothing counted
    waiting.refresh_from_db()
    assert waiting.tries == 6 and health(client).content.decode().startswith(
        "mail not delivered since 2026-09-18 11:20: 2 waiting"
    )

    smtp_server.start()
    assert outbox.deliver(NOW + timedelta(seconds=20)) == 1  # the next pass
    waiting.refresh_from_db()
    assert waiting.state == "sent" and len(smtp_server.mailbox.arrived) == 1
    assert health(client).content == b"ok\n"
    greylisted.refresh_from_db()
    assert (greylisted.state, greylisted.next_try_at) == ("waiting", NOW + timedelta(minutes=1))


def test_mail_that_may_have_arrived_is_the_arbiters_to_decide_not_mail_trouble(
    client, smtp_server, db
):
    """The server kept a message and hung up without a reply: the start page lists it for the
    arbiter; the monitors are not told (there is nothing for an administrator to mend), and
    the next message goes out."""
    smtp_server.mailbox.after_data["stil@example.org"] = HANG_UP
    WorkerHeartbeat.objects.record(NOW)
    with time_machine.travel(NOW - timedelta(minutes=11), tick=False):
        mail.send_mail("Indeling", "Bord 1", None, ["stil@example.org"])
        mail.send_mail("Ranglijst", "Ronde 1", None, ["lid@example.org"])
    for minutes in (11, 10, 5, 0):
        outbox.deliver(NOW - timedelta(minutes=minutes))
    assert OutgoingMail.objects.get(recipient="stil@example.org").state == "maybe"
    assert health(client).content == b"ok\n"


@pytest.mark.django_db
def test_the_worker_keeps_its_heartbeat_while_the_mail_server_is_away(settings):
    settings.EMAIL_BACKEND = "operations.outbox.OutboxBackend"
    settings.EMAIL_DELIVERY_BACKEND = "tests.operations.test_outbox.ServerAway"
    with time_machine.travel(NOW, tick=False):
        mail.send_mail("Indeling", "Bord 1", None, ["lid@example.org"])
        call_command("run_worker", stdout=StringIO())
    assert WorkerHeartbeat.objects.status(NOW).seen_at == NOW
    assert "Connection refused" in OutgoingMail.objects.get().last_error
