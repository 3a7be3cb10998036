"""The e-mails of the club's week. Plain text, Dutch, one function per occasion.

Links are built from `SITE_URL` and the URL names, never written out; amounts and shares come
from the competition's settings and the member's current value (`competition.explanations`).
"""

from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mail, send_mass_mail
from django.utils.translation import gettext as _

from base.links import link
from competition.explanations import what_it_earns
from competition.keizer.scoring import Outcome
from competition.models import Participant, Round
from members.models import Member


def _email(participant: Participant | None) -> str:
    return participant.member.email if participant and participant.member_id else ""


def _evening(round_: Round) -> str:
    return _("round %(number)s on %(date)s") % {
        "number": round_.number,
        "date": round_.date.strftime("%d-%m-%Y"),
    }


def forfeit(round_: Round, absent: Participant, opponent: Participant) -> None:
    """At once: the opponent of a player who cancelled after publication, and the arbiter."""
    subject = _("DSC: %(name)s cannot come, %(evening)s") % {
        "name": absent.name,
        "evening": _evening(round_),
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
    ) % {"name": absent.name, "evening": _evening(round_), "value": value}
    messages = [(subject, to_opponent, None, [_email(opponent)])] if _email(opponent) else []
    messages.append(
        (
            subject,
            _("%(name)s cancelled after publication; %(opponent)s wins by default.")
            % {"name": absent.name, "opponent": opponent.name},
            None,
            [settings.ARBITER_EMAIL],
        )
    )
    send_mass_mail(messages)


def registration_done(member: Member, consequences) -> None:
    """The member's own confirmation of what a cancellation or re-registration did, evening
    by evening, in the words (and numbers) of the preview they confirmed."""
    if not member.email or not member.mail_confirmations:
        return
    lines = [
        _("%(evening)s (deadline %(deadline)s): %(message)s")
        % {
            "evening": _evening(consequence.round),
            "deadline": consequence.round.cancellation_deadline.strftime("%d-%m-%Y %H:%M"),
            "message": consequence.message,
        }
        for consequence in consequences
    ]
    body = "\n".join(
        [
            _("Your change has been recorded:"),
            "",
            *lines,
            "",
            _("Your club evenings: %(link)s") % {"link": link("absences:mine")},
        ]
    )
    send_mail(_("DSC: your cancellation or registration"), body, None, [member.email])


def draft_discarded(round_: Round) -> None:
    send_mail(
        _("DSC: draft pairing of %(evening)s discarded") % {"evening": _evening(round_)},
        _(
            "A cancellation or registration changed who comes, so the draft pairing was "
            "discarded. Make it again, or the worker pairs the round at publication time."
        ),
        None,
        [settings.ARBITER_EMAIL],
    )


def auto_cancelled(participant: Participant) -> None:
    if not _email(participant):
        return
    standing = participant.latest_standing()
    earns = what_it_earns(
        Outcome.AUTO,
        participant.competition.engine_settings(),
        standing.value if standing else None,
    )
    send_mail(
        _("DSC: you have been cancelled for the coming club evenings"),
        _(
            "You did not come twice in a row without cancelling, so you have been "
            "cancelled for the coming club evenings (DSC rule k): each evening counts as "
            "cancelled automatically, %(earns)s. Register again on the site (%(link)s) or "
            "with the arbiter to be paired again."
        )
        % {"earns": earns, "link": link("absences:mine")},
        None,
        [_email(participant)],
    )


def waiting_for_results(round_: Round, problems: list[str]) -> None:
    send_mail(
        _("DSC: the pairing of %(evening)s waits") % {"evening": _evening(round_)},
        _("The pairing was not published: %(problems)s It is published as soon as this is solved.")
        % {"problems": " ".join(problems)},
        None,
        [settings.ARBITER_EMAIL],
    )


def pairing(round_: Round) -> int:
    """Every paired member their board, colour and opponent; the bye player theirs."""
    evening = _evening(round_)
    subject = _("DSC: your pairing for %(evening)s") % {"evening": evening}
    address = link("competition:pairing")
    wanted = set(round_.pairing_recipients().values_list("pk", flat=True))
    messages = []
    for game in round_.games.select_related("white__member", "black__member"):
        for player, colour, opponent in (
            (game.white, _("white"), game.black),
            (game.black, _("black"), game.white),
        ):
            if player.pk in wanted:
                body = _("Board %(board)s: you play %(colour)s against %(opponent)s.") % {
                    "board": game.board,
                    "colour": colour,
                    "opponent": opponent.name,
                }
                messages.append((subject, f"{body}\n\n{address}", None, [_email(player)]))
    if round_.bye_id in wanted:
        standing = round_.bye.latest_standing()
        earns = what_it_earns(
            Outcome.BYE,
            round_.competition.engine_settings(),
            standing.value if standing else None,
        )
        messages.append(
            (
                subject,
                _("You have the bye this round: you get %(earns)s and need not come.")
                % {"earns": earns}
                + f"\n\n{address}",
                None,
                [_email(round_.bye)],
            )
        )
    return send_mass_mail(messages)
