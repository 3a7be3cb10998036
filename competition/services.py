"""The workflows that write a competition's rows, each one transaction with its checks.

Games, results, absences, draft pairings and ranking snapshots are written here and nowhere
else: the admin, the absences app, the worker and the commands call these functions. A refused
workflow raises `CompetitionError` and changes nothing. The engine is reached through
`exchange`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime

from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from simple_history.utils import (
    bulk_create_with_history,
    bulk_update_with_history,
    get_change_reason_from_object,
)

from competition import exchange
from competition.keizer import season_file
from competition.keizer.pairing import pair_next_round
from competition.keizer.ranking import compute_rankings
from competition.keizer.scoring import NO_SHOWS
from competition.keizer.season import Result
from competition.keizer.season import Season as EngineSeason
from competition.models import (
    Absence,
    Competition,
    Game,
    Participant,
    Ranking,
    ResultReport,
    Round,
    Season,
    Standing,
)
from competition.reports import Verdict, verdict_of
from competition.schedule import EVENING_SPACING
from competition.seating import seating_problems
from members.models import Member


class CompetitionError(Exception):
    """A workflow refused: the messages say why; nothing was changed."""

    def __init__(self, messages: list[str] | str):
        self.messages = [messages] if isinstance(messages, str) else list(messages)
        super().__init__(" ".join(self.messages))


class OutOfDate(CompetitionError):
    """The arbiter's page showed a state that has changed since (a second tap, another
    device): nothing was done; the page is to be shown again as it is now."""


def closed_season_problems(competition: Competition) -> list[str]:
    """A closed season's standings are final: nothing in it changes any more."""
    if competition.season.is_closed:
        return [
            _("Season %(name)s is closed; its standings are final.")
            % {"name": competition.season.name}
        ]
    return []


def refuse_if_closed(competition: Competition) -> None:
    if problems := closed_season_problems(competition):
        raise CompetitionError(problems)


def _locked_round(round_: Round) -> Round:
    """The round, locked for this transaction: one change of a round at a time."""
    return (
        Round.objects.select_for_update(of=("self",))
        .select_related("competition__season")
        .get(pk=round_.pk)
    )


# -- rankings ----------------------------------------------------------------------------------


@transaction.atomic
def recompute_rankings(competition: Competition) -> None:
    """Compute every ranking snapshot of the competition anew from its complete rounds."""
    _lock(competition)
    refuse_if_closed(competition)
    _store_rankings(competition, exchange.read_inputs(competition))


@transaction.atomic
def refresh_rankings(competition: Competition) -> bool:
    """Recompute the snapshots if what the engine reads changed since they were computed
    (a result, an absence, a player, a setting or a team line-up, changed anywhere); True when
    it did. Closed seasons stay as they are."""
    _lock(competition)
    if competition.season.is_closed:
        return False
    inputs = exchange.read_inputs(competition)
    if competition.rankings.values_list("inputs", flat=True).first() == inputs.digest:
        return False
    _store_rankings(competition, inputs)
    return True


def _lock(competition: Competition) -> None:
    """Two recomputations of one competition never interleave."""
    Competition.objects.select_for_update(of=("self",)).filter(pk=competition.pk).first()


def _store_rankings(competition: Competition, inputs: exchange.Inputs) -> None:
    """Store the engine's rankings of `inputs`. Only the snapshots that differ from the stored
    ones are written anew (after a round's results, the ranking after that round and any it
    changed); the others keep their rows, and every snapshot gets the new digest."""
    computed = exchange.snapshots(compute_rankings(inputs.season), inputs)
    stored = exchange.stored_snapshots(competition)
    changed = [snapshot for snapshot in computed if stored.get(snapshot.after_round) != snapshot]
    kept = {snapshot.after_round for snapshot in computed} - {s.after_round for s in changed}
    if set(stored) - kept:
        competition.rankings.exclude(after_round__in=kept).delete()
    competition.rankings.update(inputs=inputs.digest, computed_at=timezone.now())
    rows = exchange.ranking_rows(competition, changed, inputs.digest)
    Ranking.objects.bulk_create(ranking for ranking, _standings in rows)
    Standing.objects.bulk_create(
        (standing for _ranking, standings in rows for standing in standings), batch_size=1000
    )


