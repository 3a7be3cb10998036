"""Checks of a round's seating: who plays whom, who has the bye, who is absent."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from django.utils.translation import gettext as _


def seating_problems(
    games: Iterable[tuple[int, int]],
    bye: int | None,
    absent: Iterable[int],
    expected: Iterable[int] | None,
    names: Mapping[int, str],
    not_joined: Mapping[int, int] | None = None,
) -> list[str]:
    """What is wrong with a seating, as sentences for the arbiter (empty when it is right).

    `games` are (white, black) pairs, `absent` the players recorded absent, `expected` the
    players who must be seated (present players), or None to skip the "missing" check;
    `not_joined` maps players who have not joined by this round to the round they join.
    """
    not_joined = not_joined or {}
    games = list(games)
    absent = set(absent)
    seats = Counter(player for game in games for player in game)
    if bye is not None:
        seats[bye] += 1
    problems = []
    for white, black in games:
        if white == black:
            problems.append(_("%(name)s cannot play against themselves.") % {"name": names[white]})
    for player, count in sorted(seats.items()):
        if count > 1:
            problems.append(_("%(name)s is seated more than once.") % {"name": names[player]})
        if player in absent:
            problems.append(
                _("%(name)s is recorded as absent but is seated.") % {"name": names[player]}
            )
        if player in not_joined:
            problems.append(
                _("%(name)s only joins in round %(round)s.")
                % {"name": names[player], "round": not_joined[player]}
            )
    if expected is not None:
        for player in sorted(set(expected) - set(seats) - absent):
            problems.append(_("%(name)s is missing from the pairing.") % {"name": names[player]})
    return problems
