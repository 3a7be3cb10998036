"""Results: the arbiter's, and those the players enter themselves (DSC rule q)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from datetime import datetime

from django.db import router, transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from competition.models import (
    Game,
    Participant,
    ResultReport,
    Round,
)
from competition.reports import Verdict, verdict_of
from competition.seating import check_seating
from competition.services.guards import CompetitionError, closed_season_problems, locked_round
from competition.services.rankings import recompute_after_results


@transaction.atomic
def enter_results(round_: Round, results: Mapping[int, str], reason: str = "", user=None) -> int:
    """Store results by game id and recompute the rankings (those the round's results can
    change: `recompute_after_results`); returns how many changed. A
    `reason` (the arbiter's, for a change after the provisional time) is kept in each changed
    game's history, with `user` as who changed it (else the request's user).

    Refuses (changing nothing) results for games outside the round's pairing, unknown results,
    an unpublished round, and a seating that is not consistent (nobody twice, nobody absent).
    """
    round_ = locked_round(round_)
    # The pairing as values, locked: model rows only for the games whose result changes.
    games = {
        game.id: game
        for game in round_.games.select_for_update()
        .order_by("board")  # not the default order, which joins the competition and season
        .values_list(*_GAME_COLUMNS, named=True)
    }
    problems = closed_season_problems(round_.competition)
    if not round_.is_published:
        problems.append(_("Publish the pairing before entering results."))
    valid = set(Game.Result.values) | {""}
    for game_id, result in results.items():
        if game_id not in games:
            problems.append(_("Game %(id)s is not part of this round's pairing.") % {"id": game_id})
        elif result not in valid:
            problems.append(_("Unknown result %(result)r.") % {"result": result})
    problems += check_seating(
        round_,
        [(game.white_id, game.black_id) for game in games.values()],
        round_.bye_id,
        everyone=False,
    )
    if problems:
        raise CompetitionError(problems)
    changed = []
    was = {}  # (white, black): (before, now), for the rankings
    database = router.db_for_write(Game)
    for game_id, result in results.items():
        stored = games[game_id]
        if stored.result != result:
            was[stored.white_id, stored.black_id] = (stored.result, result)
            game = Game.from_db(database, _GAME_COLUMNS, stored._replace(result=result))
            if reason:
                game._change_reason = reason
            changed.append(game)
    if changed:
        _store_results(changed, user)
        note = correction_note(round_, changed, games, reason) if reason else ""
        recompute_after_results(round_.competition, round_.number, was, note)
    return len(changed)


def correction_note(round_: Round, changed: list[Game], before: Mapping, reason: str) -> str:
    """What a correction of final results says on the standings and in the ranking e-mail:
    which games changed and how, then why ("ronde 3, bord 2, Jansen – de Vries: 1-0 → ½-½
    (typfout)"). The reason alone named no game (issue 37)."""
    names = Participant.objects.filter(
        pk__in={p for game in changed for p in (game.white_id, game.black_id)}
    ).names()
    labels = dict(Game.Result.choices)
    changes = "; ".join(
        _("round %(round)s, board %(board)s, %(white)s – %(black)s: %(old)s → %(new)s")
        % {
            "round": round_.number,
            "board": game.board,
            "white": names[game.white_id],
            "black": names[game.black_id],
            "old": labels.get(before[game.pk].result) or _("no result"),
            "new": labels.get(game.result) or _("no result"),
        }
        for game in sorted(changed, key=lambda game: game.board)
    )
    return _("%(changes)s (%(reason)s)") % {"changes": changes, "reason": reason}


# A game's columns: every concrete field, in their order (what `Model.from_db` reads).
_GAME_COLUMNS = tuple(field.attname for field in Game._meta.concrete_fields)


def _store_results(games: list[Game], user) -> None:
    """The games' new results: one UPDATE per result they get (one for a single result), and
    their history rows in one INSERT, as simple_history's `bulk_update_with_history` writes
    them (whose one UPDATE of `CASE` expressions costs more to build than to run)."""
    by_result = defaultdict(list)
    for game in games:
        by_result[game.result].append(game.pk)
    for result, keys in by_result.items():
        Game.objects.filter(pk__in=keys).update(result=result)
    Game.history.bulk_history_create(games, update=True, default_user=user)


def report_problems(game: Game, player: Participant | None, now: datetime) -> list[str]:
    """Why this player cannot enter the result of this game now (empty when they can): it
    must be their own game, of the internal competition's published pairing, without a
    result yet, on the evening from the games' start until the results are final."""
    round_ = game.round
    if player is None or player.pk not in (game.white_id, game.black_id):
        return [_("This is not your game: only its two players can enter its result.")]
    if not round_.competition.players_enter_results:
        return [_("The arbiter enters the results of the rapid competition.")]
    if closed := closed_season_problems(round_.competition):
        return closed
    if not round_.is_published:
        return [_("The pairing of round %(number)s is not published.") % {"number": round_.number}]
    if game.result:
        return [
            _("The result of this game is in: %(result)s. Is it wrong? Tell the arbiter.")
            % {"result": game.get_result_display()}
        ]
    if not round_.games_started(now):
        return [
            _("You can enter the result from %(when)s, when the games start.")
            % {"when": formats.date_format(timezone.localtime(round_.play_starts_at), "l j F H:i")}
        ]
    if not round_.takes_players_results(now):
        return [
            _("The results of round %(number)s are final since %(time)s: the arbiter decides.")
            % {
                "number": round_.number,
                "time": formats.time_format(timezone.localtime(round_.results_final_at), "H:i"),
            }
        ]
    return []


@transaction.atomic
def report_result(game: Game, user, result: str, now: datetime, *, member=None) -> Verdict:
    """A player enters the result of their own game (DSC rule q). Their report replaces
    their earlier one (the history keeps both, with who and when). When it agrees with the
    opponent's report the game's result is stored as the arbiter's results are
    (`enter_results`: the game's history names this user, the rankings are recomputed).
    Returns the verdict of the two reports (`competition.reports`). Refused, changing
    nothing: another's game, anything `report_problems` names, a result a player cannot
    report (forfeits are the arbiter's). `member`: the player, when they come by their
    e-mail's link without logging in (`user` is then their account, or None)."""
    round_ = locked_round(game.round)  # one at a time with the opponent and the arbiter
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("white__member", "black__member")
        .get(pk=game.pk)
    )
    game.round = round_
    player = game.player_of_member(member) if member is not None else game.player_of(user)
    problems = report_problems(game, player, now)
    if not problems and result not in Game.OVER_THE_BOARD:
        problems = [
            _("Choose one of %(results)s.")
            % {"results": ", ".join(str(choice.label) for choice in Game.OVER_THE_BOARD)}
        ]
    if problems:
        raise CompetitionError(problems)
    report = ResultReport.objects.filter(game=game, participant=player).first()
    if report is None or report.result != result:  # the same result again changes nothing
        report = report or ResultReport(game=game, participant=player)
        report.result, report.reported_at, report.reported_by = result, now, user
        report._history_user, report._history_date = user, now
        report.save()
    verdict = verdict_of(list(game.reports.values_list("result", flat=True)))
    if verdict is Verdict.AGREED:
        enter_results(
            round_,
            {game.pk: result},
            reason=_("Both players entered this result"),
            user=user,
        )
    return verdict


@transaction.atomic
def decide_result(game: Game, result: str, user=None) -> None:
    """The arbiter decides a game whose players' reports differ, or that only one of them
    entered (the start page's buttons): refused when the game got a result meanwhile (the
    results page changes any result)."""
    if result not in Game.Result.values:
        raise CompetitionError(_("Unknown result %(result)r.") % {"result": result})
    round_ = locked_round(game.round)
    stored = Game.objects.select_for_update(of=("self",)).get(pk=game.pk)
    if stored.result:
        raise CompetitionError(
            _("Board %(board)s of round %(number)s has a result already: %(result)s.")
            % {
                "board": stored.board,
                "number": round_.number,
                "result": stored.get_result_display(),
            }
        )
    enter_results(round_, {stored.pk: result}, reason=_("Decided by the arbiter"), user=user)
