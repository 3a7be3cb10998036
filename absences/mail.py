"""The e-mails a cancellation causes at once, as letters of the club (`operations.letters`), one
function per occasion: the forfeit to the opponent and the arbiter, the member's confirmation,
the discarded draft to the arbiter, the automatic cancellation of rule k.

Links are built from `SITE_URL` and the URL names, never written out; amounts and shares come
from the competition's settings and the member's current value (`competition.explanations`).
The greeting, a player's address and an evening's name are the letters' shared words
(`members.letter_words`).
"""

from __future__ import annotations

from django.utils import formats, timezone
from django.utils.text import get_text_list
from django.utils.translation import gettext as _

from absences.models import Registration
from base.links import link
from club.models import current as current_club
from competition.explanations import what_it_earns
from competition.keizer.scoring import Outcome
from competition.models import Participant, Round
from members import links, unsubscribe
from members.letter_words import dear, email_of, evening
from members.models import Member
from operations.letters import Action, Kind, Letter, send


def forfeit(round_: Round, absent: Participant, opponent: Participant) -> None:
    """At once: the opponent of a player who cancelled after publication, and the arbiter."""
    subject = _("%(name)s cannot come, %(evening)s") % {
        "name": absent.name,
        "evening": evening(round_),
    }
    standing = absent.latest_standing()
    value = (
        _("%(name)s's value, %(value)s points now") % {"name": absent.name, "value": standing.value}
        if standing
        else _("%(name)s's value") % {"name": absent.name}
    )
    to_opponent = _(
        "%(name)s has cancelled for %(evening)s after the pairing was published. You win by "
        "default (vrijgesteld) and get %(value)s; you need not come, but you are "
        "welcome to play a friendly game."
    ) % {"name": absent.name, "evening": evening(round_), "value": value}
    letters = [
        Letter(
            Kind.FORFEIT,
            email_of(opponent),
            subject,
            [
                dear(opponent.name),
                to_opponent,
                Action(
                    _("The pairing of the round"),
                    link("competition:pairing") + f"#ronde-{round_.number}",
                ),
            ],
        ),
        Letter(
            Kind.ARBITER,
            current_club().arbiter_address,
            subject,
            [
                _("%(name)s cancelled after publication; %(opponent)s wins by default.")
                % {"name": absent.name, "opponent": opponent.name},
                Action(_("To the round"), link("arbiter:round", round_.pk), alone=True),
            ],
        ),
    ]
    send(letters)


def confirms_by_mail(member: Member) -> bool:
    """Whether a change of the member's own gets a confirmation by e-mail (`registration_done`):
    an address, and they want it."""
    return bool(member.email) and member.mail_confirmations


def registration_done(member: Member, consequences) -> None:
    """The member's own confirmation of what a cancellation or re-registration did, evening
    by evening, in the words (and numbers) of the preview they confirmed."""
    if not confirms_by_mail(member):
        return
    lines: list[str | Action] = []
    for consequence in consequences:
        round_ = consequence.round
        if round_.is_published:  # however early: its deadline promises nothing any more
            line = _("%(evening)s (pairing published): %(message)s")
        else:
            line = _("%(evening)s (deadline %(deadline)s): %(message)s")
        lines.append(
            line
            % {
                "evening": evening(round_),
                "deadline": formats.date_format(
                    timezone.localtime(round_.cancellation_deadline), "l j F H:i"
                ),
                "message": consequence.message,
            }
        )
        lines.append(change_back(member, consequence))
    send(
        [
            Letter(
                Kind.CONFIRMATION,
                member.email,
                confirmation_subject(consequences),
                [
                    dear(member.name),
                    _("Your change has been recorded:"),
                    lines,
                    Action(_("Your club evenings"), link("absences:mine")),
                ],
                unsubscribe=unsubscribe.address(member, "mail_confirmations"),
            )
        ]
    )


def confirmation_subject(consequences) -> str:
    """What changed for which evenings: "your cancellation for round 4 on Thursday 24
    September", a registration likewise, both when one change did both."""
    cancelled = [c.round for c in consequences if c.outcome != Registration.Outcome.PRESENT]
    registered = [c.round for c in consequences if c.outcome == Registration.Outcome.PRESENT]
    parts = []
    if cancelled:
        parts.append(_("your cancellation for %(evenings)s") % {"evenings": evenings(cancelled)})
    if registered:
        parts.append(_("your registration for %(evenings)s") % {"evenings": evenings(registered)})
    return "; ".join(parts)


def evenings(rounds) -> str:
    return str(get_text_list([evening(round_) for round_ in rounds], _("and")))


def change_back(member: Member, consequence) -> str | Action:
    """The link without a password that undoes the change for that evening (`members.links`):
    "Ik kom toch" after a cancellation, "Ik kan niet komen" after a registration; after a
    forfeit no link (nothing undoes it) but how to reach the arbiter."""
    if consequence.outcome == Registration.Outcome.FORFEIT:  # the pairing is fixed
        return _(
            "Coming after all? The pairing is fixed: only the arbiter can change it. Reply to "
            "this e-mail to reach the arbiter."
        )
    if consequence.outcome == Registration.Outcome.PRESENT:
        words, purpose = _("I cannot come after all"), links.CANCEL
    else:
        words, purpose = _("I can come after all"), links.REGISTER
    return Action(words, links.address("absences:by-link", member, consequence.round.pk, purpose))


def draft_discarded(round_: Round) -> None:
    """The arbiter: a change dropped the draft pairing, naming whose change it was."""
    round_.refresh_from_db(fields=["draft_discarded_because"])
    because = round_.draft_discarded_because
    send(
        [
            Letter(
                Kind.ARBITER,
                current_club().arbiter_address,
                _("draft pairing of %(evening)s discarded") % {"evening": evening(round_)},
                [
                    *(
                        [_("Discarded because of: %(because)s.") % {"because": because}]
                        if because
                        else []
                    ),
                    _(
                        "A cancellation or registration changed who comes, so the draft pairing "
                        "was discarded. Make it again, or the worker pairs the round at "
                        "publication time."
                    ),
                    Action(_("To the round"), link("arbiter:round", round_.pk), alone=True),
                ],
            )
        ]
    )


def auto_cancelled(participant: Participant) -> None:
    if not email_of(participant):
        return
    standing = participant.latest_standing()
    earns = what_it_earns(
        Outcome.AUTO,
        participant.competition.engine_settings(),
        standing.value if standing else None,
    )
    send(
        [
            Letter(
                Kind.AUTO_CANCELLED,
                email_of(participant),
                _("you have been cancelled for the coming club evenings"),
                [
                    dear(participant.name),
                    _(
                        "You did not come %(times)s in a row without cancelling, so you have been "
                        "cancelled for the coming club evenings (%(club)s rule k): each evening "
                        "counts as cancelled automatically, %(earns)s. Register again on the site "
                        "or with the arbiter to be paired again."
                    )
                    % {
                        "club": current_club().short_name,
                        "earns": earns,
                        "times": current_club().no_shows_in_words,
                    },
                    Action(_("Your club evenings"), link("absences:mine")),
                ],
            )
        ]
    )