# -- pairing and publication -------------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """One board of a pairing as the arbiter sets it: participant keys."""

    board: int
    white: int
    black: int


@transaction.atomic
def make_pairing(round_: Round) -> list[str]:
    """Pair the round with the engine (replacing an unpublished draft); returns the warnings."""
    round_ = _locked_round(round_)
    refuse_if_closed(round_.competition)
    if round_.is_published:
        raise CompetitionError(
            _("Round %(number)s is already published.") % {"number": round_.number}
        )
    season = exchange.season_for(round_.competition, pair_round=round_)
    if len(season.rounds) != round_.number - 1:
        raise CompetitionError(
            _("Round %(number)s cannot be paired yet: round %(missing)s is not complete.")
            % {"number": round_.number, "missing": len(season.rounds) + 1}
        )
    pairing = pair_next_round(season)
    _delete_games(list(round_.games.all()))
    bulk_create_with_history(
        [
            Game(round=round_, board=pair.board, white_id=int(pair.white), black_id=int(pair.black))
            for pair in pairing.pairs
        ],
        Game,
    )
    round_.bye_id = int(pairing.bye) if pairing.bye else None
    round_.pairing_warnings = [
        {"first": int(r.first), "second": int(r.second), "rounds": list(r.rounds)}
        for r in pairing.repeats
    ]
    round_._change_reason = _("Draft pairing made")
    round_.save()
    return pairing.warnings


def _delete_games(games: list[Game]) -> None:
    """Delete games in two queries, leaving the history row ("-") that deleting each one
    leaves (django-simple-history writes it per game, a query each)."""
    if not games:
        return
    history = Game.history.model
    now = timezone.now()
    history.objects.bulk_create(
        history(
            history_date=getattr(game, "_history_date", now),
            history_user=history.get_default_history_user(game),
            history_change_reason=get_change_reason_from_object(game),
            history_type="-",
            **{field.attname: getattr(game, field.attname) for field in history.tracked_fields},
        )
        for game in games
    )
    # The rows go without the delete signals: their history is written above, and nothing
    # else listens (the page cache sees the DELETE itself).
    Game.objects.filter(pk__in=[game.pk for game in games])._raw_delete(Game.objects.db)


@transaction.atomic
def discard_draft(round_: Round) -> bool:
    """Drop an unpublished draft pairing (it is made again by the arbiter or at publication
    time); False when there was none."""
    round_ = _locked_round(round_)
    if round_.is_published or not round_.games.exists():
        return False
    for game in round_.games.all():
        game.delete()
    round_.bye = None
    round_.pairing_warnings = []
    round_.save()
    return True


