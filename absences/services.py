"""Cancelling and re-registering for club evenings, and the no-show rule.

`plan` says what a request would do (the form shows it before the member confirms); `apply`
does it in one transaction through the competition's services (an absence, or after
publication a forfeit), logs a `Registration` per evening and sends the e-mails the rules ask
for. What each kind of absence earns is the engine's points table, worded by
`competition.explanations` with the competition's own shares and the member's current value.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import date, datetime

from django.db import IntegrityError, transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from absences import mail, rules
from absences.models import NoShowCancellation, Registration
from club.models import current as current_club
from competition import exchange, services
from competition.explanations import what_it_earns
from competition.keizer.scoring import NO_SHOWS, appearances
from competition.keizer.scoring import Outcome as Scored
from competition.keizer.season import Absence as Kind
from competition.models import Absence, Closing, Competition, Game, Participant, Round
from competition.outcomes import OUTCOME_WORDS
from competition.services import CompetitionError
from members.models import Member

Outcome = Registration.Outcome


@dataclass(frozen=True)
class Consequence:
    round: Round
    outcome: str | None  # a Registration.Outcome, or None when nothing changes
    message: str  # in the member's own words ("je waarde"), as the member reads it
    about: str = ""  # of the member, by name, for the arbiter acting for them
    # Only the arbiter can change this evening now: the member's page says how to reach them.
    ask_arbiter: bool = False

    @property
    def for_arbiter(self) -> str:
        return self.about or self.message

    @property
    def changes_anything(self) -> bool:
        return self.outcome is not None


# Cancellations that cost something: no pairing and nothing or less for the evening, or a
# forfeit win for the opponent. Their confirmation is shown as a warning.
LATE_OUTCOMES = frozenset({Outcome.LATE, Outcome.FORFEIT})


def summary(member: Member, consequence: Consequence) -> str:
    """What a change did, naming the member: the arbiter's message after a phone call."""
    sentences = {
        Outcome.EXCUSED: _("%(name)s is cancelled in time for round %(number)s."),
        Outcome.TEAM: _("%(name)s is cancelled for round %(number)s for a team match."),
        Outcome.LATE: _(
            "%(name)s is cancelled late for round %(number)s and is left out of the pairing."
        ),
        Outcome.FORFEIT: _(
            "%(name)s is cancelled for round %(number)s after publication: "
            "the opponent wins by default."
        ),
        Outcome.PRESENT: _("%(name)s is registered again for round %(number)s."),
    }
    return sentences[consequence.outcome] % {
        "name": member.name,
        "number": consequence.round.number,
    }


class PlanChanged(CompetitionError):
    """What a request would do is no longer what the member saw in the preview (the deadline
    passed, the pairing was published, a new ranking changed the points): nothing was done."""

    def __init__(self, consequences: list[Consequence]):
        self.consequences = consequences
        super().__init__(
            _("Something changed since you looked: see what would happen now, and confirm again.")
        )


@dataclass(frozen=True)
class Evening:
    """A coming club evening as a member sees it on "Mijn afmeldingen"."""

    round: Round
    deadline: datetime
    status: str
    cancelled: bool
    deadline_passed: bool
    board: int | None = None  # once the pairing is published: the board, colour, opponent
    colour: str = ""
    opponent: str = ""
    published: bool = False  # the pairing is out (on Friday 20:00, or early): a forfeit now

    @property
    def cancelling_is_costly(self) -> bool:
        return (self.published and self.board is not None) or self.deadline_passed

    @property
    def when_cancelling(self) -> str:
        """What cancelling means now, in the words of the evening lists ("cancel until …")."""
        deadline = formats.date_format(timezone.localtime(self.deadline), "D j F H:i")
        if self.published and self.board is not None:
            return _("pairing published: cancelling now is a forfeit, your opponent wins")
        if self.published:
            return _("pairing published")
        if self.deadline_passed:
            return _("deadline passed (%(deadline)s): cancelling now is late") % {
                "deadline": deadline
            }
        if self.cancelled:  # what can still be done is coming after all (issue 37)
            return _("register again until %(deadline)s") % {"deadline": deadline}
        return _("cancel until %(deadline)s") % {"deadline": deadline}


