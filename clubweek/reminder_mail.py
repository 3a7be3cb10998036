"""The Friday reminder (`Member.mail_reminder`, off by default): on the deadline's day, to each
member who asked for it and is still registered, that cancelling is possible until the deadline,
with the link that needs no password (`members.links`)."""

from __future__ import annotations

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from competition.models import Round
from members import links, unsubscribe
from members.letter_words import dear, evening
from operations.letters import Action, Kind, Letter, send


def reminder(round_: Round) -> int:
    """The round's reminder to every member who wants it and has not cancelled."""
    deadline = timezone.localtime(round_.cancellation_deadline)
    absent = set(round_.absences.values_list("participant_id", flat=True))
    players = (
        round_.competition.participants.filter(
            member__mail_reminder=True, member__is_active=True, joined_round__lte=round_.number
        )
        .exclude(member__email="")
        .exclude(pk__in=absent)
        .select_related("member")
    )
    subject = _("%(evening)s: cancel until %(time)s today") % {
        "evening": evening(round_),
        "time": formats.time_format(deadline, "H:i"),
    }
    return send(
        [
            Letter(
                Kind.REMINDER,
                player.member.email,
                subject,
                [
                    dear(player.name),
                    _(
                        "Round %(number)s is on %(date)s. Cannot come? Cancel until "
                        "%(time)s today; after that a cancellation is late."
                    )
                    % {
                        "number": round_.number,
                        "date": formats.date_format(round_.date, "l j F"),
                        "time": formats.time_format(deadline, "H:i"),
                    },
                    Action(
                        _("I cannot come"),
                        links.address("absences:by-link", player.member, round_.pk, links.CANCEL),
                    ),
                    _("You get this reminder because you asked for it on your profile."),
                ],
                unsubscribe=unsubscribe.address(player.member, "mail_reminder"),
            )
            for player in players
        ]
    )