@transaction.atomic
def publish(round_: Round, now: datetime) -> bool:
    """Publish the round's pairing exactly once, checked under the round's lock (every
    earlier round complete, everyone present seated once); False if it was published already.
    """
    round_ = _locked_round(round_)
    if round_.is_published:
        return False
    problems = publication_problems(round_)
    if problems:
        raise CompetitionError(problems)
    if not Round.objects.filter(pk=round_.pk, published_at__isnull=True).update(published_at=now):
        return False
    # The conditional update leaves no history: the round's history records it with a reason.
    round_.published_at = now
    round_._change_reason = _("Pairing published")
    round_.save(update_fields=["published_at"])
    return True


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
    team match (derived from the line-ups) count as absent unless they are seated."""
    participants = {p.pk: p for p in round_.competition.participants.select_related("member")}
    if absent is None:
        absent = list(round_.absent_ids()) if round_.pk else []
    seated = {player for game in games for player in game} | {bye}
    absent = set(absent) | (_team_absent(round_) - seated)
    present = [p.pk for p in participants.values() if p.joined_round <= round_.number]
    names = {pk: p.name for pk, p in participants.items()}
    not_joined = {
        pk: p.joined_round for pk, p in participants.items() if p.joined_round > round_.number
    }
    return seating_problems(games, bye, absent, present if everyone else None, names, not_joined)


def _team_absent(round_: Round) -> set[int]:
    """Who is in a team match's line-up on the round's evening or the day after (DSC rule f),
    whoever the stored draft seats: the caller checks its own seating."""
    if round_.pk is None or round_.competition_id is None:
        return set()
    lineups = exchange.team_match_absences(round_.competition, [round_], games={round_.pk: []})
    return {player for _round, player in lineups}


def publication_problems(round_: Round) -> list[str]:
    """Why the round's pairing cannot be published now (empty when it can): every earlier
    round complete, a pairing, and a consistent seating of everyone present."""
    counted = exchange.counted_rounds(round_.competition, round_.number)
    if counted < round_.number - 1:
        return [
            _("Round %(number)s cannot be published yet: round %(missing)s is not complete.")
            % {"number": round_.number, "missing": counted + 1}
        ]
    games = list(round_.games.values_list("white_id", "black_id"))
    if not games:
        return [_("There is no pairing to publish.")]
    return check_seating(round_, games, round_.bye_id)


def pairing_warning_texts(round_: Round) -> list[str]:
    """The round's forced repeats as sentences naming the players."""
    if not round_.pairing_warnings:
        return []
    names = {p.pk: p.name for p in round_.competition.participants.select_related("member")}
    return [
        _("%(first)s and %(second)s already met this period (round %(rounds)s).")
        % {
            "first": names.get(warning["first"], "?"),
            "second": names.get(warning["second"], "?"),
            "rounds": ", ".join(str(r) for r in warning["rounds"]),
        }
        for warning in round_.pairing_warnings
    ]


# -- the round page ----------------------------------------------------------------------------


# What the round page may change of a round that is not published yet.
ROUND_PAGE_FIELDS = ("competition", "number", "date", "publish_at", "bye")


@transaction.atomic
def save_round(
    round_: Round,
    absences: Mapping[int, str] | None,
    boards: list[Board] | None = None,
    based_on: set[int] | None = None,
) -> None:
    """The arbiter's round page: for a round not published yet its own fields as set on
    `round_` (date, times, the bye) and a draft's boards; who is absent and why (None: the
    absences stay as they are). `based_on` names the games the page showed: if the stored
    pairing differs, it changed meanwhile and nothing is saved. Checked as a whole: absent
    players are not seated, a draft seats everyone else who has joined, a published pairing
    and its round stay fixed. The rankings are recomputed only when what they are computed
    from changed."""
    refuse_if_closed(round_.competition)
    stored = _locked_round(round_) if round_.pk else None
    published = stored is not None and stored.is_published
    if published and boards is not None:
        raise OutOfDate(
            _("Round %(number)s was published meanwhile; its pairing is fixed now.")
            % {"number": stored.number}
        )
    shown_another_pairing = (
        stored is not None
        and based_on is not None
        and set(stored.games.values_list("pk", flat=True)) != based_on
    )
    if shown_another_pairing:
        raise OutOfDate(
            _("The pairing of round %(number)s changed meanwhile; look at it again.")
            % {"number": stored.number}
        )
    problems = absence_problems(stored if published else round_, absences or {})
    if published and absences is not None:
        problems += unseated_without_absence(stored, absences)
    if boards is not None:
        absent = absences if absences is not None else (stored or round_).absent_ids()
        problems += board_problems(round_, boards, absent)
    if problems:
        raise CompetitionError(problems)
    if stored is None:
        round_.save()
    elif not published:  # a published round's date, times and bye are fixed with its pairing
        round_.save(update_fields=ROUND_PAGE_FIELDS)
    target = stored if published else round_
    if absences is not None:
        before = dict(target.absences.values_list("participant_id", "reason"))
        _replace_absences(target, absences)
        if published and before != dict(absences):  # kept in the round's history
            target._change_reason = _("Published pairing changed")
            target.save(update_fields=["bye"])
    if boards is not None:
        _replace_boards(round_, boards)
    if published:
        refresh_rankings(target.competition)