def digest(consequences: list[Consequence]) -> str:
    """A fingerprint of exactly what a preview showed: per evening what it does and the words
    (with the points) it said. `apply` does nothing unless the same plan comes out again."""
    shown = [[c.round.pk, c.outcome or "", c.message] for c in consequences]
    return hashlib.sha256(json.dumps(shown).encode()).hexdigest()


def current_competition(now: datetime) -> Competition | None:
    """The internal competition of the current season."""
    return Competition.objects.following_the_club_week().current(timezone.localdate(now)).first()


def season_closing(now: datetime) -> Closing | None:
    """The current season's closing once it is closed: no evening is cancelled for any more."""
    competition = current_competition(now)
    return competition.season.closing() if competition else None


def participant_of(member: Member, competition: Competition | None) -> Participant | None:
    if competition is None:
        return None
    return competition.participants.filter(member=member).first()


def coming_evenings(member: Member, now: datetime) -> list[Evening]:
    """The club evenings from today on, as "Mijn afmeldingen" lists them."""
    return season_evenings(member, now, from_day=timezone.localdate(now))


def season_evenings(member: Member, now: datetime, from_day: date | None = None) -> list[Evening]:
    """The club evenings of the current season's internal competition (from `from_day` on
    when given) with the member's status and, once published, board, colour and opponent;
    none when the member does not play in it."""
    competition = current_competition(now)
    participant = participant_of(member, competition)
    if participant is None:
        return []
    rounds = competition.rounds.all()
    if from_day is not None:
        rounds = rounds.from_day(from_day)
    rounds = list(rounds.select_related("bye").order_by("number"))
    absences = {
        absence.round_id: absence
        for absence in Absence.objects.filter(round__in=rounds, participant=participant)
    }
    in_lineup = exchange.team_match_absences(competition, rounds)
    games = {
        g.round_id: g
        for g in Game.objects.filter(round__in=rounds)
        .involving(participant)
        .select_related("white__member", "black__member")
    }
    evenings = []
    for round_ in rounds:
        absence = absences.get(round_.pk)
        game = games.get(round_.pk)
        status, cancelled = _status(
            round_, participant, absence, game, (round_.pk, participant.pk) in in_lineup
        )
        shown = game if game is not None and round_.is_published else None
        evenings.append(
            Evening(
                round_,
                round_.cancellation_deadline,
                status,
                cancelled,
                deadline_passed=not round_.cancels_in_time(now),
                board=shown.board if shown else None,
                colour=(_("white") if shown.is_white(participant.pk) else _("black"))
                if shown
                else "",
                opponent=shown.opponent_of(participant.pk).name if shown else "",
                published=round_.is_published,
            )
        )
    return evenings


def _status(round_, participant, absence, game, in_lineup: bool) -> tuple[str, bool]:
    if round_.number < participant.joined_round:
        return _("not taking part yet"), False
    if in_lineup and (game is None or not round_.is_published):
        return str(Absence.Reason.TEAM.label), True
    if absence is not None:
        if absence.team_claim:
            return _("cancelled for a team match: waits for confirmation"), True
        return str(absence.reason_label), True
    if game is not None and game.outcome_for(participant.pk) in NO_SHOWS:
        return _("cancelled after publication"), True
    if round_.is_published:
        if round_.bye_id == participant.pk:
            return str(OUTCOME_WORDS[Scored.BYE]), False
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
    standing = participant.latest_standing() if participant else None
    value = standing.value if standing else None
    return [
        _consequence(round_, participant, value, action, reason, reported_at, by_arbiter)
        for round_ in rounds
    ]


