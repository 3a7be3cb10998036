"""Cancelling and re-registering for club evenings, and the no-show rule.

`plan` says what a request would do (the form shows it before the member confirms); `apply`
does it in one transaction: it writes the engine's `Absence` rows or, after publication, a
forfeit result, logs a `Registration` per evening and sends the e-mails the rules ask for.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from absences import mail, rules
from absences.models import NoShowCancellation, Registration
from competition import exchange, services
from competition.models import Absence, Competition, Game, Participant, Round, Season
from members.models import Member

Outcome = Registration.Outcome


@dataclass(frozen=True)
class Consequence:
    round: Round
    outcome: str | None  # a Registration.Outcome, or None when nothing changes
    message: str

    @property
    def changes_anything(self) -> bool:
        return self.outcome is not None


@dataclass(frozen=True)
class Evening:
    """A coming club evening as a member sees it on "Mijn afmeldingen"."""

    round: Round
    deadline: datetime
    status: str
    cancelled: bool


def current_competition(now: datetime) -> Competition | None:
    season = Season.objects.current(timezone.localdate(now))
    if season is None:
        return None
    return season.competitions.filter(kind=Competition.Kind.CLASSICAL).first()


def participant_of(member: Member, competition: Competition | None) -> Participant | None:
    if competition is None:
        return None
    return competition.participants.filter(member=member).first()


def coming_evenings(member: Member, now: datetime) -> list[Evening]:
    competition = current_competition(now)
    participant = participant_of(member, competition)
    if participant is None:
        return []
    rounds = list(
        competition.rounds.filter(date__gte=timezone.localdate(now))
        .select_related("bye")
        .order_by("number")
    )
    absences = dict(
        Absence.objects.filter(round__in=rounds, participant=participant).values_list(
            "round_id", "reason"
        )
    )
    games = {
        g.round_id: g for g in Game.objects.filter(round__in=rounds).filter(plays(participant))
    }
    evenings = []
    for round_ in rounds:
        status, cancelled = _status(
            round_, participant, absences.get(round_.pk), games.get(round_.pk)
        )
        evenings.append(Evening(round_, round_.cancellation_deadline, status, cancelled))
    return evenings


def _status(round_, participant, reason, game) -> tuple[str, bool]:
    if round_.number < participant.joined_round:
        return _("not taking part yet"), False
    if reason is not None:
        return str(Absence.Reason(reason).label), True
    if (
        game is not None
        and game.result.endswith("F")
        and rules.is_no_show(game.white_id == participant.pk, game.result, None)
    ):
        return _("cancelled after publication"), True
    if round_.is_published:
        if round_.bye_id == participant.pk:
            return _("bye"), False
        if game is not None:
            return _("paired"), False
    return _("registered"), False


def plan(
    member: Member,
    rounds: list[Round],
    action: str,
    reason: str,
    reported_at: datetime,
    by_arbiter: bool,
) -> list[Consequence]:
    """What the request would do per evening; changes nothing."""
    competition = rounds[0].competition if rounds else None
    participant = participant_of(member, competition)
    return [
        _consequence(round_, participant, action, reason, reported_at, by_arbiter)
        for round_ in rounds
    ]


def _consequence(round_, participant, action, reason, reported_at, by_arbiter) -> Consequence:
    if participant is None:
        return Consequence(round_, None, _("You do not play in this competition."))
    if round_.number < participant.joined_round:
        return Consequence(
            round_,
            None,
            _("You only join in round %(round)s.") % {"round": participant.joined_round},
        )
    absence = round_.absences.filter(participant=participant).first()
    game = Game.objects.filter(round=round_).filter(plays(participant)).first()
    timing = rules.timing(reported_at, round_.cancellation_deadline, round_.published_at)
    if action == Registration.Action.CANCEL:
        if absence is not None or (
            game and rules.is_no_show(game.white_id == participant.pk, game.result, None)
        ):
            return Consequence(round_, None, _("Already cancelled."))
        if round_.is_published:
            if round_.bye_id == participant.pk:
                return Consequence(
                    round_, None, _("You have the bye: you need not come, and you keep its points.")
                )
            if game is None:
                return Consequence(round_, None, _("You are not in the published pairing."))
            opponent = game.black if game.white_id == participant.pk else game.white
            if game.result and not rules.is_no_show(
                game.white_id == opponent.pk, game.result, None
            ):
                return Consequence(round_, None, _("The result of your game is in already."))
            if game.result:  # the opponent cancelled too
                return Consequence(
                    round_,
                    Outcome.FORFEIT,
                    _("The pairing is published and %(opponent)s cancelled too: 0 points for both.")
                    % {"opponent": opponent.name},
                )
            return Consequence(
                round_,
                Outcome.FORFEIT,
                _(
                    "The pairing is published: you get 0 points and %(opponent)s wins by default "
                    "(and gets an e-mail, as does the arbiter)."
                )
                % {"opponent": opponent.name},
            )
        if timing is rules.Timing.TIMELY:
            if reason == Registration.Reason.TEAM:
                return Consequence(
                    round_, Outcome.TEAM, _("In time, for a team match: you get 2/3 of your value.")
                )
            return Consequence(round_, Outcome.EXCUSED, _("In time: you get 1/3 of your value."))
        return Consequence(
            round_,
            Outcome.LATE,
            _("After the deadline: you are left out of the pairing and get 0 points."),
        )
    # re-register
    if absence is None:
        return Consequence(round_, None, _("You are registered already."))
    if round_.is_published:
        return Consequence(
            round_, None, _("The pairing is published; only the arbiter can change it now.")
        )
    if timing is not rules.Timing.TIMELY and not by_arbiter:
        return Consequence(
            round_, None, _("The deadline has passed: ask the arbiter to register you again.")
        )
    if absence.reason == Absence.Reason.AUTO:
        return Consequence(
            round_,
            Outcome.PRESENT,
            _("Registered again; the automatic cancellation ends for the coming evenings."),
        )
    return Consequence(round_, Outcome.PRESENT, _("Registered again: you will be paired."))


@transaction.atomic
def apply(
    member: Member,
    rounds: list[Round],
    action: str,
    reason: str,
    reported_at: datetime,
    by,
    by_arbiter: bool,
    now: datetime,
) -> list[Consequence]:
    """Carry out the request (what `plan` said), evening by evening."""
    Member.objects.select_for_update().get(pk=member.pk)  # one request per member at a time
    rounds = list(Round.objects.filter(pk__in=[r.pk for r in rounds]).order_by("number"))
    consequences = plan(member, rounds, action, reason, reported_at, by_arbiter)
    participant = participant_of(member, rounds[0].competition) if rounds else None
    changed_results = False
    for consequence in consequences:
        if not consequence.changes_anything:
            continue
        round_ = consequence.round
        if not _log(round_, member, action, reason, consequence.outcome, reported_at, by, now):
            continue  # the same change was just made (a double submit)
        if consequence.outcome == Outcome.FORFEIT:
            _forfeit(round_, participant)
            changed_results = True
        elif consequence.outcome == Outcome.PRESENT:
            _register_again(round_, participant)
        else:
            Absence.objects.create(
                round=round_, participant=participant, reason=consequence.outcome
            )
            _discard_draft_with(round_, participant)
    if changed_results and rounds:
        services.recompute_rankings(rounds[0].competition)
    return consequences


def _log(round_, member, action, reason, outcome, reported_at, by, now) -> bool:
    last = Registration.objects.filter(round=round_, member=member).order_by("-sequence").first()
    try:
        with transaction.atomic():
            Registration.objects.create(
                round=round_,
                member=member,
                sequence=(last.sequence + 1) if last else 1,
                action=action,
                reason=reason if action == Registration.Action.CANCEL else "",
                outcome=outcome,
                reported_at=reported_at,
                made_at=now,
                made_by=by if by is not None and by.is_authenticated else None,
            )
    except IntegrityError:
        return False
    return True


def plays(participant: Participant) -> Q:
    return Q(white=participant) | Q(black=participant)


def _forfeit(round_: Round, participant: Participant) -> None:
    game = Game.objects.filter(round=round_).filter(plays(participant)).get()
    is_white = game.white_id == participant.pk
    opponent = game.black if is_white else game.white
    game.result = rules.forfeit_result(is_white, opponent_also_absent=bool(game.result))
    game.save(update_fields=["result"])
    transaction.on_commit(lambda: mail.forfeit(round_, participant, opponent))


def _register_again(round_: Round, participant: Participant) -> None:
    absence = Absence.objects.get(round=round_, participant=participant)
    if absence.reason == Absence.Reason.AUTO:
        for later in Absence.objects.filter(
            participant=participant,
            reason=Absence.Reason.AUTO,
            round__number__gt=round_.number,
            round__published_at__isnull=True,
        ):
            later.delete()
    absence.delete()
    _discard_draft_with(round_, None)


def _discard_draft_with(round_: Round, participant: Participant | None) -> None:
    """A draft that no longer fits who comes is dropped; the pairing is made again (by the
    arbiter, or by the worker at publication time)."""
    if round_.is_published or not round_.games.exists():
        return
    seated = {p for g in round_.games.all() for p in (g.white_id, g.black_id)} | {round_.bye_id}
    if participant is None or participant.pk in seated:
        round_.games.all().delete()
        Round.objects.filter(pk=round_.pk).update(bye=None, pairing_warnings=[])
        transaction.on_commit(lambda: mail.draft_discarded(round_))


def apply_no_show_rule(now: datetime) -> list[Participant]:
    """Two rounds in a row absent without cancelling: cancelled automatically for the coming
    rounds until the member registers again (DSC rule k). Applied once per occasion."""
    cancelled = []
    for competition in Competition.objects.filter(kind=Competition.Kind.CLASSICAL):
        season = exchange.season_for(competition)
        played = len(season.rounds)
        if played < 2:
            continue
        last_two = [_no_shows(engine_round) for engine_round in season.rounds[-2:]]
        for participant_id in last_two[0] & last_two[1]:
            with transaction.atomic():
                participant = Participant.objects.select_related("member").get(pk=participant_id)
                _, created = NoShowCancellation.objects.get_or_create(
                    participant=participant, after_round=played, defaults={"made_at": now}
                )
                if not created:
                    continue
                for round_ in competition.rounds.filter(
                    number__gt=played, published_at__isnull=True
                ).exclude(absences__participant=participant):
                    Absence.objects.create(
                        round=round_, participant=participant, reason=Absence.Reason.AUTO
                    )
                    if participant.member_id:
                        _log(
                            round_,
                            participant.member,
                            Registration.Action.CANCEL,
                            "",
                            Outcome.AUTO,
                            now,
                            None,
                            now,
                        )
                    _discard_draft_with(round_, participant)
                transaction.on_commit(lambda p=participant: mail.auto_cancelled(p))
                cancelled.append(participant)
    return cancelled


def _no_shows(engine_round) -> set[int]:
    absent = {int(p) for p, reason in engine_round.absent.items() if reason.value == "unexcused"}
    for game in engine_round.games:
        for player, is_white in ((game.white, True), (game.black, False)):
            if rules.is_no_show(is_white, game.result.value, None):
                absent.add(int(player))
    return absent
