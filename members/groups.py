"""Groups by rating (DSC rule c: A–D): the first the strongest, sizes as equal as possible.
Pure; the labels are the club's (`Club.groups`)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence


def split_into_groups(strongest_first: Sequence[Hashable], groups: str) -> dict:
    """Each item's group, one label of `groups` a group; the larger groups come first (10, 10,
    10, 9 for 39 players in ABCD)."""
    base, extra = divmod(len(strongest_first), len(groups))
    assignment, start = {}, 0
    for index, group in enumerate(groups):
        size = base + (1 if index < extra else 0)
        for item in strongest_first[start : start + size]:
            assignment[item] = group
        start += size
    return assignment


def group_for_rating(rating: int | None, grouped: Sequence[tuple[int, str]]) -> str:
    """A newcomer's group: that of the strongest player rated at or below them, given
    (rating, group) pairs strongest first; below everyone (or unrated): the last group."""
    if rating is not None:
        for other_rating, group in grouped:
            if other_rating <= rating:
                return group
    return grouped[-1][1] if grouped else ""