def _consequence(
    round_, participant, value, action, reason, reported_at, by_arbiter
) -> Consequence:
    """What the request does to one evening: the facts read, `rules.decide`, the words."""
    absence = game = None
    if participant is not None:
        absence = round_.absences.filter(participant=participant).first()
        game = (
            Game.objects.filter(round=round_)
            .involving(participant)
            .select_related("white", "black")
            .first()
        )
    decision = rules.decide(
        rules.Facts(
            cancelling=action == Registration.Action.CANCEL,
            for_team=reason == Registration.Reason.TEAM,
            by_arbiter=by_arbiter,
            timing=rules.timing(reported_at, round_.cancellation_deadline, round_.published_at),
            games_started=round_.games_started(reported_at),
            published=round_.is_published,
            plays=participant is not None,
            joins_later=participant is not None and round_.number < participant.joined_round,
            absence=Kind(absence.reason) if absence else None,
            has_bye=participant is not None and round_.bye_id == participant.pk,
            paired=game is not None,
            own=game.outcome_for(participant.pk) if game else None,
            opponents=game.outcome_for(game.opponent_id(participant.pk)) if game else None,
        )
    )
    return _worded(decision, round_, participant, value, absence, game)


Decision = rules.Decision
# What a decision records in the log; the others change nothing.
OUTCOME_OF = {
    Decision.EXCUSED: Outcome.EXCUSED,
    Decision.TEAM: Outcome.TEAM,
    Decision.TEAM_CLAIM: Outcome.TEAM,
    Decision.LATE: Outcome.LATE,
    Decision.FORFEIT: Outcome.FORFEIT,
    Decision.BOTH_FORFEIT: Outcome.FORFEIT,
    Decision.PRESENT: Outcome.PRESENT,
    Decision.PRESENT_AGAIN: Outcome.PRESENT,
}


def _worded(decision, round_, participant, value, absence, game) -> Consequence:
    """The decision in the member's words and (`Consequence.about`) of the member, for the
    arbiter acting for them, with the points it quotes worth what they are worth now."""
    you, they, quoted = _words()[decision]
    known = {"name": participant.name if participant else ""}
    if participant is not None:
        known["round"] = participant.joined_round
        # What a published evening stays: the absence, or the forfeit.
        known["status"] = absence.reason_label if absence else OUTCOME_WORDS[Scored.FORFEIT_LOSS]
    if game is not None:
        known["opponent"] = game.opponent_of(participant.pk).name
    settings = round_.competition.engine_settings() if quoted else None
    yours = {k: what_it_earns(v, settings, value) for k, v in quoted.items()}
    theirs = {k: what_it_earns(v, settings, value, yours=False) for k, v in quoted.items()}
    return Consequence(
        round_,
        OUTCOME_OF.get(decision),
        you % {**known, **yours},
        they % {**known, **theirs},
        ask_arbiter=decision.asks_arbiter,
    )


