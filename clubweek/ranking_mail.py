"""The new ranking by e-mail (`Member.mail_ranking`), sent by the worker once a round's
results are final (`Round.objects.ranking_mail_due`).

Each member who chose it gets their new position and how it changed, their points of the round
(the player page's own sentence for it, `explanations.explain`), and the top of the standings
with a link to the whole. Everything is read from the stored snapshots, rankings k and k − 1;
nothing is computed here. Letters of the club (`operations.letters`), like the other e-mails.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from base.links import link
from club.models import current as current_club
from competition.amounts import format_amount
from competition.explanations import counted_absences, explain
from competition.keizer.scoring import Appearance
from competition.models import Ranking, Round, Standing
from members import unsubscribe
from members.letter_words import day, dear
from operations.letters import Action, Kind, Letter, Paragraph, send


def new_ranking(round_: Round) -> int:
    """Every member who chose it their new ranking after `round_`; returns how many e-mails
    went out (none when the round has no stored ranking)."""
    competition = round_.competition
    ranking = competition.rankings.filter(after_round=round_.number).first()
    if ranking is None:
        return 0
    recipients = list(ranking.mail_recipients())
    if not recipients:
        return 0
    standings = list(ranking.standings.select_related("participant__member").order_by("position"))
    by_player = {standing.participant_id: standing for standing in standings}
    before = dict(
        Standing.objects.filter(
            ranking__competition=competition, ranking__after_round=round_.number - 1
        ).values_list("participant_id", "position")
    )
    subject = _("the new ranking after round %(number)s") % {"number": round_.number}
    settings = competition.engine_settings()
    counted = counted_absences(
        competition.rankings.filter(after_round__range=(1, round_.number - 1))
        .values_list("appearances", flat=True)
        .iterator()
        if settings.absence_limit or settings.absence_decay
        else (),
        settings,
    )
    return send(
        [
            Letter(
                Kind.RANKING,
                own.participant.member.email,
                subject,
                _body(round_, ranking, standings, by_player, before, own, (settings, counted)),
                unsubscribe=unsubscribe.address(own.participant.member, "mail_ranking"),
            )
            for own in recipients
        ]
    )


def _body(round_, ranking, standings, by_player, before, own, keizer) -> list[Paragraph]:
    """`keizer`: the competition's settings, and the absences each player had before the
    round that count towards a limit or decay (`explanations.counted_absences`)."""
    top = current_club().ranking_mail_length
    return [
        dear(own.participant.name),
        _("The results of round %(number)s on %(date)s are final.")
        % {"number": round_.number, "date": day(round_.date)},
        "\n".join(
            [
                _(
                    "You are now number %(position)s of %(count)s with %(total)s points "
                    "(value %(value)s)."
                )
                % {
                    "position": own.position,
                    "count": len(standings),
                    "total": format_amount(own.total),
                    "value": own.value,
                },
                _change(own.position, before.get(own.participant_id)),
                _("Round %(number)s: %(points)s.")
                % {
                    "number": round_.number,
                    "points": _round_points(ranking, own, by_player, *keizer),
                },
            ]
        ),
        "\n".join([_("The top %(count)s:") % {"count": top}, *_top(standings, own, top)]),
        [
            Action(_("The whole ranking"), link("competition:standings")),
            Action(
                _("Your rounds, each explained"), link("competition:player", own.participant_id)
            ),
        ],
        why_you_get_it(),
    ]


def why_you_get_it() -> list[str | Action]:
    return [
        _("You get this e-mail because you asked for it on your profile."),
        Action(_("Your profile"), link("members:profile")),
    ]


def _change(position: int, previous: int | None) -> str:
    """How the member's place changed since the previous ranking."""
    if previous is None:
        return _("You are in the ranking for the first time.")
    places = previous - position
    if places > 0:
        return ngettext(
            "In the previous ranking you were number %(before)s: up %(places)s place.",
            "In the previous ranking you were number %(before)s: up %(places)s places.",
            places,
        ) % {"before": previous, "places": places}
    if places < 0:
        return ngettext(
            "In the previous ranking you were number %(before)s: down %(places)s place.",
            "In the previous ranking you were number %(before)s: down %(places)s places.",
            -places,
        ) % {"before": previous, "places": -places}
    return _("In the previous ranking you were number %(before)s too.") % {"before": previous}


def _round_points(ranking: Ranking, own: Standing, by_player, settings, counted) -> str:
    """The player page's sentence for the round: how the member took part and what it earned,
    valued as in this ranking."""
    part = ranking.appearance_of(own.participant_id)
    opponent = by_player.get(part[1]) if part and part[1] else None
    return explain(
        Appearance(part[0], part[1], None, part[3]) if part else None,
        opponent.participant.name if opponent else "",
        own.valuation_value,
        opponent.valuation_value if opponent else 0,
        own.round_points[ranking.after_round - 1],
        settings,
        counted=counted[own.participant_id],
        before_joining=ranking.after_round < own.participant.joined_round,
    )


def _top(standings: list[Standing], own: Standing, top: int) -> list[str]:
    """The first `top` lines of the standings (the club's length: DSC's 10); the member's own
    line marked, and added after them when the member is further down."""

    you = _("you")

    def line(standing: Standing) -> str:
        text = f"{standing.position}. {standing.participant.name}: {format_amount(standing.total)}"
        return f"{text} ← {you}" if standing.pk == own.pk else text

    lines = [line(standing) for standing in standings[:top]]
    if own.position > top:
        lines += ["…", line(own)]
    return lines


def correction(ranking: Ranking) -> int:
    """The members who get the ranking by e-mail hear once that a ranking they were sent has
    been corrected: why, and where they stand in it now."""
    recipients = list(ranking.mail_recipients())
    subject = _("the ranking after round %(number)s has been corrected") % {
        "number": ranking.after_round
    }
    address = link("competition:standings-round", ranking.after_round)
    return send(
        [
            Letter(
                Kind.CORRECTION,
                own.participant.member.email,
                subject,
                [
                    dear(own.participant.name),
                    _("The ranking after round %(number)s has been corrected: %(reason)s.")
                    % {"number": ranking.after_round, "reason": ranking.correction},
                    _("You are now number %(position)s with %(total)s points.")
                    % {"position": own.position, "total": format_amount(own.total)},
                    Action(_("The corrected ranking"), address),
                    why_you_get_it(),
                ],
                unsubscribe=unsubscribe.address(own.participant.member, "mail_ranking"),
            )
            for own in recipients
        ]
    )