def unseated_without_absence(round_: Round, absences: Mapping[int, str]) -> list[str]:
    """A published round: everyone who has joined is seated or absent, so an absence can
    change its reason but not disappear."""
    seated = round_.seated_ids()
    return [
        _("%(name)s is not in the published pairing: they stay absent (change the reason).")
        % {"name": participant.name}
        for participant in round_.competition.participants.filter(
            pk__in=round_.absent_ids() - set(absences) - seated
        ).select_related("member")
    ]


def absence_problems(round_: Round, absences: Mapping[int, str]) -> list[str]:
    """What is wrong with recording these absences ({participant key: reason}) in the round:
    players of another competition, unknown reasons, players of the published pairing."""
    participants = {
        p.pk: p for p in Participant.objects.filter(pk__in=absences).select_related("member")
    }
    seated = round_.seated_ids() if round_.pk and round_.is_published else set()
    problems = []
    for participant_id, reason in absences.items():
        participant = participants.get(participant_id)
        if participant is None or participant.competition_id != round_.competition_id:
            name = participant.name if participant else participant_id
            problems.append(_("%(name)s does not play in this competition.") % {"name": name})
        elif reason not in Absence.Reason.values:
            problems.append(_("Unknown reason %(reason)r.") % {"reason": reason})
        elif participant.joined_round > round_.number:
            problems.append(
                _("%(name)s only joins in round %(round)s.")
                % {"name": participant.name, "round": participant.joined_round}
            )
        elif participant_id in seated:
            problems.append(
                _("%(name)s is in the published pairing: record a forfeit result instead.")
                % {"name": participant.name}
            )
    return problems


def board_problems(round_: Round, boards: list[Board], absent) -> list[str]:
    """What is wrong with a draft's boards given who is absent: a board used twice, and the
    seating checks (`check_seating`) for everyone present."""
    numbers = [b.board for b in boards]
    doubled = sorted({n for n in numbers if numbers.count(n) > 1})
    problems = [_("Board %(board)s is used twice.") % {"board": n} for n in doubled]
    if boards:
        problems += check_seating(
            round_, [(b.white, b.black) for b in boards], round_.bye_id, absent=list(absent)
        )
    return problems


def _replace_absences(round_: Round, absences: Mapping[int, str]) -> None:
    for absence in round_.absences.all():
        reason = absences.get(absence.participant_id)
        if reason is None:
            absence.delete()
        elif reason != absence.reason:
            absence.reason = reason
            absence.team_claim = False  # the arbiter chose the reason: the claim is decided
            absence.save()
    recorded = round_.absent_ids()
    for participant_id, reason in absences.items():
        if participant_id not in recorded:
            Absence.objects.create(round=round_, participant_id=participant_id, reason=reason)


def _replace_boards(round_: Round, boards: list[Board]) -> None:
    """Each board keeps its game (and its history); boards no longer used are removed."""
    games = {game.board: game for game in round_.games.all()}
    wanted = {b.board: b for b in boards}
    for number, game in games.items():
        if number not in wanted:
            game.delete()
    for number, b in wanted.items():
        game = games.get(number) or Game(round=round_, board=number)
        if game.pk is None or (game.white_id, game.black_id) != (b.white, b.black):
            game.white_id, game.black_id = b.white, b.black
            game.save()


# -- absences and results ----------------------------------------------------------------------


