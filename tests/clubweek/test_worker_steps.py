"""The worker's pass is a declared list of steps, each on its own (issue 35, finding 2): one
failing step never stops the week. Each step is made to raise in turn, on a Friday 20:00 with
work for the steps people wait for most: round 4 to publish, its pairing to e-mail, a
password-reset request to answer and the outbox to deliver. Every other step still runs and
does its work in the same pass, the failure is logged with its traceback, recorded for the
start page and /gezond/, and its error report is delivered in that very pass."""

import pytest
import time_machine
from django.core import mail
from django.test import Client

from clubweek import worker
from members.models import PasswordResetRequest
from operations.models import OutgoingMail, WorkerHeartbeat
from tests.moments import at

FRIDAY_20 = at(20)
STEP_NAMES = [step.name for step in worker.STEPS]


@pytest.fixture
def a_friday_with_work(round_4, jansen, settings):
    """Round 4 due at 20:00 (the worker pairs and publishes it), and Jansen asked for a new
    password; every e-mail goes through the outbox to a mail server (locmem) and reports of
    errors to the administrator."""
    settings.EMAIL_BACKEND = "operations.outbox.OutboxBackend"
    settings.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.ADMINS = [("Beheer", "beheer@example.org")]
    settings.DEBUG = False
    PasswordResetRequest.objects.create(address=jansen.email, asked_at=at(19, 55))
    return round_4


def with_spies(broken: str, calls: list[str]):
    """The steps with `broken` raising and every other one recording that it ran (with the
    pass's `now`) before doing its real work."""

    def spy(step):
        def run(now):
            assert now == FRIDAY_20
            calls.append(step.name)
            return step.run(now)

        return step._replace(run=run)

    def breaks(now):
        raise RuntimeError(f"{broken} broke")

    return tuple(
        step._replace(run=breaks) if step.name == broken else spy(step) for step in worker.STEPS
    )


def test_the_declared_steps_put_the_no_show_rule_before_publication():
    """The one ordering rule: a member the no-show rule cancels is not paired that pass."""
    assert STEP_NAMES.index("no-show rule") < STEP_NAMES.index(worker.PUBLICATION)
    assert STEP_NAMES[-1] == "delivery"  # the e-mails this pass wrote go out in it


@pytest.mark.parametrize("broken", STEP_NAMES)
def test_each_step_that_fails_leaves_every_other_step_to_do_its_work(
    a_friday_with_work, broken, monkeypatch, caplog
):
    round_4 = a_friday_with_work
    calls = []
    monkeypatch.setattr(worker, "STEPS", with_spies(broken, calls))
    with time_machine.travel(FRIDAY_20, tick=False):
        done = worker.run_pass(FRIDAY_20)

    assert calls == [name for name in STEP_NAMES if name != broken]
    assert done.failed == {broken: f"RuntimeError: {broken} broke"}
    [logged] = [record for record in caplog.records if record.levelname == "ERROR"]
    assert logged.getMessage() == f"worker step {broken!r} failed"
    assert logged.exc_info is not None  # the traceback, for the log and the error report

    round_4.refresh_from_db()
    assert round_4.is_published == (broken != worker.PUBLICATION)
    pairing_mails = OutgoingMail.objects.filter(kind="pairing")
    assert pairing_mails.count() == (0 if broken in (worker.PUBLICATION, "pairing e-mail") else 10)
    answered = PasswordResetRequest.objects.filter(answered_at__isnull=False).exists()
    assert answered == (broken != "password resets")
    report = OutgoingMail.objects.filter(kind="error", recipient="beheer@example.org")
    assert report.count() == 1
    if broken == "delivery":
        assert mail.outbox == []
        assert not OutgoingMail.objects.exclude(state=OutgoingMail.State.WAITING).exists()
    else:  # everything written in this pass went out in it, the error report included
        assert not OutgoingMail.objects.exclude(state=OutgoingMail.State.SENT).exists()
        assert "beheer@example.org" in {message.to[0] for message in mail.outbox}


def test_a_failing_step_is_named_on_the_start_page_and_in_the_health_check(
    a_friday_with_work, arbiter, monkeypatch
):
    def broken(now):
        raise RuntimeError("database says no")

    steps = [s._replace(run=broken) if s.name == "no-show rule" else s for s in worker.STEPS]
    monkeypatch.setattr(worker, "STEPS", tuple(steps))
    with time_machine.travel(FRIDAY_20, tick=False):
        WorkerHeartbeat.objects.record(FRIDAY_20, worker.run_pass(FRIDAY_20).failed)
    with time_machine.travel(at(20, 1), tick=False):
        WorkerHeartbeat.objects.record(at(20, 1), worker.run_pass(at(20, 1)).failed)
        health = Client().get("/gezond/")
        client = Client()
        client.force_login(arbiter)
        start_page = client.get("/beheer/").content.decode()

    assert health.status_code == 503
    assert health.content.decode() == (
        "worker step no-show rule failing since 2026-09-18 20:00: RuntimeError: database says no\n"
    )
    assert (
        "Sinds vrijdag 18 september 20:00 mislukt de verwerker bij de afmelding na twee keer "
        "niet komen (regel k) (RuntimeError: database says no)"
    ) in start_page


def test_a_step_that_works_again_is_forgotten(a_friday_with_work):
    WorkerHeartbeat.objects.record(FRIDAY_20, {"no-show rule": "RuntimeError: once"})
    WorkerHeartbeat.objects.record(at(20, 1), {})
    assert WorkerHeartbeat.objects.status(at(20, 1)).failing == []
    health = Client().get("/gezond/")
    assert health.content.decode() != "" and "failing" not in health.content.decode()