def _words() -> dict[Decision, tuple[str, str, dict[str, Scored]]]:
    """Per decision: what it says to the member, what it says of them by name ("" where the
    member's words serve the arbiter too), and the points it quotes (`what_it_earns`)."""
    team = _("Cancelled in time for a team match: %(earns)s.")
    team_claim = _(
        "Cancelled in time for a team match: %(as_team)s once the line-up or the arbiter "
        "confirms the match; until then %(as_excused)s, as cancelled in time."
    )
    excused = _("Cancelled in time: %(earns)s.")
    return {
        Decision.NOT_PLAYING: (_("You do not play in this competition."), "", {}),
        Decision.NOT_JOINED_YET: (
            _("You only join in round %(round)s."),
            _("%(name)s only joins in round %(round)s."),
            {},
        ),
        Decision.GAMES_STARTED: (
            _("The games have started: only the arbiter can change this evening."),
            "",
            {},
        ),
        Decision.ALREADY_CANCELLED: (_("Already cancelled."), "", {}),
        Decision.HAS_BYE: (
            _("You have the bye: you need not come, and you keep its points."),
            _("%(name)s has the bye: no need to come, and its points stay."),
            {},
        ),
        Decision.NOT_IN_PAIRING: (
            _("You are not in the published pairing."),
            _("%(name)s is not in the published pairing."),
            {},
        ),
        Decision.RESULT_IN: (
            _("The result of your game is in already."),
            _("The result of %(name)s's game is in already."),
            {},
        ),
        Decision.FIXED: (
            _(
                "The pairing is published and fixed; for you it stays: %(status)s. Only the "
                "arbiter can change that now."
            ),
            _("The pairing is published and fixed; for %(name)s it stays: %(status)s."),
            {},
        ),
        Decision.ALREADY_REGISTERED: (
            _("You are registered already."),
            _("%(name)s is registered already."),
            {},
        ),
        Decision.DEADLINE_PASSED: (
            _("The deadline has passed: ask the arbiter to register you again."),
            "",
            {},
        ),
        Decision.EXCUSED: (excused, excused, {"earns": Scored.EXCUSED}),
        Decision.TEAM: (team, team, {"earns": Scored.TEAM}),
        Decision.TEAM_CLAIM: (
            team_claim,
            team_claim,
            {"as_team": Scored.TEAM, "as_excused": Scored.EXCUSED},
        ),
        Decision.LATE: (
            _("After the deadline: you are left out of the pairing and get %(earns)s."),
            _("After the deadline: %(name)s is left out of the pairing and gets %(earns)s."),
            {"earns": Scored.LATE},
        ),
        Decision.FORFEIT: (
            _(
                "The pairing is published: %(earns)s, %(opponent)s wins by default and gets an "
                "e-mail (as does the arbiter)."
            ),
            "",
            {"earns": Scored.FORFEIT_LOSS},
        ),
        Decision.BOTH_FORFEIT: (
            _("The pairing is published and %(opponent)s cancelled too: %(earns)s for both."),
            "",
            {"earns": Scored.FORFEIT_LOSS},
        ),
        Decision.PRESENT: (
            _("Registered again: you will be paired."),
            _("Registered again: %(name)s will be paired."),
            {},
        ),
        Decision.PRESENT_AGAIN: (
            _("Registered again; the automatic cancellation ends for the coming evenings."),
            "",
            {},
        ),
    }


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
    *,
    previewed: str,
) -> list[Consequence]:
    """Carry out the request evening by evening, exactly as the preview showed it (`previewed`
    is the preview's `digest`); when the plan came out different, raise `PlanChanged` and do
    nothing. The member is told by e-mail what changed. Locks the member, then the rounds in
    order (the no-show rule takes the same order), so that what was planned cannot change
    before it is done: a round the worker is publishing is published before the plan is made,
    or after it is done."""
    Member.objects.select_for_update().get(pk=member.pk)  # one request per member at a time
    requested = {r.pk for r in rounds}
    # Registering again may end an automatic cancellation on later evenings too: those rounds
    # are locked with the requested ones, all in one go in the order of their numbers.
    later_autos = Absence.objects.filter(
        participant__member=member,
        reason=Absence.Reason.AUTO,
        round__published_at__isnull=True,
        round__competition__rounds__pk__in=requested,
    ).values_list("round_id", flat=True)
    locked = list(
        Round.objects.select_for_update(of=("self",))
        .filter(pk__in=requested | set(later_autos))
        .select_related("competition__season")
        .order_by("number")
    )
    rounds = [r for r in locked if r.pk in requested]
    consequences = plan(member, rounds, action, reason, reported_at, by_arbiter)
    if digest(consequences) != previewed:
        raise PlanChanged(consequences)
    participant = participant_of(member, rounds[0].competition) if rounds else None
    done = []
    for consequence in consequences:
        if not consequence.changes_anything:
            continue
        round_ = consequence.round
        if not _log(round_, member, action, reason, consequence.outcome, reported_at, by, now):
            continue  # the same change was just made (a double submit)
        done.append(consequence)
        if consequence.outcome == Outcome.FORFEIT:
            game = services.record_forfeit(round_, participant)
            opponent = game.opponent_of(participant.pk)
            mail.forfeit(round_, participant, opponent)
        elif consequence.outcome == Outcome.PRESENT:
            _register_again(round_, participant)
        else:
            # A member's word on a team match is a claim: it counts as cancelled in time until
            # a line-up shows the match or the arbiter confirms it; the arbiter's word stands.
            claim = consequence.outcome == Outcome.TEAM and not by_arbiter
            reason_kind = Absence.Reason.EXCUSED if claim else Absence.Reason(consequence.outcome)
            if services.record_absence(round_, participant, reason_kind, team_claim=claim):
                mail.draft_discarded(round_)
    if done:
        mail.registration_done(member, done)
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


