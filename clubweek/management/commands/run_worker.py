"""`python manage.py run_worker [--loop]`: the background worker (also `publish_due_rounds`,
its old name, which deployments and cron lines still call).

Each turn:

1. The club week's pass (`clubweek.worker.run_pass`): its declared steps, each on its own (the
   no-show rule, publishing the pairings whose time has come, the waiting notice, the pairing,
   ranking, correction and reminder e-mails, the rankings brought up to date, the password-reset
   answers, the outbox's delivery). A failing step is logged with its traceback and the others
   go on.
2. The heartbeat, with the steps that failed (`/gezond/`, the arbiter's start page).
3. The daily backup (`operations.backups.make_daily_backup`, when BACKUP_DIR is set), whatever
   became of the pass.

Runs one turn and exits (for cron and tests; exit status 1 when a step failed, after the whole
turn), or with --loop keeps taking turns every --interval seconds until SIGTERM/SIGINT; it
prints "worker ready" once its signal handlers are in place and "worker seen" after the first
heartbeat.

Its log tells the story of an incident (issue 38, finding 3: 79 mails delivered, then the mail
server down for 12 minutes, and not a line): every line with the time and its zone; one line
for a pass that did something (what it published, how many e-mails it sent, the backup it
made); one line when a trouble starts (a step failing, the mail server not taking mail, the
backup failing) and one when it ends. A pass that did nothing new writes nothing.
"""

from __future__ import annotations

import logging
import signal
import time
from datetime import datetime

from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections
from django.utils import timezone

from clubweek import worker
from operations import backups
from operations.logs import moment
from operations.models import OutgoingMail, WorkerHeartbeat

logger = logging.getLogger("clubweek.worker")


class Command(BaseCommand):
    help = "Publish the pairings that are due (one pass, or --loop)."

    def add_arguments(self, parser):
        parser.add_argument("--loop", action="store_true", help="Keep running until stopped.")
        parser.add_argument("--interval", type=float, default=20.0, help="Seconds between passes.")

    def handle(self, *args, loop=False, interval=20.0, **options):
        stopping = []
        self.seen = False
        self.troubles: dict[str, str] = {}  # what is wrong now: trouble -> how it was said

        def stop(signum, frame):
            stopping.append(signum)

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        if loop:
            self.say("worker ready")  # a supervisor or a test may signal from now on
        while True:
            now = timezone.now()
            failed = self.club_week(now, loop)
            try:
                self.daily_backup(now)
            except Exception as error:
                # Claimed for today: tried again when the claim expires, not every pass. A
                # warning, not an error report: the backup tells the administrators itself, once.
                logger.warning("the daily backup failed", exc_info=True)
                failed.append("daily backup")
                self.trouble("backup", f"the daily backup failed: {first_line(error)}")
            else:
                self.trouble("backup", "", "the daily backup works again")
            if not loop:
                if failed:
                    raise CommandError(f"failed: {', '.join(failed)}")
                return
            next_pass = time.monotonic() + interval
            while not stopping and time.monotonic() < next_pass:
                time.sleep(min(0.2, interval))
            if stopping:
                self.say("worker stopped")
                return
            close_old_connections()  # a long-running loop must not keep a broken connection

    def club_week(self, now: datetime, loop: bool) -> list[str]:
        """The club week's pass, then the heartbeat with the steps that failed in it; the
        names of what failed."""
        done = worker.run_pass(now)
        for round_ in done.published:
            self.say(f"published: {round_}")
        if done.sent:
            self.say(f"e-mails sent: {done.sent}")
        for step in worker.STEPS:
            error = done.failed.get(step.name, "")
            self.trouble(f"step {step.name}", error and f"step {step.name} failing: {error}")
        try:
            mail = OutgoingMail.objects.status(now)
            WorkerHeartbeat.objects.record(now, done.failed)
        except Exception:  # the database is away: every step said so already
            logger.exception("recording the heartbeat failed")
            return [*done.failed, "heartbeat"]
        self.trouble(
            "mail",
            mail.held_up
            and f"the mail server does not take mail: {mail.held_up} waiting "
            f"({first_line(mail.last_error) or 'no reason given'})",
            "the mail server takes mail again",
        )
        if loop and not self.seen:  # once, for whoever watches the start (a test, a person)
            self.say("worker seen")
            self.seen = True
        return list(done.failed)

    def daily_backup(self, now: datetime) -> None:
        """The day's backup, made by the first pass after midnight that claims it."""
        if backup := backups.make_daily_backup(now):
            self.say(f"backup: {backup}")

    def trouble(self, name: str, said: str, ended: str = "") -> None:
        """One line when a trouble starts (`said`: what is wrong) and one when it ends (`said`
        empty: `ended`, or "NAME works again"), nothing while it stays as it is."""
        if said and name not in self.troubles:
            self.say(said, "WARNING")
        elif not said and name in self.troubles:
            self.say(ended or f"{name} works again")
        if said:
            self.troubles.setdefault(name, said)
        else:
            self.troubles.pop(name, None)

    def say(self, line: str, level: str = "INFO") -> None:
        """A line on stdout at once, with the time and its zone: a supervisor, a test or a
        volunteer reading the log waits for it."""
        self.stdout.write(f"{moment()} {level} worker: {line}")
        self.stdout.flush()


def first_line(error: object) -> str:
    return str(error).strip().splitlines()[0][:200] if str(error).strip() else ""
