"""`python manage.py run_worker [--loop]`: the background worker (also `publish_due_rounds`,
its old name, which deployments and cron lines still call).

Each turn has two steps, each with its own error handling:

1. The club week's pass (`clubweek.worker.run_pass`): the no-show rule, publishing the pairings
   whose time has come (Friday 20:00), telling the arbiter once when a pairing waits for
   results, e-mailing published pairings to the players, bringing the current rankings up to
   date and, once an evening's results are final, e-mailing the new ranking to the members who
   chose it. After a pass that did its work the worker records its heartbeat (`/gezond/`, the
   arbiter's start page).
2. The daily backup (`operations.backups.make_daily_backup`, when BACKUP_DIR is set), after
   every pass, whether or not the pass failed.

Runs one turn and exits (for cron and tests; an error ends it), or with --loop keeps taking
turns every --interval seconds until SIGTERM/SIGINT, reporting a failed step and going on; it
prints "worker ready" once its signal handlers are in place and "worker seen" after the first
heartbeat.
"""

from __future__ import annotations

import signal
import time
from datetime import datetime

from django.core.management.base import BaseCommand
from django.db import close_old_connections
from django.utils import timezone

from clubweek import worker
from operations import backups
from operations.models import WorkerHeartbeat


class Command(BaseCommand):
    help = "Publish the pairings that are due (one pass, or --loop)."

    def add_arguments(self, parser):
        parser.add_argument("--loop", action="store_true", help="Keep running until stopped.")
        parser.add_argument("--interval", type=float, default=20.0, help="Seconds between passes.")

    def handle(self, *args, loop=False, interval=20.0, **options):
        stopping = []
        self.seen = False

        def stop(signum, frame):
            stopping.append(signum)

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        if loop:
            self.say("worker ready")  # a supervisor or a test may signal from now on
        while True:
            now = timezone.now()
            try:
                self.club_week(now, loop)
            except Exception as error:
                if not loop:
                    raise
                # A database restart or an unreachable mail server must not end the worker:
                # the failed step rolled back and the next pass does it again.
                self.stderr.write(f"pass failed, retrying: {error!r}")
            try:
                self.daily_backup(now)
            except Exception as error:
                if not loop:
                    raise
                # Claimed for today: tried again when the claim expires, not every pass.
                self.stderr.write(f"backup failed: {error!r}")
            if not loop:
                return
            next_pass = time.monotonic() + interval
            while not stopping and time.monotonic() < next_pass:
                time.sleep(min(0.2, interval))
            if stopping:
                self.stdout.write("worker stopped")
                return
            close_old_connections()  # a long-running loop must not keep a broken connection

    def club_week(self, now: datetime, loop: bool) -> None:
        """Step 1: the club week's pass, then the heartbeat: seen means a pass that did its
        work, so a failing pass records none."""
        for round_ in worker.run_pass(now):
            self.say(f"published: {round_}")
        WorkerHeartbeat.objects.record(now)
        if loop and not self.seen:  # once, for whoever watches the start (a test, a person)
            self.say("worker seen")
            self.seen = True

    def daily_backup(self, now: datetime) -> None:
        """Step 2: the day's backup, made by the first pass after midnight that claims it."""
        if backup := backups.make_daily_backup(now):
            self.say(f"backup: {backup}")

    def say(self, line: str) -> None:
        """A line on stdout at once: a supervisor or a test waits for it."""
        self.stdout.write(line)
        self.stdout.flush()
