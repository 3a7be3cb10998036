"""The worker's pass: what must happen at its time around the club week, each thing once.

The pass is a declared list of steps (`STEPS`), each run on its own: in its own `try` and its
own transactions, so a step that fails is logged with its traceback (the error reports to
ADMINS follow from the log), recorded for the arbiter's start page and `/gezond/` (the
heartbeat's `failing`), and every other step still does its work in the same pass: a broken
no-show rule never stops the publication at 20:00, and nothing stops the password-reset
answers or the outbox's delivery.

The order has one rule: the no-show rule comes before publication (a member it cancels must
not be paired). The rest is preference: the waiting notice after publication (a round published
in this pass does not wait), the e-mails after what they report, the ranking e-mail after the
refresh (it reads the snapshots the refresh stored), and the outbox's delivery last (the
e-mails this pass wrote go out in it). The command that runs the pass (`manage.py run_worker`)
records the heartbeat after every pass and makes the daily backup (`operations`).

Every step claims "due rows" (`Round.objects.due_for_publication`, `pairing_mail_due`,
`ranking_mail_due`, a notice not yet sent) with a row lock or a conditional update, so a
repeated pass, a worker that was down, and two workers at once all end the same way. E-mails
are written to the outbox inside the claiming transaction: a worker killed while writing them
rolls the claim back and the next pass writes them again (at least once, never lost).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import NamedTuple

from django.db import transaction
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy

from absences import services as absences_services
from club.models import current as current_club
from club.models import forget as forget_the_club
from clubweek import pairing_mail, ranking_mail, reminder_mail
from competition import services as competition_services
from competition.models import Competition, Ranking, Round
from members import accounts
from operations import outbox

logger = logging.getLogger(__name__)


class Step(NamedTuple):
    """One step of the pass: its name (in the log, the heartbeat and /gezond/), what the
    arbiter's start page calls it, and what it does at `now`."""

    name: str
    label: str
    run: Callable[[datetime], object]


class Pass(NamedTuple):
    """What a pass did: the rounds it published, each failed step's error, and the e-mails
    its delivery sent."""

    published: list[Round]
    failed: dict[str, str]
    sent: int = 0


class PartlyFailed(Exception):
    """A step that went on after a part of its work failed, and logged that part itself."""


def run_pass(now: datetime) -> Pass:
    """One pass of the worker: every step, each on its own (see the module's docstring)."""
    forget_the_club()  # read afresh once a pass: a change in the site applies without a restart
    published: list[Round] = []
    failed: dict[str, str] = {}
    sent = 0
    for step in STEPS:
        try:
            done = step.run(now)
        except PartlyFailed as error:
            failed[step.name] = str(error)[:300]
        except Exception as error:
            logger.exception("worker step %r failed", step.name)
            failed[step.name] = f"{type(error).__name__}: {error}"[:300]
        else:
            if step.name == PUBLICATION:
                published = done
            elif step.name == DELIVERY:
                sent = done
    return Pass(published, failed, sent)


def refresh_rankings(now: datetime) -> None:
    """The rankings of every season not closed follow data changed outside the services (a
    setting, a player or ranking 0 changed in the admin, a team line-up entered there or by a
    command): the one trigger of a recompute outside them. Only a competition whose inputs
    changed is recomputed (`services.refresh_rankings`); late in the pass (only the ranking
    e-mail, which reads what it stored, comes after it), and one competition's failure does
    not keep the others (or the next pass) from it."""
    failed = []
    for competition in Competition.objects.open():
        try:
            competition_services.refresh_rankings(competition)
        except Exception as error:
            logger.exception("refreshing the rankings of %s failed", competition)
            failed.append(f"{competition}: {type(error).__name__}: {error}")
    if failed:
        raise PartlyFailed("; ".join(failed))


def publish_due_rounds(now: datetime) -> list[Round]:
    """Publish every round whose publication time has passed, pairing it first when the
    arbiter prepared no draft (`services.publish_due`: one transaction per round, the round's
    lock the one claim, so two workers never publish a round twice); a round that cannot be
    paired yet (the previous round is incomplete) or whose draft is inconsistent waits for a
    later pass, and the arbiter is told (`tell_arbiter_about_waiting_rounds`)."""
    published = []
    for round_ in Round.objects.due_for_publication(now).order_by("publish_at"):
        try:
            if competition_services.publish_due(round_, now):
                published.append(round_)
        except competition_services.CompetitionError:
            continue  # it waits: for results, or for the arbiter to mend the draft
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


def no_show_label() -> str:
    return gettext("the cancellation after not coming %(times)s (rule k)") % {
        "times": current_club().no_shows_in_words
    }


def reminder_label() -> str:
    return gettext("the reminder on %(day)s") % {"day": current_club().deadline_day_name}


PUBLICATION = "publication"
DELIVERY = "delivery"
STEPS = (
    # The one rule of the order: a member cancelled by the no-show rule is not paired.
    Step("no-show rule", lazy(no_show_label, str)(), absences_services.apply_no_show_rule),
    Step(PUBLICATION, gettext_lazy("publishing the pairing"), publish_due_rounds),
    Step(
        "waiting notice",
        gettext_lazy("telling you a pairing waits"),
        tell_arbiter_about_waiting_rounds,
    ),
    Step("pairing e-mail", gettext_lazy("the pairing e-mail"), mail_pairings),
    Step("rankings", gettext_lazy("bringing the rankings up to date"), refresh_rankings),
    Step("ranking e-mail", gettext_lazy("the new ranking's e-mail"), mail_rankings),
    Step("correction e-mail", gettext_lazy("the correction e-mail"), mail_corrections),
    Step("reminder", lazy(reminder_label, str)(), mail_reminders),
    Step(
        "password resets",
        gettext_lazy("answering password-reset requests"),
        accounts.answer_reset_requests,
    ),
    Step(DELIVERY, gettext_lazy("delivering the e-mails"), outbox.deliver),
)


def label_of(name: str) -> str:
    """What the arbiter's start page calls the step `name` (its name, for one that is gone)."""
    return next((str(step.label) for step in STEPS if step.name == name), name)
