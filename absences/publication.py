"""The worker's pass: what must happen at its time, each thing exactly once.

Every step claims "due rows" with a conditional update, so a repeated pass, a worker that was
down, and two workers at once all end the same way. E-mails are sent inside the claiming
transaction: a worker killed while sending rolls the claim back and the next pass sends again
(at least once, never lost).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from absences import mail, services
from competition import services as competition_services
from competition.models import Competition, Round


def run_pass(now: datetime) -> list[Round]:
    services.apply_no_show_rule(now)
    published = competition_services.publish_due_rounds(now)
    tell_arbiter_about_waiting_rounds(now)
    mail_pairings(now)
    return published


def waiting_rounds(now: datetime) -> list[Round]:
    """Rounds whose publication time has passed but cannot be published yet."""
    return list(
        Round.objects.filter(
            published_at__isnull=True,
            publish_at__lte=now,
            competition__kind=Competition.Kind.CLASSICAL,
            competition__season__is_closed=False,
        ).select_related("competition")
    )


def tell_arbiter_about_waiting_rounds(now: datetime) -> None:
    for round_ in waiting_rounds(now):
        problems = competition_services.publication_problems(round_)
        if not problems:
            continue
        with transaction.atomic():
            claimed = Round.objects.filter(pk=round_.pk, waiting_notice_at__isnull=True).update(
                waiting_notice_at=now
            )
            if claimed:
                mail.waiting_for_results(round_, problems)


def mail_pairings(now: datetime) -> None:
    """Each published pairing of a coming evening is e-mailed to its players once."""
    due = Round.objects.filter(
        published_at__isnull=False,
        pairing_mailed_at__isnull=True,
        date__gte=timezone.localdate(now),
        competition__kind=Competition.Kind.CLASSICAL,
    )
    for pk in due.values_list("pk", flat=True):
        with transaction.atomic():
            if Round.objects.filter(pk=pk, pairing_mailed_at__isnull=True).update(
                pairing_mailed_at=now
            ):
                mail.pairing(Round.objects.select_related("bye__member").get(pk=pk))
