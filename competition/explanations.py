"""How the site says what a round is worth, in the competition's own numbers.

`share_of_value` is the one wording of a share of a player's value ("⅓ van je waarde 47 = 15⅔
punten"), for the player page, the cancellation preview and the e-mails; the share itself is
always the engine's (`scoring.own_share`, from the competition's settings). `explain` is the
line per round on the player page, built from a stored snapshot.
"""

from __future__ import annotations

from fractions import Fraction

from django.utils.translation import gettext as _

from competition.amounts import format_amount
from competition.keizer.scoring import Appearance, Outcome, own_share, points
from competition.keizer.season import Settings
from competition.outcomes import OUTCOME_WORDS


def share_of_value(share: Fraction, value: int | None, amount: Fraction, yours: bool) -> str:
    """ "⅓ of your value 47 = 15⅔ points" (or "own value" on a public page); "0 points" when
    the share is nothing; without a value (not ranked yet) just the share."""
    if share == 0:
        return _("%(points)s points") % {"points": format_amount(amount)}
    numbers = {"share": format_amount(share), "value": value, "points": format_amount(amount)}
    if share == 1:
        if value is None:
            return _("your value") if yours else _("own value")
        if yours:
            return _("your value %(value)s = %(points)s points") % numbers
        return _("own value %(value)s = %(points)s points") % numbers
    if value is None:
        return (_("%(share)s of your value") if yours else _("%(share)s of own value")) % numbers
    if yours:
        return _("%(share)s of your value %(value)s = %(points)s points") % numbers
    return _("%(share)s of own value %(value)s = %(points)s points") % numbers


def what_it_earns(
    outcome: Outcome, settings: Settings, value: int | None, yours: bool = True
) -> str:
    """What an absence (or the bye) earns a member now, with the competition's share and
    their current value: the engine's points table, worded to the member ("your value"), or
    of them (`yours=False`: "own value")."""
    amount = points(Appearance(outcome), value or 0, 0, settings)
    return share_of_value(own_share(outcome, settings), value, amount, yours=yours)


def explain(
    appearance: Appearance | None,
    opponent_name: str,
    own_value: int,
    opponent_value: int,
    amount: Fraction,
    settings: Settings,
) -> str:
    """The sentence for one round; `appearance` None means the player took no part."""
    if appearance is None:
        return _("did not take part → 0 points")
    games = {
        Outcome.WIN: _("won against %(opponent)s, value %(value)s → %(points)s points"),
        Outcome.DRAW: _("drew with %(opponent)s, half of value %(value)s → %(points)s points"),
        Outcome.LOSS: _("lost against %(opponent)s → %(points)s points"),
        Outcome.FORFEIT_WIN: _(
            "%(opponent)s did not come (won by default), value %(value)s → %(points)s points"
        ),
        Outcome.FORFEIT_LOSS: _("did not come against %(opponent)s (forfeit) → %(points)s points"),
        Outcome.DOUBLE_FORFEIT: _(
            "both missed the default time against %(opponent)s → %(points)s points"
        ),
    }
    if appearance.outcome in games:
        return games[appearance.outcome] % {
            "opponent": opponent_name,
            "value": opponent_value,
            "points": format_amount(amount),
        }
    share = share_of_value(own_share(appearance.outcome, settings), own_value, amount, yours=False)
    return f"{OUTCOME_WORDS[appearance.outcome]}: {share}"
