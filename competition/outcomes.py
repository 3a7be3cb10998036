"""The site's words for each way a player took part in a round (the engine's outcomes): one
table, for the round page and the admin (`Absence.Reason`), the player page and the ranking
e-mail (`explanations.explain`), the cancellations' log and a member's evenings
(`absences`), and what counts for the prizes' attendance (`eligibility.what_counts`)."""

from django.utils.translation import gettext_lazy as _

from competition.keizer.scoring import Outcome, absence_outcome

OUTCOME_WORDS = {
    Outcome.WIN: _("won"),
    Outcome.DRAW: _("draw"),
    Outcome.LOSS: _("lost"),
    Outcome.FORFEIT_WIN: _("won by default"),
    Outcome.FORFEIT_LOSS: _("lost by default"),
    Outcome.DOUBLE_FORFEIT: _("both lost by default"),
    Outcome.BYE: _("bye"),
    Outcome.EXCUSED: _("cancelled in time"),
    Outcome.TEAM: _("team match"),
    Outcome.LATE: _("cancelled late"),
    Outcome.UNEXCUSED: _("absent without cancelling"),
    Outcome.AUTO: _("cancelled automatically"),
    # A reason of the club's own (keizer-variants.md): the competition's settings name it.
    Outcome.ABSENT: _("absent for another reason"),
}


def reason_label(reason: str) -> str:
    """The words for an absence's reason: DSC's reasons their own (`OUTCOME_WORDS`), a reason
    of the club's own as the club wrote it in its settings (`ziek`; `half bye` for
    `half_bye`)."""
    outcome = absence_outcome(reason)
    if outcome is Outcome.ABSENT:
        return reason.replace("_", " ")
    return str(OUTCOME_WORDS[outcome])
