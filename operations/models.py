"""What the site records about itself: when the worker was last seen, which daily backups
were made, the e-mails to send (the outbox). Plain rows, so every process sees them without a
shared cache."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db import models
from django.utils.translation import gettext_lazy as _

# The worker passes every 20 seconds; a worker not seen for this long is down or stuck.
WORKER_LATE_AFTER = timedelta(minutes=5)
# Mail held up this long (the server did not take it) is trouble for the monitors (/gezond/).
MAIL_LATE_AFTER = timedelta(minutes=10)
# A daily backup claimed this long ago and never finished (its worker died) is tried again.
BACKUP_CLAIM_EXPIRES_AFTER = timedelta(hours=1)
# A daily backup that failed (a full disk, a dump that broke off) is tried again this soon.
BACKUP_RETRY_AFTER = timedelta(minutes=5)


@dataclass(frozen=True)
class FailingStep:
    """A step of the worker's pass that failed in its last pass, and since when it fails."""

    name: str  # clubweek.worker's name for the step
    since: datetime
    error: str  # the last failure's kind and message


@dataclass(frozen=True)
class WorkerStatus:
    seen_at: datetime | None
    late: bool
    failing: list[FailingStep]


@dataclass(frozen=True)
class MailStatus:
    held_up: int  # e-mails the server did not take yet (tried again with back-off)
    held_up_since: datetime | None
    last_error: str
    late: bool  # held up longer than MAIL_LATE_AFTER: mail trouble
    failed: list[OutgoingMail]  # failed for good, newest first (at most 20)
    maybe_delivered: list[OutgoingMail]  # for the arbiter to decide, newest first (at most 20)


class HeartbeatQuerySet(models.QuerySet):
    def record(self, now: datetime, failed: dict[str, str] | None = None) -> None:
        """The worker finished a pass at `now`, in which the steps `failed` names (step: the
        error) failed: one row, written by every pass. A step that failed before keeps the
        moment it started failing; a step that worked again is forgotten."""
        failed = failed or {}
        before = self.filter(pk=WorkerHeartbeat.ONLY).values_list("failing", flat=True).first()
        failing = {
            name: {
                "since": (before or {}).get(name, {}).get("since", now.isoformat()),
                "error": error,
            }
            for name, error in failed.items()
        }
        if not self.filter(pk=WorkerHeartbeat.ONLY).update(seen_at=now, failing=failing):
            self.update_or_create(
                pk=WorkerHeartbeat.ONLY, defaults={"seen_at": now, "failing": failing}
            )

    def status(self, now: datetime) -> WorkerStatus:
        row = self.filter(pk=WorkerHeartbeat.ONLY).values_list("seen_at", "failing").first()
        seen_at, failing = row or (None, {})
        return WorkerStatus(
            seen_at,
            seen_at is None or now - seen_at > WORKER_LATE_AFTER,
            [
                FailingStep(name, datetime.fromisoformat(step["since"]), step["error"])
                for name, step in failing.items()
            ],
        )


class WorkerHeartbeat(models.Model):
    """The one row the worker rewrites after each pass, with the steps that failed in it."""

    ONLY = 1
    seen_at = models.DateTimeField(_("last seen"))
    # step name -> {"since": ISO moment of the first failure in a row, "error": the last one}
    failing = models.JSONField(_("failing steps"), default=dict, blank=True)

    objects = HeartbeatQuerySet.as_manager()

    class Meta:
        verbose_name = _("worker heartbeat")
        verbose_name_plural = _("worker heartbeats")

    def __str__(self) -> str:
        return str(self.seen_at)


class DailyBackupQuerySet(models.QuerySet):
    def claim(self, today: date, now: datetime) -> DailyBackup | None:
        """Today's backup for this worker to make, or None when another worker made it or is
        making it: the day's row is created once; a claim that never finished expires."""
        row, created = self.get_or_create(day=today, defaults={"started_at": now})
        if created:
            return row
        expired = (
            self.filter(pk=row.pk, finished_at__isnull=True)
            .filter(
                models.Q(started_at__lt=now - BACKUP_CLAIM_EXPIRES_AFTER)
                | models.Q(failed_at__lt=now - BACKUP_RETRY_AFTER)
            )
            .update(started_at=now, failed_at=None)
        )
        return row if expired else None

    def finish(self, row: DailyBackup, file_name: str, now: datetime) -> None:
        self.filter(pk=row.pk).update(file_name=file_name, finished_at=now, error="")

    def fail(self, row: DailyBackup, error: str, now: datetime) -> bool:
        """A failed try, recorded to be tried again after BACKUP_RETRY_AFTER; whether it is
        the day's first failure (the one the administrators are told of)."""
        first = not self.filter(pk=row.pk).exclude(error="").exists()
        self.filter(pk=row.pk).update(failed_at=now, error=error[:500])
        return first

    def failing(self) -> DailyBackup | None:
        """The newest day's backup when its last try failed and none has succeeded since."""
        latest = self.order_by("-day").first()
        return latest if latest and latest.error and latest.finished_at is None else None

    def forget_before(self, day: date) -> None:
        self.filter(day__lt=day).delete()


