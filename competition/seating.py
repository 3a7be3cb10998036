"""Checks of a round's seating: who plays whom, who has the bye, who is absent. The one home
of the rule: `seating_problems` judges a seating, `check_seating` reads a round's facts for
it (the draft on the round page, the publication, a saved result)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from django.utils.translation import gettext as _

from competition import exchange
from competition.models import Round


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


def check_seating(
    round_: Round,
    games: list[tuple[int, int]],
    bye: int | None,
    everyone: bool = True,
    absent: list[int] | None = None,
) -> list[str]:
    """Problems with a seating of the round: nobody twice, nobody absent and seated, nobody
    who has not joined yet, and with `everyone` also nobody present left out. `absent`
    overrides the recorded absences (to check a form before it is saved); players away for a
    team match (derived from the line-ups) count as absent unless they are seated: only the
    check of `everyone` reads them (nobody seated is absent for a team match)."""
    joined = dict(  # in the default order, without its joins: by initial position
        round_.competition.participants.order_by("initial_position").values_list(
            "pk", "joined_round"
        )
    )
    if absent is None:
        absent = list(round_.absent_ids()) if round_.pk else []
    seated = {player for game in games for player in game} | {bye}
    absent = set(absent) | (_team_absent(round_) - seated if everyone else set())
    present = [pk for pk, number in joined.items() if number <= round_.number]
    not_joined = {pk: number for pk, number in joined.items() if number > round_.number}
    expected = present if everyone else None
    return seating_problems(games, bye, absent, expected, _Names(round_), not_joined)


class _Names(dict):
    """The players' names, read when a problem names one (a right seating reads none)."""

    def __init__(self, round_: Round):
        super().__init__()
        self.round = round_

    def __missing__(self, key: int) -> str:
        self.update(self.round.competition.participants.names())
        return dict.__getitem__(self, key)


def _team_absent(round_: Round) -> set[int]:
    """Who is in a team match's line-up on the round's evening or the day after (DSC rule f),
    whoever the stored draft seats: the caller checks its own seating."""
    if round_.pk is None or round_.competition_id is None:
        return set()
    lineups = exchange.team_match_absences(round_.competition, [round_], games={round_.pk: []})
    return {player for _round, player in lineups}
