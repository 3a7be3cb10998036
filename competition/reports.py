"""The results the players enter themselves (DSC rule q): whether their two reports agree, and
which games wait for the arbiter's decision. Read only; `services.report_result` writes.

The rule in one place (`verdict_of`): both players reported the same result, and it stands;
they reported different results, and the arbiter decides at once; one of them reported, and
the game waits for the other until the end of the evening (the results final, 23:30), after
which the arbiter decides (`needs_arbiter`).
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext as _

from competition.models import Competition, Game, Participant, ResultReport, Round


class Verdict(enum.Enum):
    NONE = "none"  # neither player entered a result
    ONE = "one"  # one player did; the other has not (yet)
    AGREED = "agreed"  # both entered the same result: it stands
    DIFFER = "differ"  # they entered different results: the arbiter decides


def verdict_of(results: Collection[str]) -> Verdict:
    """What the players' reports of one game say together (`results`: what each player
    entered, at most one per player)."""
    if not results:
        return Verdict.NONE
    if len(results) == 1:
        return Verdict.ONE
    return Verdict.AGREED if len(set(results)) == 1 else Verdict.DIFFER


def needs_arbiter(verdict: Verdict, round_: Round, now: datetime) -> bool:
    """A game without a result waits for the arbiter when its reports differ (at once), or
    when only one player entered a result by the end of the evening (results final, 23:30)."""
    if verdict is Verdict.DIFFER:
        return True
    return verdict is Verdict.ONE and not round_.results_are_provisional(now)


@dataclass(frozen=True)
class ReportedGame:
    """A game with what each of its players entered (None: nothing yet)."""

    game: Game
    white: ResultReport | None
    black: ResultReport | None

    @property
    def reports(self) -> list[ResultReport]:
        return [report for report in (self.white, self.black) if report is not None]

    @property
    def verdict(self) -> Verdict:
        return verdict_of([report.result for report in self.reports])

    @property
    def by_colour(self) -> list[tuple[str, Participant, ResultReport | None]]:
        """(colour, player, report) for white and black, as the arbiter reads them."""
        return [
            (_("white"), self.game.white, self.white),
            (_("black"), self.game.black, self.black),
        ]

    def report_of(self, participant_id: int) -> ResultReport | None:
        return self.white if self.game.is_white(participant_id) else self.black

    def reported_results(self) -> list[tuple[str, str]]:
        """The different results the players entered (value, label), in the choices' order."""
        entered = {report.result for report in self.reports}
        return [(value, label) for value, label in Game.Result.choices if value in entered]


def reported_game(game: Game, reports: Iterable[ResultReport]) -> ReportedGame:
    by_player = {report.participant_id: report for report in reports}
    return ReportedGame(game, by_player.get(game.white_id), by_player.get(game.black_id))


def reported_games(games: Iterable[Game]) -> dict[int, ReportedGame]:
    """Each game with its players' reports, by game id (one query)."""
    games = list(games)
    if not games:
        return {}  # most evenings: nothing to ask the players' reports of
    reports: dict[int, list[ResultReport]] = {game.pk: [] for game in games}
    for report in ResultReport.objects.filter(game__in=games).select_related(
        "reported_by", "participant__member"
    ):
        reports[report.game_id].append(report)
    return {game.pk: reported_game(game, reports[game.pk]) for game in games}


def games_to_decide(competition: Competition, now: datetime) -> list[ReportedGame]:
    """The games of the competition's published pairings without a result that wait for the
    arbiter (`needs_arbiter`), by round and board: one light query when no player's report
    waits (most of the week), three when one does."""
    undecided = ResultReport.objects.undecided().filter(game__round__competition=competition)
    if not undecided.exists():
        return []
    games = (
        Game.objects.filter(round__competition=competition, pk__in=undecided.values("game"))
        .select_related("round", "white__member", "black__member")
        .order_by("round__number", "board")
    )
    return [
        reported
        for reported in reported_games(games).values()
        if needs_arbiter(reported.verdict, reported.game.round, now)
    ]
