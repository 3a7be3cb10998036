"""The e-mails about a member's account, as letters of the club (`operations.letters`): the
invitation, and the change of e-mail address (a confirmation to the new address, a notice to
the old one). Links come from `SITE_URL` (`base.links`)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from base.links import link
from club.models import current as current_club
from members.letter_words import dear
from members.models import Member
from operations.letters import Action, Kind, Letter, send


def days(lifetime: timedelta) -> int:
    return round(lifetime.total_seconds() / 86400)


def invitations(letters: list[tuple[Member, str]], lifetime: timedelta, now: datetime) -> int:
    """Each member their invitation: the link to choose a password (valid for `lifetime`) and
    their username. Returns how many went out (at most three an hour to one address:
    `letters.LIMITS`)."""
    subject = _("your account on the competition site")
    return send(
        [
            Letter(
                Kind.INVITATION,
                member.email,
                subject,
                [
                    dear(member.name),
                    _(
                        "The arbiter has made you an account on the site of the %(club)s "
                        "competition. With it you cancel for a club evening, enter your "
                        "results and choose which e-mails you get."
                    )
                    % {"club": current_club().short_name},
                    ngettext(
                        "Choose your password here (the link works once, for %(days)d day):",
                        "Choose your password here (the link works once, for %(days)d days):",
                        days(lifetime),
                    )
                    % {"days": days(lifetime)},
                    Action(_("Choose your password"), address, alone=True),
                    _(
                        "Your username is %(username)s; you can also log in with this "
                        "e-mail address."
                    )
                    % {"username": member.user.get_username()},
                    _("Did you not expect this e-mail? Then ignore it: nothing happens."),
                ],
            )
            for member, address in letters
        ],
        now,
    )


def confirm_new_address(member: Member, new_address: str, address: str, now: datetime) -> None:
    send(
        [
            Letter(
                Kind.ADDRESS,
                new_address,
                _("confirm your new e-mail address"),
                [
                    dear(member.name),
                    _(
                        "You asked to receive the e-mails of the %(club)s competition at this "
                        "address from now on. Confirm it here (the link works for 3 days):"
                    )
                    % {"club": current_club().short_name},
                    Action(_("Confirm my address"), address, alone=True),
                    _("Until then your e-mails keep going to your old address."),
                ],
            )
        ],
        now,
    )


def address_changed(member: Member, old_address: str) -> None:
    send(
        [
            Letter(
                Kind.ADDRESS,
                old_address,
                _("your e-mail address has been changed"),
                [
                    dear(member.name),
                    _(
                        "From now on the e-mails of the %(club)s competition go to %(address)s. "
                        "Did you not do this? Tell the arbiter."
                    )
                    % {"club": current_club().short_name, "address": member.email},
                    Action(_("Your profile"), link("members:profile")),
                ],
            )
        ]
    )


def reset_lifetime() -> timedelta:
    """How long a new password's link works (Django's setting: `accounts.reset_tokens`)."""
    return timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT)


def password_reset(member: Member, uid: str, token: str) -> None:
    """The link to choose a new password (at most three an hour to one address: the form
    answers the same either way)."""
    send(
        [
            Letter(
                Kind.PASSWORD_RESET,
                member.email,
                _("a new password for the competition site"),
                [
                    dear(member.name),
                    _(
                        "Someone, probably you, asked for a new password for the account "
                        "%(username)s on the %(club)s competition site. Choose it here:"
                    )
                    % {"username": member.user.get_username(), "club": current_club().name},
                    Action(
                        _("Choose a new password"),
                        link("password_reset_confirm", uid, token),
                        alone=True,
                    ),
                    ngettext(
                        "The link works once, for %(days)d day, and also lifts a lockout after "
                        "too many wrong passwords. Did you not ask for it? Then ignore this "
                        "e-mail: your password stays as it is.",
                        "The link works once, for %(days)d days, and also lifts a lockout after "
                        "too many wrong passwords. Did you not ask for it? Then ignore this "
                        "e-mail: your password stays as it is.",
                        days(reset_lifetime()),
                    )
                    % {"days": days(reset_lifetime())},
                ],
            )
        ]
    )