@transaction.atomic
def record_absence(
    round_: Round, participant: Participant, reason: str, team_claim: bool = False
) -> bool:
    """Record that a player is absent from a round, and why (an `Absence.Reason`); with
    `team_claim` the member says it is a team match, which the arbiter confirms later
    (`decide_team_claim`). Refused for a player in the published pairing (that is a forfeit:
    `record_forfeit`). A draft that seats the player is discarded; returns True when that
    happened."""
    round_ = _locked_round(round_)
    refuse_if_closed(round_.competition)
    problems = absence_problems(round_, {participant.pk: reason})
    if problems:
        raise CompetitionError(problems)
    absence = round_.absences.filter(participant=participant).first()
    if absence is None:
        Absence.objects.create(
            round=round_, participant=participant, reason=reason, team_claim=team_claim
        )
    elif (absence.reason, absence.team_claim) != (reason, team_claim):
        absence.reason, absence.team_claim = reason, team_claim
        absence.save()
    discarded = participant.pk in round_.seated_ids() and discard_draft(round_)
    if round_.is_published:
        refresh_rankings(round_.competition)
    return discarded


@transaction.atomic
def decide_team_claim(absence: Absence, confirmed: bool) -> Absence:
    """The arbiter's word on a team match a member claimed: confirmed, it scores as a team
    absence; refused, it stays a cancellation in time. Either way the claim is closed."""
    round_ = _locked_round(absence.round)
    refuse_if_closed(round_.competition)
    absence = Absence.objects.select_for_update().filter(pk=absence.pk, team_claim=True).first()
    if absence is None:
        raise CompetitionError(_("This claim has been decided already."))
    absence.team_claim = False
    if confirmed:
        absence.reason = Absence.Reason.TEAM
    absence.save()
    if round_.is_published:
        refresh_rankings(round_.competition)
    return absence


@transaction.atomic
def remove_absence(round_: Round, participant: Participant) -> bool:
    """The player comes after all: the absence is removed and, as the player must be seated,
    a draft pairing is discarded (True when that happened)."""
    round_ = _locked_round(round_)
    refuse_if_closed(round_.competition)
    if round_.is_published and participant.pk not in round_.seated_ids():
        raise CompetitionError(
            _("Round %(number)s is published: %(name)s can no longer be paired in it.")
            % {"number": round_.number, "name": participant.name}
        )
    for absence in round_.absences.filter(participant=participant):
        absence.delete()
    discarded = discard_draft(round_)
    if round_.is_published:
        refresh_rankings(round_.competition)
    return discarded


@transaction.atomic
def record_forfeit(round_: Round, participant: Participant) -> Game:
    """A player of the published pairing does not come: the opponent wins by default, or, if
    the opponent did not come either, both lose (0-0F). Returns the game."""
    round_ = _locked_round(round_)
    refuse_if_closed(round_.competition)
    if not round_.is_published:
        raise CompetitionError(_("Publish the pairing before entering results."))
    game = Game.objects.select_for_update().filter(round=round_).involving(participant).first()
    if game is None:
        raise CompetitionError(
            _("%(name)s is not in the published pairing.") % {"name": participant.name}
        )
    opponent = game.opponent_id(participant.pk)
    opponent_outcome = game.outcome_for(opponent)
    if opponent_outcome is not None and opponent_outcome not in NO_SHOWS:
        raise CompetitionError(_("The result of the game is in already."))
    opponent_came = opponent_outcome is None
    is_white = game.is_white(participant.pk)
    game.result = Result.by_default(
        white_came=not is_white and opponent_came, black_came=is_white and opponent_came
    ).value
    game.save()
    refresh_rankings(round_.competition)
    return game


@transaction.atomic
def enter_results(round_: Round, results: Mapping[int, str], reason: str = "", user=None) -> int:
    """Store results by game id and recompute the rankings; returns how many changed. A
    `reason` (the arbiter's, for a change after the provisional time) is kept in each changed
    game's history, with `user` as who changed it (else the request's user).

    Refuses (changing nothing) results for games outside the round's pairing, unknown results,
    an unpublished round, and a seating that is not consistent (nobody twice, nobody absent).
    """
    round_ = _locked_round(round_)
    games = {game.pk: game for game in round_.games.select_for_update()}
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
        round_, [(g.white_id, g.black_id) for g in games.values()], round_.bye_id, everyone=False
    )
    if problems:
        raise CompetitionError(problems)
    changed = []
    for game_id, result in results.items():
        game = games[game_id]
        if game.result != result:
            game.result = result
            if reason:
                game._change_reason = reason
            changed.append(game)
    if changed:  # one UPDATE and one history INSERT for all boards
        bulk_update_with_history(changed, Game, ["result"], default_user=user)
        recompute_rankings(round_.competition)
    return len(changed)


