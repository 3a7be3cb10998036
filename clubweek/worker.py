"""The worker's pass: what must happen at its time around the club week, each thing once.

`run_pass` runs the steps in this order: rule k (`absences.services.apply_no_show_rule`),
`publish_due_rounds` (Friday 20:00), `tell_arbiter_about_waiting_rounds`, `mail_pairings`,
`refresh_rankings`, `mail_rankings`, `mail_corrections`, `mail_reminders` (Friday morning),
the answers to password-reset requests (`members.accounts.answer_reset_requests`), and last
the outbox's delivery (`operations.outbox.deliver`). The command that
runs it (`manage.py run_worker`) records the heartbeat after a pass that did its work and makes
the daily backup after every pass (`operations`).

Every step claims "due rows" (`Round.objects.due_for_publication`, `pairing_mail_due`,
`ranking_mail_due`, a notice not yet sent) with a row lock or a conditional update, so a
repeated pass, a worker that was down, and two workers at once all end the same way. E-mails
are sent inside the claiming transaction: a worker killed while sending rolls the claim back
and the next pass sends again (at least once, never lost).
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction

from absences import services as absences_services
from clubweek import pairing_mail, ranking_mail, reminder_mail
from competition import services as competition_services
from competition.models import Competition, Ranking, Round
from members import accounts
from operations import outbox

logger = logging.getLogger(__name__)


def run_pass(now: datetime) -> list[Round]:
    """One pass of the worker; returns the rounds it published."""
    absences_services.apply_no_show_rule(now)
    published = publish_due_rounds(now)
    tell_arbiter_about_waiting_rounds(now)
    mail_pairings(now)
    refresh_rankings(now)
    mail_rankings(now)
    mail_corrections(now)
    mail_reminders(now)
    accounts.answer_reset_requests(now)
    outbox.deliver(now)  # last: the e-mails this pass wrote go out in it
    return published


def refresh_rankings(now: datetime) -> None:
    """The rankings of every season not closed follow data changed outside the services (a
    setting, a player or ranking 0 changed in the admin, a team line-up entered there or by a
    command): the one trigger of a recompute outside them. Only a competition whose inputs
    changed is recomputed (`services.refresh_rankings`); late in the pass (only the ranking
    e-mail, which reads what it stored, comes after it), and one competition's failure does
    not keep the others (or the next pass) from it."""
    for competition in Competition.objects.open():
        try:
            competition_services.refresh_rankings(competition)
        except Exception:
            logger.exception("refreshing the rankings of %s failed", competition)


def publish_due_rounds(now: datetime) -> list[Round]:
    """Publish every round whose publication time has passed, pairing it first when the
    arbiter prepared no draft. Each round in its own transaction, claimed under a row lock so
    that two workers never publish the same round; a round that cannot be paired yet (the
    previous round is incomplete) or whose draft is inconsistent waits for a later pass."""
    published = []
    due = Round.objects.due_for_publication(now).order_by("publish_at")
    for pk in due.values_list("pk", flat=True):
        with transaction.atomic():
            round_ = (
                Round.objects.select_for_update(skip_locked=True)
                .filter(pk=pk, published_at__isnull=True)
                .first()
            )
            if round_ is None:
                continue  # another worker has it
            if not round_.games.exists():
                try:
                    competition_services.make_pairing(round_)
                except competition_services.CompetitionError:
                    continue
                round_.refresh_from_db()  # the pairing set the bye
            try:
                if competition_services.publish(round_, now):
                    published.append(round_)
            except competition_services.CompetitionError:
                continue  # a stale or inconsistent draft waits for the arbiter
    return published


def tell_arbiter_about_waiting_rounds(now: datetime) -> None:
    """Once per round: the arbiter hears why a due pairing could not be published. The round
    is claimed under a row lock first and its problems read inside that lock, so a round that
    another worker is publishing at this moment (locked, its pairing not yet committed) is
    skipped rather than reported as waiting."""
    due = Round.objects.due_for_publication(now).filter(waiting_notice_at__isnull=True)
    for pk in due.values_list("pk", flat=True):
        with transaction.atomic():
            round_ = (
                Round.objects.select_for_update(skip_locked=True)
                .filter(pk=pk, published_at__isnull=True, waiting_notice_at__isnull=True)
                .first()
            )
            if round_ is None:
                continue  # published, reported, or in another worker's hands
            problems = competition_services.publication_problems(round_)
            if problems:
                round_.waiting_notice_at = now
                round_.save(update_fields=["waiting_notice_at"])
                pairing_mail.waiting_for_results(round_, problems)


def claimed(pk: int, mark: str, now: datetime) -> bool:
    """A round's e-mail claimed by a conditional update of its mark (`pairing_mailed_at`, …):
    True for the one pass (of one worker) that set it; inside the sending transaction, so a
    worker killed while sending leaves it unclaimed."""
    return bool(Round.objects.filter(pk=pk, **{f"{mark}__isnull": True}).update(**{mark: now}))


def mail_pairings(now: datetime) -> None:
    """Each published pairing of a coming evening is e-mailed to its players once."""
    for pk in Round.objects.pairing_mail_due(now).values_list("pk", flat=True):
        with transaction.atomic():
            if claimed(pk, "pairing_mailed_at", now):
                pairing_mail.pairing(Round.objects.select_related("bye__member").get(pk=pk))


def mail_rankings(now: datetime) -> None:
    """Once a round's results are final, its new ranking is e-mailed to the members who chose
    it, once per round: the newest final ranking of the current season's internal competition
    (`Round.objects.ranking_mail_due`), claimed by a conditional update. A result changed
    after the e-mail sends no second one: the standings page says the ranking was corrected,
    and `mail_corrections` tells its readers once."""
    for pk in Round.objects.ranking_mail_due(now).values_list("pk", flat=True):
        with transaction.atomic():
            if claimed(pk, "ranking_mailed_at", now):
                ranking_mail.new_ranking(Round.objects.select_related("competition").get(pk=pk))


def mail_reminders(now: datetime) -> None:
    """On the deadline's day, once per round: the members who asked for it are reminded that
    they can cancel until the deadline (`Round.objects.reminder_due`), claimed by a
    conditional update like the other e-mails."""
    for pk in Round.objects.reminder_due(now).values_list("pk", flat=True):
        with transaction.atomic():
            if claimed(pk, "reminder_mailed_at", now):
                reminder_mail.reminder(Round.objects.select_related("competition").get(pk=pk))


def mail_corrections(now: datetime) -> None:
    """A ranking corrected after it was e-mailed: the members who get the ranking by e-mail
    hear of it once (`Ranking.corrected_at`, claimed like the other e-mails). Several rankings
    corrected at once (a result of round 10 moves rankings 10 to 13) make one e-mail, about the
    newest; a correction of a ranking never e-mailed makes none (the next ranking e-mail
    carries it)."""
    due = Ranking.objects.filter(
        corrected_at__isnull=False,
        correction_mailed_at__isnull=True,
        competition__kind__in=Competition.CLUB_WEEK_KINDS,
        competition__season__is_closed=False,
    )
    for competition in Competition.objects.filter(pk__in=due.values("competition")):
        with transaction.atomic():
            corrected = competition_services.claim_correction_mail(competition, now)
            mailed = set(
                competition.rounds.filter(ranking_mailed_at__isnull=False).values_list(
                    "number", flat=True
                )
            )
            told = [ranking for ranking in corrected if ranking.after_round in mailed]
            if told:
                ranking_mail.correction(told[-1])
