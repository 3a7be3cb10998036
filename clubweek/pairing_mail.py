"""The pairing's e-mails, sent by the worker (`clubweek.worker`): the pairing to every paired
member once it is published, and the arbiter's notice when a due pairing waits. Letters of the
club (`operations.letters`), worded like the cancellation e-mails (`absences.mail`), with the
letters' shared words (`members.letter_words`).

Links are built from `SITE_URL` and the URL names, never written out; the bye's share comes
from the competition's settings and the member's current value (`competition.explanations`).
"""

from __future__ import annotations

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from base.links import link
from club.models import current as current_club
from competition.explanations import what_it_earns
from competition.keizer.scoring import Outcome
from competition.models import Round
from members import links, unsubscribe
from members.letter_words import dear, email_of, evening
from operations.letters import Action, Kind, Letter, Paragraph, send


def waiting_for_results(round_: Round, problems: list[str]) -> None:
    """The arbiter, once per round: why a due pairing is not published yet."""
    send(
        [
            Letter(
                Kind.ARBITER,
                current_club().arbiter_address,
                _("the pairing of %(evening)s waits") % {"evening": evening(round_)},
                [
                    _(
                        "The pairing was not published: %(problems)s It is published as soon "
                        "as this is solved."
                    )
                    % {"problems": " ".join(problems)},
                    Action(_("To the round"), link("arbiter:round", round_.pk), alone=True),
                ],
            )
        ]
    )


def own_links(round_: Round, member) -> list[Action]:
    """The player's links without a password (`members.links`): cancelling (a forfeit now, as
    the page shows before anything happens) and, on the evening, entering the result."""
    return [
        Action(
            _("I cannot come"),
            links.address("absences:by-link", member, round_.pk, links.CANCEL),
        ),
        Action(
            _("Enter the result"),
            links.address("competition:result-by-link", member, round_.pk, links.RESULT),
            note=_("on the evening, from %(time)s")
            % {"time": timezone.localtime(round_.play_starts_at).strftime("%H:%M")},
        ),
    ]


def pairing(round_: Round) -> int:
    """Every paired member the evening's start, their board, colour and opponent, and their
    links to cancel and to enter the result; the bye player theirs."""
    subject = _("your pairing for %(evening)s") % {"evening": evening(round_)}
    when = _("Round %(number)s is on %(date)s; play starts at %(time)s.") % {
        "number": round_.number,
        "date": formats.date_format(round_.date, "l j F"),
        "time": timezone.localtime(round_.play_starts_at).strftime("%H:%M"),
    }
    address = Action(
        _("The whole pairing"), link("competition:pairing") + f"#ronde-{round_.number}"
    )
    wanted = set(round_.pairing_recipients().values_list("pk", flat=True))
    letters = []
    for game in round_.games.select_related("white__member", "black__member"):
        for player, colour, opponent in (
            (game.white, _("white"), game.black),
            (game.black, _("black"), game.white),
        ):
            if player.pk in wanted:
                board = _("Board %(board)s: you play %(colour)s against %(opponent)s.") % {
                    "board": game.board,
                    "colour": colour,
                    "opponent": opponent.name,
                }
                letters.append(
                    _letter(
                        player, subject, [when, board, *own_links(round_, player.member), address]
                    )
                )
    if round_.bye_id in wanted:
        standing = round_.bye.latest_standing()
        earns = what_it_earns(
            Outcome.BYE,
            round_.competition.engine_settings(),
            standing.value if standing else None,
        )
        bye = _("You have the bye this round: you get %(earns)s and need not come.") % {
            "earns": earns
        }
        letters.append(_letter(round_.bye, subject, [when, bye, address]))
    return send(letters)


def _letter(player, subject: str, paragraphs: list[Paragraph]) -> Letter:
    return Letter(
        Kind.PAIRING,
        email_of(player),
        subject,
        [dear(player.name), *paragraphs],
        unsubscribe=unsubscribe.address(player.member, "mail_pairing"),
    )