# -- results the players enter -----------------------------------------------------------------


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
def report_result(game: Game, user, result: str, now: datetime) -> Verdict:
    """A player enters the result of their own game (DSC rule q). Their report replaces
    their earlier one (the history keeps both, with who and when). When it agrees with the
    opponent's report the game's result is stored as the arbiter's results are
    (`enter_results`: the game's history names this user, the rankings are recomputed).
    Returns the verdict of the two reports (`competition.reports`). Refused, changing
    nothing: another's game, anything `report_problems` names, a result a player cannot
    report (forfeits are the arbiter's)."""
    round_ = _locked_round(game.round)  # one at a time with the opponent and the arbiter
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("white__member", "black__member")
        .get(pk=game.pk)
    )
    game.round = round_
    player = game.player_of(user)
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
    round_ = _locked_round(game.round)
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


# -- the rapid evening ------------------------------------------------------------------------


def rapid_evening_problems(competition: Competition, evening: date, today: date) -> list[str]:
    """Why the rapid competition's next round cannot be paired on `evening` (empty when it
    can): the rapid competition of an open season, on the evening itself (`today`), not on an
    evening before its last played one, and not while an unpublished round waits for another
    evening or an earlier round misses a result."""
    if not competition.pairs_on_the_evening:
        return [_("Only the rapid competition plays its rounds one after another on an evening.")]
    if closed := closed_season_problems(competition):
        return closed
    day = formats.date_format(evening, "l j F Y")
    if evening > today:
        return [
            _(
                "The evening of %(day)s has not come yet: a rapid evening is paired on the "
                "evening itself."
            )
            % {"day": day}
        ]
    if evening < today:
        return [
            _("The evening of %(day)s is over: a rapid evening is paired on the evening itself.")
            % {"day": day}
        ]
    latest = competition.rounds.published().order_by("-number").first()
    if latest is not None and latest.date > evening:
        return [
            _(
                "Round %(number)s was played on %(day)s already: a new round cannot lie on an "
                "earlier evening."
            )
            % {"number": latest.number, "day": formats.date_format(latest.date, "l j F Y")}
        ]
    waiting = competition.rounds.unpublished().order_by("number").first()
    if waiting is not None and waiting.date != evening:
        return [
            _(
                "Round %(number)s is planned for %(day)s: pair it on that evening, or change "
                "its date on the round's page."
            )
            % {"number": waiting.number, "day": formats.date_format(waiting.date, "l j F Y")}
        ]
    number = next_rapid_round_number(competition)
    counted = exchange.counted_rounds(competition, number)
    if counted < number - 1:
        return [
            _("Round %(missing)s is not complete yet: enter its results first.")
            % {"missing": counted + 1}
        ]
    return []


def next_rapid_round_number(competition: Competition) -> int:
    """The number of the rapid competition's next round to pair: the first unpublished round
    (one the arbiter planned), else the one after the last."""
    waiting = competition.rounds.unpublished().order_by("number").first()
    if waiting is not None:
        return waiting.number
    last = competition.rounds.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


