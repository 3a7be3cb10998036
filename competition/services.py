"""The workflows that span several models, each in one transaction.

Views and the admin call these; they call the engine through `exchange`.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from competition import exchange
from competition.keizer.pairing import pair_next_round
from competition.keizer.ranking import compute_rankings
from competition.models import Competition, Game, Participant, Round
from competition.seating import seating_problems


class CompetitionError(Exception):
    """A workflow refused: the messages say why; nothing was changed."""

    def __init__(self, messages: list[str] | str):
        self.messages = [messages] if isinstance(messages, str) else list(messages)
        super().__init__(" ".join(self.messages))


def refuse_if_closed(competition: Competition) -> None:
    if competition.season.is_closed:
        raise CompetitionError(
            _("Season %(name)s is closed; its standings are final.")
            % {"name": competition.season.name}
        )


@transaction.atomic
def recompute_rankings(competition: Competition) -> None:
    """Compute every ranking snapshot of the competition anew from its completed rounds."""
    refuse_if_closed(competition)
    season = exchange.season_for(competition)
    exchange.store_rankings(competition, compute_rankings(season), season)


def present_players(round_: Round) -> list[Participant]:
    """Everyone who has joined by this round and is not recorded absent from it."""
    absent = round_.absences.values_list("participant_id", flat=True)
    return list(
        round_.competition.participants.filter(joined_round__lte=round_.number)
        .exclude(pk__in=absent)
        .select_related("member")
    )


@transaction.atomic
def make_pairing(round_: Round) -> list[str]:
    """Pair the round with the engine (replacing an unpublished draft); returns the warnings."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
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
    round_.games.all().delete()
    for pair in pairing.pairs:
        Game.objects.create(
            round=round_, board=pair.board, white_id=int(pair.white), black_id=int(pair.black)
        )
    round_.bye_id = int(pairing.bye) if pairing.bye else None
    round_.pairing_warnings = [
        {"first": int(r.first), "second": int(r.second), "rounds": list(r.rounds)}
        for r in pairing.repeats
    ]
    round_.save()
    return pairing.warnings


def publish_due_rounds(now: datetime) -> list[Round]:
    """Publish every round whose publication time has passed, pairing it first when the
    arbiter prepared no draft. Each round in its own transaction, claimed under a row lock so
    that two workers never publish the same round; a round that cannot be paired yet (the
    previous round is incomplete) waits for the next pass."""
    published = []
    due = Round.objects.filter(
        published_at__isnull=True,
        publish_at__lte=now,
        competition__kind=Competition.Kind.CLASSICAL,  # the rapid is paired on the evening
        competition__season__is_closed=False,
    ).order_by("publish_at")
    for pk in due.values_list("pk", flat=True):
        with transaction.atomic():
            round_ = (
                Round.objects.select_for_update(skip_locked=True)
                .filter(pk=pk, published_at__isnull=True)
                .first()
            )
            if round_ is None:
                continue  # another worker has it
            if not round_.games.exists():
                try:
                    make_pairing(round_)
                except CompetitionError:
                    continue
                round_.refresh_from_db()  # the pairing set the bye
            if publication_problems(round_):
                continue  # a stale or inconsistent draft waits for the arbiter
            if publish(round_, now):
                published.append(round_)
    return published


def publish(round_: Round, now: datetime) -> bool:
    """Publish the round's pairing exactly once; False if it was already published."""
    return bool(
        Round.objects.filter(pk=round_.pk, published_at__isnull=True).update(published_at=now)
    )


def check_seating(
    round_: Round,
    games: list[tuple[int, int]],
    bye: int | None,
    everyone: bool = True,
    absent: list[int] | None = None,
) -> list[str]:
    """Problems with a seating of the round: nobody twice, nobody absent and seated, nobody
    who has not joined yet, and with `everyone` also nobody present left out. `absent`
    overrides the recorded absences (to check a form before it is saved)."""
    participants = {p.pk: p for p in round_.competition.participants.select_related("member")}
    if absent is None:
        absent = list(round_.absences.values_list("participant_id", flat=True)) if round_.pk else []
    present = [p.pk for p in participants.values() if p.joined_round <= round_.number]
    names = {pk: p.name for pk, p in participants.items()}
    not_joined = {
        pk: p.joined_round for pk, p in participants.items() if p.joined_round > round_.number
    }
    return seating_problems(games, bye, absent, present if everyone else None, names, not_joined)


def publication_problems(round_: Round) -> list[str]:
    """Why the round's pairing cannot be published now (empty when it can): every earlier
    round complete, a pairing, and a consistent seating of everyone present."""
    season = exchange.season_for(round_.competition)
    if len(season.rounds) < round_.number - 1:
        return [
            _("Round %(number)s cannot be published yet: round %(missing)s is not complete.")
            % {"number": round_.number, "missing": len(season.rounds) + 1}
        ]
    games = list(round_.games.values_list("white_id", "black_id"))
    if not games:
        return [_("There is no pairing to publish.")]
    return check_seating(round_, games, round_.bye_id)


@transaction.atomic
def enter_results(round_: Round, results: Mapping[int, str]) -> int:
    """Store results by game id and recompute the rankings; returns how many changed.

    Refuses (changing nothing) results for games outside the round's pairing, unknown results,
    an unpublished round, and a seating that is not consistent (nobody twice, nobody absent).
    """
    round_ = Round.objects.select_for_update().select_related("competition").get(pk=round_.pk)
    games = {game.pk: game for game in round_.games.select_for_update()}
    problems = []
    if round_.competition.season.is_closed:
        problems.append(
            _("Season %(name)s is closed; its standings are final.")
            % {"name": round_.competition.season.name}
        )
    if not round_.is_published:
        problems.append(_("Publish the pairing before entering results."))
    valid = set(Game.Outcome.values) | {""}
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
    changed = 0
    for game_id, result in results.items():
        game = games[game_id]
        if game.result != result:
            game.result = result
            game.save(update_fields=["result"])
            changed += 1
    if changed:
        recompute_rankings(round_.competition)
    return changed


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
