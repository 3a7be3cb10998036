"""Who plays in a competition: ranking 0 and groups at the start, newcomers during the season.

Ratings come from the members app; the Keizer rules (where a newcomer lands) stay in the
engine, which this module runs to show the arbiter the exact resulting position.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from math import floor

from django.db import transaction
from django.utils.translation import gettext as _

from club.models import current as current_club
from competition import exchange
from competition.keizer.newcomers import with_newcomers
from competition.keizer.ranking import compute_rankings
from competition.keizer.season import Player
from competition.keizer.values import value_at
from competition.models import Competition, Participant
from competition.services import CompetitionError, recompute_rankings
from members.groups import group_for_rating, split_into_groups
from members.models import Member, Rating, RatingList


def rating_value(member: Member) -> int | None:
    return member.rating.value if member.rating else None


@transaction.atomic
def fill_initial_ranking(
    competition: Competition,
    members: list[Member],
    rating_list: RatingList | None = None,
    previous: Competition | None = None,
) -> list[Participant]:
    """Ranking 0 of a new season and the club's groups (DSC: A–D).

    Order: by the final ranking of `previous` when given (members not in it follow, by rating),
    else by the rating on `rating_list` (estimates for members not on it), strongest first.
    Groups always follow the rating. Refused once a round has been paired.
    """
    if competition.is_under_way:
        raise CompetitionError(_("Ranking 0 cannot change once a round has been paired."))
    rated = list(Member.objects.filter(pk__in=[m.pk for m in members]).with_ratings(rating_list))
    by_rating = sorted(rated, key=lambda m: (-(rating_value(m) or 0), m.name))
    order = by_rating
    if previous is not None:
        final = previous.rankings.order_by("-after_round").first()
        position = {}
        if final is not None:
            position = dict(
                final.standings.filter(participant__member__isnull=False).values_list(
                    "participant__member_id", "position"
                )
            )
        order = sorted(by_rating, key=lambda m: position.get(m.pk, len(position) + 1))
    groups = split_into_groups([m.pk for m in by_rating], current_club().groups)
    competition.participants.all().delete()
    participants = Participant.objects.bulk_create(
        Participant(
            competition=competition, member=member, initial_position=index, group=groups[member.pk]
        )
        for index, member in enumerate(order, start=1)
    )
    recompute_rankings(competition)
    return participants


@dataclass(frozen=True)
class NewcomerPreview:
    """Where a newcomer lands. Once the ranking before their first round is there, `position`
    is their place in it (`waits` False); while the round before is paired but not complete,
    the newcomer waits for its results (`waits` True) and `position` is where rule 5 inserts
    them into the ranking before that (ranking joined_round − 2): exact, known now."""

    member: Member
    joined_round: int
    start_points: Fraction
    suggested_start_points: Fraction
    position: int
    of_players: int
    group: str
    neighbours: list[tuple[int, str, Rating | None]]  # position, name, rating around them
    waits: bool
    changes_published: bool  # the ranking before their first round is final already

    @property
    def ranking(self) -> int:
        """The ranking `position` is a place in."""
        return self.joined_round - (2 if self.waits else 1)


def played_rounds(competition: Competition) -> int:
    return (
        competition.rankings.order_by("-after_round").values_list("after_round", flat=True).first()
        or 0
    )


def joining_rounds(competition: Competition) -> range:
    """The rounds a newcomer can join now: from the first round not paired yet (never round 1:
    ranking 0 holds who plays from the start) to the round after the next ranking, which rule 5
    can insert them into once its round's results are in (issue 37: a newcomer who comes
    while a round is paired waits for its results, and nothing published changes)."""
    paired = (
        competition.rounds.filter(games__isnull=False)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
        or 0
    )
    played = played_rounds(competition)
    return range(max(paired + 1, played + 1, 2), played + 3)


def suggest_start_points(competition: Competition, member: Member, joined_round: int) -> Fraction:
    """Start points that put the newcomer just above the strongest player rated at or below
    them, in the ranking the engine inserts newcomers into (ranking joined_round − 2)."""
    reference = competition.rankings.filter(after_round=max(joined_round - 2, 0)).first()
    if reference is None:
        return Fraction(0)
    rating = rating_value(member)
    standings = list(reference.standings.select_related("participant__member").order_by("position"))
    members = Member.objects.filter(
        pk__in=[s.participant.member_id for s in standings if s.participant.member_id]
    ).with_ratings()
    ratings = {m.pk: rating_value(m) for m in members}
    target = next(
        (
            s
            for s in standings
            if rating is not None and (ratings.get(s.participant.member_id) or 0) <= rating
        ),
        None,
    )
    if target is None:
        return Fraction(0)
    # Inserted at the first position i where value(i) + X > the total there (rules, section 5);
    # value(i) is the value of that position, `Standing.value`.
    return Fraction(max(floor(target.total - target.value) + 1, 0))


def preview_newcomer(
    competition: Competition,
    member: Member,
    joined_round: int,
    start_points: Fraction | None,
    now: datetime,
) -> NewcomerPreview:
    rounds = joining_rounds(competition)
    said = {"name": member, "round": joined_round, "first": rounds[0], "last": rounds[-1]}
    if joined_round < rounds[0]:
        raise CompetitionError(
            _("Round %(round)s is paired already: %(name)s can join from round %(first)s.") % said
        )
    if joined_round > rounds[-1]:
        raise CompetitionError(
            _(
                "Round %(round)s is too far ahead: %(name)s can join in round %(last)s at the "
                "latest."
            )
            % said
        )
    if member.pk and competition.participants.filter(member=member).exists():
        raise CompetitionError(_("%(name)s already plays in this competition.") % {"name": member})
    suggested = suggest_start_points(competition, member, joined_round)
    start_points = suggested if start_points is None else start_points
    season = exchange.season_for(competition)
    season = season._replace(
        players=(*season.players, Player("newcomer", member.name, joined_round, start_points))
    )
    rankings = compute_rankings(season)
    waits = len(rankings) < joined_round
    if waits:  # where rule 5 will insert them, from the ranking before (the engine's rule)
        before = rankings[joined_round - 2]
        joining = [(p.id, p.start_points) for p in season.players if p.joined_round == joined_round]
        size = len(before.order) + len(joining)  # the field's size the engine values them in
        values = [value_at(place, season.settings, size) for place in range(1, size + 1)]
        order = with_newcomers(
            before.order, {s.player_id: s.total for s in before.standings}, values, joining
        )
    else:
        order = list(rankings[joined_round - 1].order)
    position = order.index("newcomer") + 1
    names = {p.engine_id: p for p in competition.participants.select_related("member")}
    rated = {
        m.pk: m.rating
        for m in Member.objects.filter(participations__competition=competition).with_ratings()
    }
    neighbours = []
    for place, key in enumerate(order[max(position - 3, 0) : position + 2], max(position - 2, 1)):
        if key == "newcomer":
            neighbours.append((place, member.name, member.rating))
        else:
            participant = names[key]
            neighbours.append((place, participant.name, rated.get(participant.member_id)))
    # Final already: the ranking before their first round, when it is there (not waiting).
    changes_published = (
        not waits and competition.rounds.filter(number=joined_round - 1).results_final(now).exists()
    )
    return NewcomerPreview(
        member=member,
        joined_round=joined_round,
        start_points=start_points,
        suggested_start_points=suggested,
        position=position,
        of_players=len(order),
        group=newcomer_group(competition, member),
        neighbours=neighbours,
        waits=waits,
        changes_published=changes_published,
    )


def newcomer_group(competition: Competition, member: Member) -> str:
    if not competition.has_groups:
        return ""
    participants = list(competition.participants.exclude(group="").select_related("member"))
    if not participants:
        return ""  # this competition has no groups
    rated = {
        m.pk: rating_value(m)
        for m in Member.objects.filter(
            pk__in=[p.member_id for p in participants if p.member_id]
        ).with_ratings()
    }
    grouped = sorted(
        ((rated.get(p.member_id) or 0, p.group) for p in participants), key=lambda pair: -pair[0]
    )
    return group_for_rating(rating_value(member), grouped)


@transaction.atomic
def add_newcomer(
    competition: Competition,
    member: Member,
    joined_round: int,
    start_points: Fraction,
    now: datetime,
) -> Participant:
    """The newcomer as a participant from `joined_round` on: in the rankings at once when the
    ranking before that round is there, else (a newcomer who waits) by the engine itself the
    moment that round's results are in."""
    preview = preview_newcomer(competition, member, joined_round, start_points, now)
    if member.pk is None:  # made in the newcomer's form: a member from now on
        member.save()
    last = competition.participants.order_by("-initial_position").first()
    participant = Participant.objects.create(
        competition=competition,
        member=member,
        joined_round=joined_round,
        start_points=start_points,
        group=preview.group,
        initial_position=(last.initial_position + 1) if last else 1,
    )
    recompute_rankings(
        competition,
        _("%(name)s joins in round %(round)s") % {"name": member.name, "round": joined_round},
    )
    return participant
