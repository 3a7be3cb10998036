"""Who wins what (rules section 8, DSC rules d and e). Pure: plain rows in, winners out."""

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


def eligible(candidates: list[Candidate], required: int) -> list[Candidate]:
    return sorted((c for c in candidates if c.attended >= required), key=lambda c: c.position)


def club_champion(candidates: list[Candidate], required: int) -> Candidate | None:
    """The highest eligible player in the final ranking."""
    return next(iter(eligible(candidates, required)), None)


def group_winners(candidates: list[Candidate], required: int) -> dict[str, Candidate]:
    """The highest eligible player of each group."""
    winners: dict[str, Candidate] = {}
    for candidate in eligible(candidates, required):
        if candidate.group and candidate.group not in winners:
            winners[candidate.group] = candidate
    return dict(sorted(winners.items()))


def climb(candidate: Candidate) -> int:
    return (candidate.first_position or candidate.position) - candidate.position


def biggest_climber(candidates: list[Candidate], required: int) -> Candidate | None:
    """The eligible player who gained most places from their first ranking to the final one;
    on equal gains the higher final position wins (decision: the rules are silent)."""
    ranked = sorted(eligible(candidates, required), key=lambda c: (-climb(c), c.position))
    return ranked[0] if ranked and climb(ranked[0]) > 0 else None


def rapid_champion(candidates: list[Candidate]) -> Candidate | None:
    """The highest club member in the rapid competition's final ranking (guests cannot win)."""
    return next((c for c in sorted(candidates, key=lambda c: c.position) if c.is_member), None)
