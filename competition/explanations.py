"""How the site says what a round is worth, in the competition's own numbers.

`share_of_value` is the one wording of a share of a player's value ("⅓ van je waarde 47 = 15⅔
punten"), for the player page, the cancellation preview and the e-mails; the share itself is
always the engine's (`scoring.own_share`, from the competition's settings). `explain` is the
line per round on the player page, built from a stored snapshot.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from fractions import Fraction

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from competition.amounts import format_amount
from competition.keizer import scoring
from competition.keizer.scoring import Appearance, Outcome, counts_as_absence, own_share, points
from competition.keizer.season import Settings
from competition.outcomes import OUTCOME_WORDS, reason_label


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


GAME_WORDS = {
    Outcome.WIN: gettext_lazy("won against %(opponent)s"),
    Outcome.DRAW: gettext_lazy("drew with %(opponent)s"),
    Outcome.LOSS: gettext_lazy("lost against %(opponent)s"),
    Outcome.FORFEIT_WIN: gettext_lazy("%(opponent)s did not come (won by default)"),
    Outcome.FORFEIT_LOSS: gettext_lazy("did not come against %(opponent)s (forfeit)"),
    Outcome.DOUBLE_FORFEIT: gettext_lazy("both missed the default time against %(opponent)s"),
}


def explain(
    appearance: Appearance | None,
    opponent_name: str,
    own_value: int,
    opponent_value: int,
    amount: Fraction,
    settings: Settings,
    counted: int = 0,
    before_joining: bool = False,
) -> str:
    """The sentence for one round in the words of the competition's Keizer: the share of the
    opponent's value a game earns, the share of the own value (or the fixed points) of the bye
    or an absence, for the club's own reasons in the club's word, an absence beyond the limit
    or halved for those before it (`counted`: the absences counted before this one).
    `appearance` None means the player took no part; `before_joining` that they were in the
    field before they joined (late_join `handicap`). `amount` is what the round earned, as
    stored."""
    points = format_amount(amount)
    if appearance is None:
        if before_joining and settings.late_join == "handicap":
            return _("not playing yet: %(points)s points a round before joining") % {
                "points": points
            }
        return _("did not take part → 0 points")
    outcome = appearance.outcome
    rule = scoring.amount(outcome, settings, appearance.reason, counted)
    if outcome in GAME_WORDS:
        what = GAME_WORDS[outcome] % {"opponent": opponent_name}
        if rule.opponent == 0:
            return _("%(what)s → %(points)s points") % {"what": what, "points": points}
        part = _of_value(rule.opponent, opponent_value)
        return _("%(what)s, %(part)s → %(points)s points") % {
            "what": what,
            "part": part,
            "points": points,
        }
    words = reason_label(appearance.reason) if outcome is Outcome.ABSENT else OUTCOME_WORDS[outcome]
    key = appearance.reason or outcome.value
    limit = settings.absence_limit
    if limit and counts_as_absence(outcome, key, settings) and counted >= limit:
        return _("%(what)s: more than %(limit)s absences → 0 points") % {
            "what": words,
            "limit": limit,
        }
    if rule.fixed:
        said = _("%(points)s points, a fixed amount") % {"points": format_amount(rule.fixed)}
    else:
        whole = amount if not rule.halvings else rule.own * own_value
        said = share_of_value(rule.own, own_value, whole, yours=False)
    if rule.halvings:
        said = ngettext(
            "%(said)s, halved for the absence before → %(points)s points",
            "%(said)s, halved for each of the %(count)s absences before → %(points)s points",
            rule.halvings,
        ) % {"said": said, "count": rule.halvings, "points": points}
    return f"{words}: {said}"


def _of_value(share: Fraction, value: int) -> str:
    """A share of the opponent's value, in words: "value 47", "half of value 47"."""
    if share == 1:
        return _("value %(value)s") % {"value": value}
    if share == Fraction(1, 2):
        return _("half of value %(value)s") % {"value": value}
    return _("%(share)s of value %(value)s") % {"share": format_amount(share), "value": value}


def counted_absences(stored: Iterable[dict], settings: Settings) -> Counter:
    """{participant key: how many of their absences count towards the limit (and the
    decay)} in these rounds' stored appearances (`Ranking.appearances`); nothing to count
    without a limit or decay."""
    counted: Counter = Counter()
    if not (settings.absence_limit or settings.absence_decay):
        return counted
    for appearances in stored:
        for key, (outcome, _opponent, _match, *reason) in appearances.items():
            if counts_as_absence(Outcome(outcome), reason[0] if reason else None, settings):
                counted[int(key)] += 1
    return counted