@transaction.atomic
def pair_rapid_round(
    competition: Competition,
    evening: date,
    absences: Mapping[int, str],
    number: int,
    now: datetime,
) -> tuple[Round, list[str]]:
    """The rapid evening's next round (`number`, the round the arbiter's page offered): made
    on `evening` (or the round planned for it), with the evening's absences, paired by the
    engine and published at once, since the players wait at the boards. Returns the round and
    the pairing's warnings. Refused, changing nothing, when the page was out of date
    (`OutOfDate`), the evening cannot be paired (`rapid_evening_problems`), an absence is
    wrong, or fewer than two players are present."""
    _lock(competition)  # two taps at once pair one round
    competition = Competition.objects.get(pk=competition.pk)
    expected = next_rapid_round_number(competition)
    if number != expected:
        raise OutOfDate(
            _(
                "The page was out of date (it offered round %(number)s, the next round is "
                "round %(expected)s); nothing was changed. This is the evening as it is now."
            )
            % {"number": number, "expected": expected}
        )
    problems = rapid_evening_problems(competition, evening, timezone.localdate(now))
    if problems:
        raise CompetitionError(problems)
    present = competition.participants.filter(joined_round__lte=number).exclude(
        pk__in=list(absences)
    )
    if present.count() < 2:
        raise CompetitionError(_("Fewer than two players are present: there is nobody to pair."))
    round_ = competition.rounds.filter(number=number).first() or Round.on_evening(
        competition, number, evening
    )
    save_round(round_, absences)
    warnings = make_pairing(round_)
    publish(round_, now)
    round_.refresh_from_db()
    return round_, warnings


def unfinished_boards(round_: Round, results: Mapping[int, str]) -> list[int]:
    """The boards of the round that have no result once `results` ({game id: result}) are
    entered over the stored ones."""
    return sorted(
        game.board for game in round_.games.all() if not results.get(game.pk, game.result)
    )


@transaction.atomic
def finish_rapid_round(
    round_: Round, results: Mapping[int, str], absences: Mapping[int, str], now: datetime
) -> tuple[Round, list[str]]:
    """Save a rapid evening's round and pair the next: the round's results (every board
    needs one), then the next round on the same evening with the evening's absences, paired
    and published (`pair_rapid_round`). All or nothing: a missing result, a refused pairing
    or an out-of-date page changes nothing, and so does a change of a result that is final
    already (`refuse_final_changes`)."""
    round_ = _locked_round(round_)
    missing = unfinished_boards(round_, results)
    if missing:
        raise CompetitionError(
            [_("Board %(board)s has no result yet.") % {"board": board} for board in missing]
        )
    refuse_final_changes(round_, results, now)
    enter_results(round_, results)
    return pair_rapid_round(round_.competition, round_.date, absences, round_.number + 1, now)


@transaction.atomic
def save_rapid_results(round_: Round, results: Mapping[int, str], now: datetime) -> int:
    """The rapid evening's "Uitslagen opslaan": `enter_results`, some boards may stay empty.
    A result that is final already (after 23:30) changes on the round's results page, which
    asks for a reason; here it is refused."""
    round_ = _locked_round(round_)
    refuse_final_changes(round_, results, now)
    return enter_results(round_, results)


def refuse_final_changes(round_: Round, results: Mapping[int, str], now: datetime) -> None:
    changed_final = round_.results_changed_after_final(results, now)
    if changed_final:
        raise CompetitionError(
            _(
                "The result of board %(boards)s is final already: change it on the round's "
                "results page, which asks for a reason."
            )
            % {"boards": ", ".join(str(game.board) for game in changed_final)}
        )


@transaction.atomic
def withdraw_rapid_round(round_: Round) -> None:
    """Take back a rapid round paired by mistake (a latecomer, a wrong presence, one round too
    many): only the competition's last round, only before any result. The round goes as if it
    was never paired (its games' and its own history keep it); the rankings are unchanged,
    since a round without results never counted."""
    round_ = _locked_round(round_)
    refuse_if_closed(round_.competition)
    if not round_.competition.pairs_on_the_evening:
        raise CompetitionError(
            _("A round of the internal competition cannot be withdrawn: its pairing is fixed.")
        )
    if round_.competition.rounds.filter(number__gt=round_.number).exists():
        raise OutOfDate(
            _("Round %(number)s is not the last round any more; nothing was changed.")
            % {"number": round_.number}
        )
    if round_.games.exclude(result="").exists():
        raise CompetitionError(
            _("Round %(number)s has results already: it can no longer be withdrawn.")
            % {"number": round_.number}
        )
    round_._change_reason = _("Pairing withdrawn")
    round_.delete()


