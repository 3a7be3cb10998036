"""One line per round explaining a player's points ("won against de Zeeuw, value 50 → 50")."""

from __future__ import annotations

from fractions import Fraction

from django.utils.translation import gettext as _

from competition.keizer.scoring import Appearance, Outcome
from competition.keizer.season import Settings
from competition.templatetags.keizer import format_amount, format_fraction


def explain(
    appearance: Appearance | None,
    opponent_name: str,
    own_value: int,
    opponent_value: int,
    points: Fraction,
    settings: Settings,
) -> str:
    """The sentence for one round; `appearance` None means the player took no part."""
    values = {
        "opponent": opponent_name,
        "own": own_value,
        "value": opponent_value,
        "points": format_amount(points),
    }
    if appearance is None:
        return _("did not take part → 0 points")
    shares = {
        Outcome.BYE: settings.bye_fraction,
        Outcome.EXCUSED: settings.excused_fraction,
        Outcome.TEAM: settings.team_fraction,
        Outcome.AUTO: settings.auto_absence_fraction,
    }
    if appearance.outcome in shares:
        values["share"] = format_fraction(shares[appearance.outcome])
    sentences = {
        Outcome.WIN: _("won against %(opponent)s, value %(value)s → %(points)s points"),
        Outcome.DRAW: _("drew with %(opponent)s, half of value %(value)s → %(points)s points"),
        Outcome.LOSS: _("lost against %(opponent)s → 0 points"),
        Outcome.FORFEIT_WIN: _(
            "%(opponent)s did not come (won by default), value %(value)s → %(points)s points"
        ),
        Outcome.FORFEIT_LOSS: _("did not come against %(opponent)s (forfeit) → 0 points"),
        Outcome.DOUBLE_FORFEIT: _("both missed the default time against %(opponent)s → 0 points"),
        Outcome.BYE: _("bye: %(share)s × own value %(own)s → %(points)s points"),
        Outcome.EXCUSED: _("cancelled in time: %(share)s × own value %(own)s → %(points)s points"),
        Outcome.TEAM: _("team match: %(share)s × own value %(own)s → %(points)s points"),
        Outcome.LATE: _("cancelled after the deadline → 0 points"),
        Outcome.UNEXCUSED: _("absent without cancelling → 0 points"),
        Outcome.AUTO: _(
            "cancelled automatically: %(share)s × own value %(own)s → %(points)s points"
        ),
    }
    return sentences[appearance.outcome] % values
