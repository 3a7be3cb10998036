"""The pairing of a round: the engine's draft, discarded, published."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Subquery
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.utils import (
    bulk_create_with_history,
    get_change_reason_from_object,
)

from competition import exchange
from competition.keizer.colours import recent_colours
from competition.keizer.pairing import pair_next_round
from competition.keizer.season import Game as EngineGame
from competition.keizer.season import Result
from competition.models import (
    Game,
    Ranking,
    Round,
    Standing,
)
from competition.seating import check_seating
from competition.services.guards import CompetitionError, closed_season_problems, locked_round


@dataclass(frozen=True)
class Board:
    """One board of a pairing as the arbiter sets it: participant keys."""

    board: int
    white: int
    black: int


@dataclass(frozen=True)
class Basis:
    """What a player's board in a draft was paired from: place and value in the ranking
    before the round (None for a player not in it yet) and the colours of their last games
    played, the latest last ("white"/"black")."""

    place: int | None
    value: int | None
    colours: tuple[str, ...]


RECENT_GAMES = 3  # the colours the review of a draft shows per player


def pairing_basis(round_: Round) -> tuple[int | None, dict[int, Basis]]:
    """The number of the ranking a draft was paired from and every player's `Basis`, read in
    two queries for the whole round (never one per board)."""
    standings = Standing.objects.filter(
        ranking__competition=round_.competition_id,
        ranking__after_round=Subquery(
            Ranking.objects.filter(competition=round_.competition_id, after_round__lt=round_.number)
            .order_by("-after_round")
            .values("after_round")[:1]
        ),
    ).values_list("participant_id", "position", "value", "ranking__after_round")
    standings = list(standings)
    placed = {participant: (position, value) for participant, position, value, _n in standings}
    ranking = next((number for *_rest, number in standings), None)
    played = (
        Game.objects.filter(
            round__competition=round_.competition_id, round__number__lt=round_.number
        )
        .published()
        .exclude(result="")
        .order_by("round__number", "board")
        .values_list("white_id", "black_id", "result")
    )
    colours = recent_colours(
        (EngineGame(str(w), str(b), Result(r)) for w, b, r in played), RECENT_GAMES
    )
    keys = placed.keys() | {int(key) for key in colours}
    return ranking, {
        key: Basis(*placed.get(key, (None, None)), colours.get(str(key), ())) for key in keys
    }


def pairing_problems(round_: Round) -> list[str]:
    """Why the round cannot be paired now (empty when it can): its season is closed, it is
    published, or an earlier round is not complete. The start page offers "Indeling maken"
    only without them and says instead what the round waits for."""
    if closed := closed_season_problems(round_.competition):
        return closed
    if round_.is_published:
        return [_("Round %(number)s is already published.") % {"number": round_.number}]
    counted = exchange.counted_rounds(round_.competition, round_.number)
    if counted < round_.number - 1:
        return [
            _("Round %(number)s cannot be paired yet: round %(missing)s is not complete.")
            % {"number": round_.number, "missing": counted + 1}
        ]
    return []


@transaction.atomic
def make_pairing(round_: Round) -> list[str]:
    """Pair the round with the engine (replacing an unpublished draft); returns the warnings.
    Refused, changing nothing, for anything `pairing_problems` names."""
    return _pair_locked(locked_round(round_))


def _pair_locked(round_: Round) -> list[str]:
    if problems := pairing_problems(round_):
        raise CompetitionError(problems)
    season = exchange.season_for(round_.competition, pair_round=round_)
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
    round_.draft_discarded_because = ""
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
def discard_draft(round_: Round, because: str = "") -> bool:
    """Drop an unpublished draft pairing (it is made again by the arbiter or at publication
    time), noting whose change dropped it (`because`); False when there was none."""
    round_ = locked_round(round_)
    if round_.is_published or not round_.games.exists():
        return False
    for game in round_.games.all():
        game.delete()
    round_.bye = None
    round_.pairing_warnings = []
    round_.draft_discarded_because = because[:200]
    round_.save()
    return True


@transaction.atomic
def publish(round_: Round, now: datetime) -> bool:
    """Publish the round's pairing exactly once, checked under the round's lock (every
    earlier round complete, everyone present seated once); False if it was published already.
    The lock is the one claim: whoever holds it publishes, a second caller waits for it and
    finds the round published."""
    round_ = locked_round(round_)
    return _publish_locked(round_, now)


@transaction.atomic
def publish_due(round_: Round, now: datetime) -> bool:
    """The worker's publication of a round whose time has come: paired by the engine first
    when the arbiter made no draft, then published, under one lock; False when it was
    published already. Refused (`CompetitionError`, nothing changed) while it cannot be paired
    or published: the previous round incomplete, an inconsistent draft."""
    round_ = locked_round(round_)
    if round_.is_published:
        return False
    if not round_.games.exists():
        _pair_locked(round_)  # under the same lock; it sets the bye
    return _publish_locked(round_, now)


def _publish_locked(round_: Round, now: datetime) -> bool:
    if round_.is_published:
        return False
    if problems := publication_problems(round_):
        raise CompetitionError(problems)
    round_.published_at = now
    round_._change_reason = _("Pairing published")
    round_.save(update_fields=["published_at"])
    return True


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
