"""The e-mails about a member's account: the invitation, and the change of e-mail address (a
confirmation to the new address, a notice to the old one). Plain text, Dutch, one function per
occasion; links come from `SITE_URL` (`base.links`)."""

from __future__ import annotations

from django.core.mail import send_mail, send_mass_mail
from django.utils.translation import gettext as _

from base.links import link
from members.models import Member


def invitations(letters: list[tuple[Member, str]]) -> int:
    """Each member their invitation: the link to choose a password and their username."""
    subject = _("DSC: your account on the competition site")
    messages = [
        (
            subject,
            "\n\n".join(
                [
                    _("Dear %(name)s,") % {"name": member.name},
                    _(
                        "The arbiter has made you an account on the site of the DSC "
                        "competition. With it you cancel for a club evening, enter your "
                        "results and choose which e-mails you get."
                    ),
                    _("Choose your password here (the link works once, for 14 days):"),
                    address,
                    _(
                        "Your username is %(username)s; you can also log in with this "
                        "e-mail address."
                    )
                    % {"username": member.user.get_username()},
                    _("Did you not expect this e-mail? Then ignore it: nothing happens."),
                    "DSC Drachten",
                ]
            ),
            None,
            [member.email],
        )
        for member, address in letters
    ]
    return send_mass_mail(messages)


def confirm_new_address(member: Member, new_address: str, address: str) -> None:
    send_mail(
        _("DSC: confirm your new e-mail address"),
        "\n\n".join(
            [
                _("Dear %(name)s,") % {"name": member.name},
                _(
                    "You asked to receive the e-mails of the DSC competition at this address "
                    "from now on. Confirm it here (the link works for 3 days):"
                ),
                address,
                _("Until then your e-mails keep going to your old address."),
                "DSC Drachten",
            ]
        ),
        None,
        [new_address],
    )


def address_changed(member: Member, old_address: str) -> None:
    send_mail(
        _("DSC: your e-mail address has been changed"),
        "\n\n".join(
            [
                _("Dear %(name)s,") % {"name": member.name},
                _(
                    "From now on the e-mails of the DSC competition go to %(address)s. Did you "
                    "not do this? Tell the arbiter."
                )
                % {"address": member.email},
                _("Your profile: %(link)s") % {"link": link("members:profile")},
                "DSC Drachten",
            ]
        ),
        None,
        [old_address],
    )
