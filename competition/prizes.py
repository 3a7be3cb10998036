"""Who wins what (rules section 8, DSC rules d and e). The rules are pure: plain rows in,
winners out. `as_they_stand` then reads their rows from what is stored and gathers every prize
of a season, for the prizes page.

Mid-season the same rules name the current leader of each prize: `remaining` (the rounds still
to play) lets a player who can still reach the required attendance lead; at the season's end
`remaining` is 0 and only who reached it counts.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F

from competition.eligibility import required as required_rounds
from competition.models import Competition, Ranking, Standing
from members import services as member_services
from members.models import Member
from members.performance import TeamPlayerRow


@dataclass(frozen=True)
class Candidate:
    participant_id: int
    name: str
    position: int  # in the final (or latest) ranking
    group: str
    is_member: bool
    attended: int
    first_position: int | None  # in the first ranking the player appears in


@dataclass(frozen=True)
class Leader:
    """Who leads a prize now, and whether the attendance rule still stands between them and it."""

    candidate: Candidate
    reached: bool  # has attended the required rounds already
    still_needed: int  # rounds still to attend to count (0 once reached)


def leader(candidate: Candidate, required: int) -> Leader:
    needed = max(required - candidate.attended, 0)
    return Leader(candidate, needed == 0, needed)


def eligible(candidates: list[Candidate], required: int, remaining: int = 0) -> list[Candidate]:
    """Who has attended the required rounds, or still can in the `remaining` rounds."""
    return sorted(
        (c for c in candidates if c.attended + remaining >= required), key=lambda c: c.position
    )


def club_champion(
    candidates: list[Candidate], required: int, remaining: int = 0
) -> Candidate | None:
    """The highest eligible player in the final ranking (mid-season: the leader now)."""
    return next(iter(eligible(candidates, required, remaining)), None)


def group_winners(
    candidates: list[Candidate], required: int, remaining: int = 0
) -> dict[str, Candidate]:
    """The highest eligible player of each group."""
    winners: dict[str, Candidate] = {}
    for candidate in eligible(candidates, required, remaining):
        if candidate.group and candidate.group not in winners:
            winners[candidate.group] = candidate
    return dict(sorted(winners.items()))


def climb(candidate: Candidate) -> int:
    return (candidate.first_position or candidate.position) - candidate.position


def biggest_climber(
    candidates: list[Candidate], required: int, remaining: int = 0
) -> Candidate | None:
    """The eligible player who gained most places from their first ranking to the final one;
    on equal gains the higher final position wins (decision: the rules are silent)."""
    ranked = sorted(
        eligible(candidates, required, remaining), key=lambda c: (-climb(c), c.position)
    )
    return ranked[0] if ranked and climb(ranked[0]) > 0 else None


def rapid_champion(candidates: list[Candidate]) -> Candidate | None:
    """The highest club member in the rapid competition's final ranking (guests cannot win)."""
    return next((c for c in sorted(candidates, key=lambda c: c.position) if c.is_member), None)


# -- the prizes as they stand, read from what is stored --------------------------------------


@dataclass(frozen=True)
class Prizes:
    """Every prize of a season as it stands: once the season is closed its winner, before that
    each prize's leader now with what still decides it (the rounds to go, the attendance)."""

    ranking: Ranking | None  # the internal competition's latest
    rounds: int  # the season's club evenings
    required: int  # of them to attend for the club champion, the groups and the climber
    remaining: int  # rounds still to play (0 once the season is closed)
    rapid_remaining: int  # the same for the rapid competition
    provisional: bool  # the season is not closed
    champion: Leader | None
    groups: dict[str, Leader]
    climber: Leader | None
    climb: int  # the climber's places gained
    rapid_champion: Candidate | None
    team_player: TeamPlayerRow | None  # the best team player (the KNSB/FSB matches)
    team_player_name: str
    eligible_count: int  # who has attended the required rounds
    running_count: int  # who has, or still can in the remaining rounds


def as_they_stand(competition: Competition) -> Prizes:
    """The prizes of the internal `competition`'s season, with its rapid competition's and the
    best team player's, from the latest rankings."""
    season = competition.season
    ranking = competition.latest_ranking()
    rounds = competition.rounds.count()
    required = required_rounds(rounds)
    remaining = 0 if season.is_closed or ranking is None else rounds - ranking.after_round
    people = candidates(competition, ranking) if ranking else []
    rapid = season.competitions.rapid().first()
    rapid_ranking = rapid.latest_ranking() if rapid else None
    rapid_remaining = (
        0
        if season.is_closed or rapid_ranking is None
        else rapid.rounds.count() - rapid_ranking.after_round
    )
    team = member_services.team_player_table(season.name)
    team_player = team[0] if team else None
    names = Member.objects.values_list("name", flat=True)
    champion = club_champion(people, required, remaining)
    climber = biggest_climber(people, required, remaining)
    return Prizes(
        ranking=ranking,
        rounds=rounds,
        required=required,
        remaining=remaining,
        rapid_remaining=rapid_remaining,
        provisional=not season.is_closed,
        champion=leader(champion, required) if champion else None,
        groups={
            group: leader(winner, required)
            for group, winner in group_winners(people, required, remaining).items()
        },
        climber=leader(climber, required) if climber else None,
        climb=climb(climber) if climber else 0,
        rapid_champion=rapid_champion(candidates(rapid, rapid_ranking)) if rapid_ranking else None,
        team_player=team_player,
        team_player_name=names.get(pk=team_player.member_id) if team_player else "",
        eligible_count=len(eligible(people, required)),
        running_count=len(eligible(people, required, remaining)),
    )


def candidates(competition: Competition, ranking: Ranking) -> list[Candidate]:
    """Everyone in a ranking with what the prize rules look at."""
    first = dict(
        Standing.objects.filter(
            ranking__competition=competition,
            ranking__after_round=F("participant__joined_round") - 1,
        ).values_list("participant_id", "position")
    )
    return [
        Candidate(
            participant_id=s.participant_id,
            name=s.participant.name,
            position=s.position,
            group=s.participant.group,
            is_member=s.participant.member_id is not None,
            attended=s.attended,
            first_position=first.get(s.participant_id),
        )
        for s in ranking.standings.select_related("participant__member").order_by("position")
    ]