# -- season files ------------------------------------------------------------------------------


def season_import_rows(
    season_name: str, kind: str, season: EngineSeason, first_evening: date, now: datetime
) -> exchange.SeasonRows:
    """What `import_season` would store, as unsaved rows; stores nothing. Refuses what
    `import_season` refuses (a `SeasonFileError` naming the place, or a `CompetitionError`)."""
    season_row = _check_season_import(season_name, kind, season, first_evening)
    competition = Competition(
        season=season_row or Season(name=season_name, start_date=first_evening),
        kind=kind,
        **Competition.values_of(season.settings),
    )
    return exchange.season_rows(competition, season, first_evening, now)


@transaction.atomic
def import_season(
    season_name: str, kind: str, season: EngineSeason, first_evening: date, now: datetime
) -> Competition:
    """A new competition from a season file's season (read by `season_file.loads`), with its
    rankings; the season is made when needed. Every value is checked against what its column
    holds first: a `SeasonFileError` names the place, and nothing is stored."""
    _check_season_import(season_name, kind, season, first_evening)
    season_row, _created = Season.objects.get_or_create(
        name=season_name, defaults={"start_date": first_evening}
    )
    competition = Competition.objects.create(
        season=season_row,
        kind=kind,
        **Competition.values_of(season.settings),
        **Competition.report_defaults(kind),
    )
    load_season(competition, season, first_evening, now)
    return competition


def _check_season_import(
    season_name: str, kind: str, season: EngineSeason, first_evening: date
) -> Season | None:
    """Refuse, before the database sees it, anything of an import its columns cannot hold;
    the existing season of that name, if any."""
    name_length = Season._meta.get_field("name").max_length
    problem = season_file.text_problem(season_name)
    if not season_name.strip() or len(season_name) > name_length:
        problem = f"must be 1 to {name_length} characters"
    if problem:
        raise season_file.SeasonFileError("--season", f"{problem}: {season_name!r}")
    name_length = Member._meta.get_field("name").max_length
    for index, player in enumerate(season.players):
        # The engine refuses control characters and invalid text; the column sets the length.
        if not player.name.strip():
            raise season_file.SeasonFileError(f"players[{index}].name", "must not be empty")
        if len(player.name) > name_length:
            raise season_file.SeasonFileError(
                f"players[{index}].name",
                f"is {len(player.name)} characters long; the site keeps at most {name_length}",
            )
    try:
        first_evening + EVENING_SPACING * len(season.rounds)
    except OverflowError:
        raise season_file.SeasonFileError(
            "rounds", f"{len(season.rounds)} weekly rounds from {first_evening} run past 9999"
        ) from None
    season_row = Season.objects.filter(name=season_name).first()
    if season_row and season_row.competitions.filter(kind=kind).exists():
        raise CompetitionError(
            _("Season %(name)s has a %(kind)s already.")
            % {"name": season_row.name, "kind": Competition.Kind(kind).label}
        )
    return season_row


@transaction.atomic
def load_season(competition: Competition, season, first_evening: date, now: datetime) -> dict:
    """Store an engine season's players and rounds in an empty competition (weekly evenings)
    and compute its rankings. Returns the participant key of each player id."""
    rows = exchange.season_rows(competition, season, first_evening, now)
    Member.objects.bulk_create(rows.new_members)
    Participant.objects.bulk_create(rows.participants)
    Round.objects.bulk_create(rows.rounds)
    Game.objects.bulk_create(rows.games)
    Absence.objects.bulk_create(rows.absences)
    recompute_rankings(competition)
    return {
        player.id: participant.pk
        for player, participant in zip(season.players, rows.participants, strict=True)
    }
