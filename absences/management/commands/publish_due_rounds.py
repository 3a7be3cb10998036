"""`python manage.py publish_due_rounds [--loop]`: the background worker.

Each pass applies the no-show rule, publishes the pairings whose time has come (Friday 20:00),
tells the arbiter once when a pairing waits for results, e-mails published pairings to the
players, brings the current rankings up to date and, once an evening's results are final,
e-mails the new ranking to the members who chose it (absences/publication.py). After a
pass it records its heartbeat (`/gezond/`, the arbiter's start page) and, once a day, makes the
site's backup (operations/backups.py, when BACKUP_DIR is set). Runs one pass and exits (for
cron and tests), or with --loop keeps checking every --interval seconds until SIGTERM/SIGINT;
it prints "worker ready" once its signal handlers are in place and "worker seen" after the
first heartbeat.
"""

from __future__ import annotations

import signal
import time

from django.core.management.base import BaseCommand
from django.db import close_old_connections
from django.utils import timezone

from absences import publication
from operations import backups
from operations.models import WorkerHeartbeat


class Command(BaseCommand):
    help = "Publish the pairings that are due (one pass, or --loop)."

    def add_arguments(self, parser):
        parser.add_argument("--loop", action="store_true", help="Keep running until stopped.")
        parser.add_argument("--interval", type=float, default=20.0, help="Seconds between passes.")

    def handle(self, *args, loop=False, interval=20.0, **options):
        stopping = []
        seen = False

        def stop(signum, frame):
            stopping.append(signum)

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        if loop:
            self.stdout.write("worker ready")  # a supervisor or a test may signal from now on
            self.stdout.flush()
        while True:
            now = timezone.now()
            try:
                for round_ in publication.run_pass(now):
                    self.stdout.write(f"published: {round_}")
                    self.stdout.flush()
                WorkerHeartbeat.objects.record(now)  # seen: a pass that did its work
                if loop and not seen:  # once, for whoever watches the start (a test, a person)
                    self.stdout.write("worker seen")
                    self.stdout.flush()
                    seen = True
            except Exception as error:
                if not loop:
                    raise
                # A database restart or an unreachable mail server must not end the worker:
                # the failed step rolled back and the next pass does it again.
                self.stderr.write(f"pass failed, retrying: {error!r}")
            try:
                if backup := backups.make_daily_backup(now):
                    self.stdout.write(f"backup: {backup}")
                    self.stdout.flush()
            except Exception as error:
                if not loop:
                    raise
                # Claimed for today: tried again when the claim expires, not every pass.
                self.stderr.write(f"backup failed: {error!r}")
            if not loop:
                return
            deadline = time.monotonic() + interval
            while not stopping and time.monotonic() < deadline:
                time.sleep(min(0.2, interval))
            if stopping:
                self.stdout.write("worker stopped")
                return
            close_old_connections()  # a long-running loop must not keep a broken connection