def _register_again(round_: Round, participant: Participant) -> None:
    """Present after all; after an automatic cancellation, for every coming evening."""
    rounds = [round_]
    if round_.absences.filter(participant=participant, reason=Absence.Reason.AUTO).exists():
        rounds += list(
            round_.competition.rounds.unpublished()
            .filter(
                number__gt=round_.number,
                absences__participant=participant,
                absences__reason=Absence.Reason.AUTO,
            )
            .order_by("number")
        )
    for each in rounds:
        if services.remove_absence(each, participant):
            mail.draft_discarded(each)


def apply_no_show_rule(now: datetime) -> list[Participant]:
    """The club's number of rounds in a row (DSC: two) absent without cancelling: cancelled
    automatically for the coming rounds until the member registers again (DSC rule k).
    Applied once per occasion, to the internal competition of the current season."""
    cancelled = []
    today = timezone.localdate(now)
    in_a_row = current_club().no_shows_before_cancellation
    for competition in Competition.objects.following_the_club_week().open().current(today):
        season = exchange.season_for(competition)
        played = len(season.rounds)
        if played < in_a_row:
            continue
        numbers = range(played - in_a_row + 1, played + 1)
        last = [
            _no_shows(engine_round) - _cancelled(competition, number)
            for engine_round, number in zip(season.rounds[-in_a_row:], numbers, strict=True)
        ]
        for participant_id in sorted(set.intersection(*last)):
            with transaction.atomic():
                participant = Participant.objects.select_related("member").get(pk=participant_id)
                if participant.member_id:  # the member first, then rounds: as `apply` locks
                    Member.objects.select_for_update().filter(pk=participant.member_id).first()
                _, created = NoShowCancellation.objects.get_or_create(
                    participant=participant, after_round=played, defaults={"made_at": now}
                )
                if not created:
                    continue
                _cancel_coming_rounds(competition, participant, played, now)
                mail.auto_cancelled(participant)
                cancelled.append(participant)
    return cancelled


def _cancel_coming_rounds(competition, participant, played: int, now: datetime) -> None:
    for round_ in (
        competition.rounds.unpublished()
        .filter(number__gt=played)
        .exclude(absences__participant=participant)
        .order_by("number")
    ):
        if services.record_absence(round_, participant, Absence.Reason.AUTO):
            mail.draft_discarded(round_)
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


def _cancelled(competition: Competition, number: int) -> set[int]:
    """Who lost round `number` by default because they cancelled it themselves after the
    pairing was published, before the games started: rule k counts only no-shows without any
    cancellation. Their last word on the round (the registrations log) must be that forfeit; a
    cancellation the arbiter undid later, or one taken back, does not excuse a no-show."""
    round_ = competition.rounds.filter(number=number).first()
    if round_ is None:
        return set()
    last = {}
    for registration in Registration.objects.filter(round=round_).order_by("sequence"):
        last[registration.member_id] = registration
    cancelled = [
        member_id
        for member_id, registration in last.items()
        if registration.outcome == Outcome.FORFEIT
        and not round_.games_started(registration.reported_at)
    ]
    return set(
        competition.participants.filter(member_id__in=cancelled).values_list("pk", flat=True)
    )


def _no_shows(engine_round) -> set[int]:
    """Who did not come to a round without cancelling in time (the engine's no-shows)."""
    return {
        int(player_id)
        for player_id, part in appearances(engine_round).items()
        if part.outcome in NO_SHOWS
    }
