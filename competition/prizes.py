"""Who wins what (rules section 8, DSC rules d and e). Pure: plain rows in, winners out.

Mid-season the same rules name the current leader of each prize: `remaining` (the rounds still
to play) lets a player who can still reach the required attendance lead; at the season's end
`remaining` is 0 and only who reached it counts.
"""

from __future__ import annotations

from dataclasses import dataclass


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
