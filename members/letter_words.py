"""The words the club's letters to members share: the greeting, a player's address and the
name of a club evening. `operations.letters` gives every letter its shape; these are the few
words that more than one letter writes (`members.mail`, `absences.mail` and the club week's
e-mails in `clubweek`).

Here, below the competition in the house, because the members' own letters greet too: a player
(`competition.models.Participant`) and a round (`competition.models.Round`) are read by their
fields, not imported.
"""

from __future__ import annotations

from django.utils import formats
from django.utils.translation import gettext as _


def dear(name: str) -> str:
    """The greeting that opens a letter to a member ("Beste Jansen,")."""
    return _("Dear %(name)s,") % {"name": name}


def email_of(participant) -> str:
    """A player's address; none for a guest without a member (or without an address)."""
    return participant.member.email if participant and participant.member_id else ""


def evening(round_) -> str:
    """A club evening as the letters name it, in subject and body alike ("ronde 4 op
    donderdag 24 september")."""
    return _("round %(number)s on %(date)s") % {"number": round_.number, "date": day(round_.date)}


def day(date) -> str:
    """A date as the letters write it ("donderdag 24 september")."""
    return formats.date_format(date, "l j F")