class DailyBackup(models.Model):
    """A day's backup: claimed by one worker (`started_at`), done at `finished_at`."""

    day = models.DateField(_("day"), unique=True)
    started_at = models.DateTimeField(_("started at"))
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    file_name = models.CharField(_("file"), max_length=200, blank=True)
    failed_at = models.DateTimeField(_("failed at"), null=True, blank=True)
    error = models.CharField(_("error"), max_length=500, blank=True)  # the last failed try's

    objects = DailyBackupQuerySet.as_manager()

    class Meta:
        verbose_name = _("daily backup")
        verbose_name_plural = _("daily backups")
        ordering = ["-day"]

    def __str__(self) -> str:
        return str(self.day)


class OutgoingMailQuerySet(models.QuerySet):
    def due(self, now: datetime):
        """Waiting mail whose (next) try has come, oldest first."""
        return self.filter(state=OutgoingMail.State.WAITING, next_try_at__lte=now).order_by("pk")

    def failed(self):
        return self.filter(state=OutgoingMail.State.FAILED).order_by("-created_at", "-pk")

    def maybe_delivered(self):
        return self.filter(state=OutgoingMail.State.MAYBE_DELIVERED).order_by("-created_at", "-pk")

    def forget_sent_before(self, moment: datetime) -> None:
        self.filter(state=OutgoingMail.State.SENT, sent_at__lt=moment).delete()

    def held_up(self):
        """Waiting mail that was tried and not taken: the mail server is away."""
        return self.filter(state=OutgoingMail.State.WAITING, tries__gt=0)

    def status(self, now: datetime) -> MailStatus:
        """While the server does not take mail, everything waiting is held up with it. One
        query says which kinds of trouble there are (most of the time none): only those are
        read."""
        State = OutgoingMail.State
        present = set(
            self.filter(
                models.Q(state=State.WAITING, tries__gt=0)
                | models.Q(state__in=(State.FAILED, State.MAYBE_DELIVERED))
            )
            .order_by()
            .values_list("state", flat=True)
            .distinct()
        )
        tried = (
            self.held_up().order_by("created_at", "pk").first()
            if State.WAITING in present
            else None
        )
        waiting = self.filter(state=OutgoingMail.State.WAITING)
        oldest = waiting.order_by("created_at", "pk").first() if tried else None
        return MailStatus(
            held_up=waiting.count() if tried else 0,
            held_up_since=oldest.created_at if oldest else None,
            last_error=tried.last_error if tried else "",
            late=oldest is not None and now - oldest.created_at > MAIL_LATE_AFTER,
            failed=list(self.failed()[:20]) if State.FAILED in present else [],
            maybe_delivered=(
                list(self.maybe_delivered()[:20]) if State.MAYBE_DELIVERED in present else []
            ),
        )

    def to_address_since(self, kind: str, address: str, since: datetime):
        return self.filter(kind=kind, recipient__iexact=address, created_at__gte=since)


class OutgoingMail(models.Model):
    """One e-mail the site sends: written in the transaction of the change that causes it (the
    outbox backend, `operations.outbox`), sent by the worker, tried again with back-off."""

    class State(models.TextChoices):
        WAITING = "waiting", _("waiting")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")
        # Sent whole, but the server's reply did not come: it may have arrived. Never sent again
        # by itself; the arbiter decides (sent again, or left as sent).
        MAYBE_DELIVERED = "maybe", _("maybe delivered")

    created_at = models.DateTimeField(_("created at"))
    kind = models.CharField(_("kind"), max_length=30, blank=True)  # operations.letters.Kind
    recipient = models.CharField(_("recipient"), max_length=254, blank=True)  # the first of `to`
    subject = models.CharField(_("subject"), max_length=300)
    message = models.JSONField(_("message"))  # sender, recipients, body, headers, alternatives
    state = models.CharField(_("state"), max_length=7, choices=State, default=State.WAITING)
    tries = models.PositiveIntegerField(_("tries"), default=0)
    next_try_at = models.DateTimeField(_("next try at"))
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    last_error = models.CharField(_("last error"), max_length=500, blank=True)

    objects = OutgoingMailQuerySet.as_manager()

    class Meta:
        verbose_name = _("outgoing e-mail")
        verbose_name_plural = _("outgoing e-mails")
        indexes = [models.Index(fields=["state", "next_try_at"], name="outbox_due")]

    def __str__(self) -> str:
        return self.subject
