"""The e-mails the club's rules call for. Plain text, Dutch, one function per occasion."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mail, send_mass_mail
from django.utils.translation import gettext as _

from competition.models import Participant, Round


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
    to_opponent = _(
        "%(name)s has cancelled for %(evening)s after the pairing was published. You win by "
        "default (vrijgesteld) and get %(name)s's value; you need not come, but you are "
        "welcome to play a friendly game."
    ) % {"name": absent.name, "evening": _evening(round_)}
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
    send_mail(
        _("DSC: you have been cancelled for the coming club evenings"),
        _(
            "You did not come twice in a row without cancelling, so you have been "
            "cancelled for the coming club evenings (DSC rule k). Register again on the "
            "site (Mijn afmeldingen) or with the arbiter to be paired again."
        ),
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
    link = f"{settings.SITE_URL}/indeling/"
    messages = []
    for game in round_.games.select_related("white__member", "black__member"):
        for player, colour, opponent in (
            (game.white, _("white"), game.black),
            (game.black, _("black"), game.white),
        ):
            if _email(player):
                body = _("Board %(board)s: you play %(colour)s against %(opponent)s.") % {
                    "board": game.board,
                    "colour": colour,
                    "opponent": opponent.name,
                }
                messages.append((subject, f"{body}\n\n{link}", None, [_email(player)]))
    if round_.bye_id and _email(round_.bye):
        messages.append(
            (
                subject,
                _("You have the bye this round: you get your own value and need not come.")
                + f"\n\n{link}",
                None,
                [_email(round_.bye)],
            )
        )
    return send_mass_mail(messages)
