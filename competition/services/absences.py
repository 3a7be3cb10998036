"""Who is absent from a round and why, a team match claimed, and a forfeit after publication."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from competition.keizer.scoring import NO_SHOWS
from competition.keizer.season import Result
from competition.models import (
    Absence,
    Game,
    Participant,
    Round,
)
from competition.outcomes import reason_label
from competition.services.guards import CompetitionError, locked_round, refuse_if_closed
from competition.services.pairing import discard_draft
from competition.services.rankings import refresh_rankings
from competition.services.round_page import absence_problems


@transaction.atomic
def record_absence(
    round_: Round, participant: Participant, reason: str, team_claim: bool = False
) -> bool:
    """Record that a player is absent from a round, and why (an `Absence.Reason`); with
    `team_claim` the member says it is a team match, which the arbiter confirms later
    (`decide_team_claim`). Refused for a player in the published pairing (that is a forfeit:
    `record_forfeit`). A draft that seats the player is discarded; returns True when that
    happened."""
    round_ = locked_round(round_)
    refuse_if_closed(round_.competition)
    problems = absence_problems(round_, {participant.pk: reason})
    if problems:
        raise CompetitionError(problems)
    absence = round_.absences.filter(participant=participant).first()
    if absence is None:
        Absence.objects.create(
            round=round_, participant=participant, reason=reason, team_claim=team_claim
        )
    elif (absence.reason, absence.team_claim) != (reason, team_claim):
        absence.reason, absence.team_claim = reason, team_claim
        absence.save()
    because = _("%(name)s: %(reason)s") % {
        "name": participant.name,
        "reason": reason_label(reason),
    }
    discarded = participant.pk in round_.seated_ids() and discard_draft(round_, because)
    if round_.is_published:
        refresh_rankings(round_.competition, because)
    return discarded


@transaction.atomic
def decide_team_claim(absence: Absence, confirmed: bool) -> Absence:
    """The arbiter's word on a team match a member claimed: confirmed, it scores as a team
    absence; refused, it stays a cancellation in time. Either way the claim is closed."""
    round_ = locked_round(absence.round)
    refuse_if_closed(round_.competition)
    absence = Absence.objects.select_for_update().filter(pk=absence.pk, team_claim=True).first()
    if absence is None:
        raise CompetitionError(_("This claim has been decided already."))
    absence.team_claim = False
    if confirmed:
        absence.reason = Absence.Reason.TEAM
    absence.save()
    if round_.is_published:
        name = absence.participant.name
        refresh_rankings(
            round_.competition,
            _("%(name)s's team match confirmed") % {"name": name}
            if confirmed
            else _("%(name)s's team match not confirmed") % {"name": name},
        )
    return absence


@transaction.atomic
def remove_absence(round_: Round, participant: Participant) -> bool:
    """The player comes after all: the absence is removed and, as the player must be seated,
    a draft pairing is discarded (True when that happened)."""
    round_ = locked_round(round_)
    refuse_if_closed(round_.competition)
    if round_.is_published and participant.pk not in round_.seated_ids():
        raise CompetitionError(
            _("Round %(number)s is published: %(name)s can no longer be paired in it.")
            % {"number": round_.number, "name": participant.name}
        )
    for absence in round_.absences.filter(participant=participant):
        absence.delete()
    because = _("%(name)s comes after all") % {"name": participant.name}
    discarded = discard_draft(round_, because)
    if round_.is_published:
        refresh_rankings(round_.competition, because)
    return discarded


@transaction.atomic
def record_forfeit(round_: Round, participant: Participant) -> Game:
    """A player of the published pairing does not come: the opponent wins by default, or, if
    the opponent did not come either, both lose (0-0F). Returns the game."""
    round_ = locked_round(round_)
    refuse_if_closed(round_.competition)
    if not round_.is_published:
        raise CompetitionError(_("Publish the pairing before entering results."))
    game = Game.objects.select_for_update().filter(round=round_).involving(participant).first()
    if game is None:
        raise CompetitionError(
            _("%(name)s is not in the published pairing.") % {"name": participant.name}
        )
    opponent = game.opponent_id(participant.pk)
    opponent_outcome = game.outcome_for(opponent)
    if opponent_outcome is not None and opponent_outcome not in NO_SHOWS:
        raise CompetitionError(_("The result of the game is in already."))
    opponent_came = opponent_outcome is None
    is_white = game.is_white(participant.pk)
    game.result = Result.by_default(
        white_came=not is_white and opponent_came, black_came=is_white and opponent_came
    ).value
    game.save()
    refresh_rankings(
        round_.competition,
        _("%(name)s did not come: lost by default") % {"name": participant.name},
    )
    return game
