"""The prize eligibility forecast of one player, read from what is stored.

The arithmetic and what counts are the engine's (`keizer.attendance.forecast`, `ATTENDED`);
this module only collects its inputs: the rounds attended in the latest ranking
(`Standing.attended`) and, for every later round of the season the player takes part in, the
outcome already stored (an absence, a team match's line-up, a result, the bye), or nothing
while the round is open. The player page and the cancellation preview (with the evenings being
changed) both ask here, so they always tell the same numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from club.models import current as current_club
from competition import exchange
from competition.amounts import format_amount
from competition.keizer.attendance import Forecast, forecast, required_rounds
from competition.keizer.scoring import ATTENDED, Outcome, absence_outcome
from competition.models import Absence, Competition, Game, Participant, Ranking, Round
from competition.outcomes import OUTCOME_WORDS

SHARE_WORDS = {
    Fraction(1, 2): gettext_lazy("half"),
    Fraction(2, 3): gettext_lazy("two thirds"),
    Fraction(3, 4): gettext_lazy("three quarters"),
    Fraction(1, 3): gettext_lazy("one third"),
}


def what_counts() -> list[str]:
    """What counts as attended (the engine's `ATTENDED`), in the site's words for each
    outcome, in the engine's order."""
    return [str(OUTCOME_WORDS[outcome]) for outcome in Outcome if outcome in ATTENDED]


def required(season_rounds: int) -> int:
    """The rounds a player attends for the prizes: the club's share of the season's (DSC: 19
    of 28)."""
    return required_rounds(season_rounds, current_club().attendance_share)


@dataclass(frozen=True)
class Eligibility:
    """A player's forecast with what the page says around it."""

    forecast: Forecast
    season_rounds: int
    group: str
    share: Fraction  # of the season's rounds the prizes ask (the club's policy)

    @property
    def share_words(self) -> str:
        """The share as a heading says it: "two thirds", else as an amount ("3/5": ⅗)."""
        words = SHARE_WORDS.get(self.share)
        return str(words) if words else format_amount(self.share)


def has_eligibility(competition: Competition) -> bool:
    """Only the internal competition has prizes that ask for a share of the rounds."""
    return competition.prizes_ask_attendance


def rounds_to_come(
    participant: Participant, after_round: int
) -> list[tuple[Round, Outcome | None]]:
    """Every round after `after_round` the player takes part in, with the outcome stored for
    the player (None while open), in the order of the rounds. Three or four queries."""
    competition = participant.competition
    if competition.season.is_closed:
        return []
    rounds = list(
        competition.rounds.filter(
            number__gt=max(after_round, participant.joined_round - 1)
        ).order_by("number")
    )
    if not rounds:
        return []
    absences = {
        round_id: reason
        for round_id, reason in Absence.objects.filter(
            round__in=rounds, participant=participant
        ).values_list("round_id", "reason")
    }
    games = {
        game.round_id: game for game in Game.objects.filter(round__in=rounds).involving(participant)
    }
    in_lineup = {
        round_id
        for round_id, participant_id in exchange.team_match_absences(competition, rounds)
        if participant_id == participant.pk
    }
    to_come = []
    for round_ in rounds:
        game = games.get(round_.pk)
        if round_.pk in in_lineup:
            outcome = Outcome.TEAM  # the line-up's reason wins (exchange.read_inputs)
        elif round_.pk in absences:
            outcome = absence_outcome(absences[round_.pk])
        elif game is not None:
            outcome = game.outcome_for(participant.pk)
        elif round_.is_published and round_.bye_id == participant.pk:
            outcome = Outcome.BYE
        else:
            outcome = None
        to_come.append((round_, outcome))
    return to_come


def eligibility(
    participant: Participant,
    ranking: Ranking,
    attended: int,
    change: Callable[[Round, Outcome | None], Outcome | None] | None = None,
) -> Eligibility | None:
    """The forecast after `ranking` (where the player attended `attended` rounds).
    `change(round, stored outcome)` says what a request (a cancellation previewed) would make
    of a round. None for a competition without the rule."""
    competition = participant.competition
    if not has_eligibility(competition):
        return None
    to_come = [
        change(round_, outcome) if change else outcome
        for round_, outcome in rounds_to_come(participant, ranking.after_round)
    ]
    season_rounds = competition.rounds.count()
    share = current_club().attendance_share
    return Eligibility(
        forecast(attended, season_rounds, to_come, share),
        season_rounds,
        participant.group,
        share,
    )


def verdict(eligibility: Eligibility, name: str) -> str:
    """What the forecast means for a player, on their (public) page."""
    forecast = eligibility.forecast
    numbers = {"name": name, "required": forecast.required, "count": forecast.may_miss}
    if forecast.reached:
        return _("%(name)s has attended the required %(required)s evenings.") % numbers
    if not forecast.reachable:
        return _("%(name)s can no longer reach %(required)s evenings.") % numbers
    if forecast.may_miss == 0:
        return _("%(name)s may not miss another evening.") % numbers
    return (
        ngettext(
            "%(name)s may miss %(count)s more evening.",
            "%(name)s may miss %(count)s more evenings.",
            forecast.may_miss,
        )
        % numbers
    )


def verdict_after(eligibility: Eligibility, cancelling: bool, name: str | None = None) -> str:
    """What the forecast means for the member once the change previewed is made ("Met deze
    afmelding mag je nog 2 keer missen."); with `name`, of that member, for the arbiter acting
    for them ("Met deze afmelding mag Pieter Bakker nog 2 keer missen.")."""
    forecast = eligibility.forecast
    numbers = {"required": forecast.required, "count": forecast.may_miss, "name": name}
    if name is not None:
        return _verdict_of(forecast, cancelling) % numbers
    if forecast.reached:
        return _("You have attended the required %(required)s evenings already.") % numbers
    if not forecast.reachable:
        if cancelling:
            return _("With this cancellation you can no longer reach %(required)s evenings.") % (
                numbers
            )
        return _("Even registered again you can no longer reach %(required)s evenings.") % (numbers)
    if forecast.may_miss == 0:
        if cancelling:
            return _("With this cancellation you may not miss another evening.")
        return _("Registered again you may not miss another evening.")
    if cancelling:
        sentence = ngettext(
            "With this cancellation you may miss %(count)s more evening.",
            "With this cancellation you may miss %(count)s more evenings.",
            forecast.may_miss,
        )
    else:
        sentence = ngettext(
            "Registered again you may miss %(count)s more evening.",
            "Registered again you may miss %(count)s more evenings.",
            forecast.may_miss,
        )
    return sentence % numbers


def _verdict_of(forecast, cancelling: bool) -> str:
    """`verdict_after`'s sentences about a member the arbiter acts for (third person)."""
    if forecast.reached:
        return _("%(name)s has attended the required %(required)s evenings already.")
    if not forecast.reachable:
        if cancelling:
            return _("With this cancellation %(name)s can no longer reach %(required)s evenings.")
        return _("Even registered again %(name)s can no longer reach %(required)s evenings.")
    if forecast.may_miss == 0:
        if cancelling:
            return _("With this cancellation %(name)s may not miss another evening.")
        return _("Registered again %(name)s may not miss another evening.")
    if cancelling:
        return ngettext(
            "With this cancellation %(name)s may miss %(count)s more evening.",
            "With this cancellation %(name)s may miss %(count)s more evenings.",
            forecast.may_miss,
        )
    return ngettext(
        "Registered again %(name)s may miss %(count)s more evening.",
        "Registered again %(name)s may miss %(count)s more evenings.",
        forecast.may_miss,
    )
