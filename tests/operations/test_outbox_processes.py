"""The outbox with the real worker process and a real SMTP server (issue 25, point 1): a worker
killed with `kill -9` in the middle of sending loses nothing, and sends at most the one message
that was on the wire again; never more."""

import collections

from tests.processes import STARTUP, manage, production_env, worker_process
from tests.smtp import SMTPServer

__all__ = ["production_env"]

COUNT = 30
HOLD = 10  # the server keeps the tenth message waiting: the worker is in the middle of sending


def test_a_worker_killed_mid_batch_loses_nothing_and_duplicates_at_most_one_message(
    production_env,
):
    server = SMTPServer()
    server.mailbox.hold = HOLD
    server.start()
    env = {
        **production_env,
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(server.port),
    }
    try:
        written = manage(
            env,
            "shell",
            "-c",
            "from django.core.mail import send_mail\n"
            f"for i in range({COUNT}):\n"
            "    send_mail(f'Bericht {i}', 'tekst', None, [f'lid{i}@example.org'])\n",
        )
        assert written.returncode == 0, written.stderr
        with worker_process(env, interval=0.5) as (worker, _output):
            assert server.mailbox.held.wait(STARTUP), "the worker never reached the tenth message"
            worker.kill()  # SIGKILL: no clean-up of any kind
            worker.wait(timeout=STARTUP)
        server.mailbox.release.set()
        after = manage(env, "run_worker")  # the next worker's pass
        assert after.returncode == 0, after.stderr
    finally:
        server.stop()

    copies = collections.Counter(a.message["Message-ID"] for a in server.mailbox.arrived)
    subjects = {a.message["Subject"] for a in server.mailbox.arrived}
    assert subjects == {f"Bericht {i}" for i in range(COUNT)}  # nothing lost
    assert len(copies) == COUNT
    assert sum(count - 1 for count in copies.values()) <= 1  # at most one duplicate
    assert max(copies.values()) <= 2
