"""The arbiter's round page: the round's fields, who is absent and why, and a draft's boards,
stored together and checked as a whole."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.models import (
    Absence,
    Game,
    Participant,
    Round,
)
from competition.seating import check_seating
from competition.services.guards import CompetitionError, OutOfDate, locked_round, refuse_if_closed
from competition.services.pairing import Board
from competition.services.rankings import refresh_rankings

# What the round page may change of a round that is not published yet.
ROUND_PAGE_FIELDS = ("competition", "number", "date", "publish_at", "bye")


@transaction.atomic
def save_round(
    round_: Round,
    absences: Mapping[int, str] | None,
    boards: list[Board] | None = None,
    based_on: set[int] | None = None,
    reason: str = "",
    now: datetime | None = None,
) -> None:
    """The arbiter's round page: for a round not published yet its own fields as set on
    `round_` (date, times, the bye) and a draft's boards; who is absent and why (None: the
    absences stay as they are). `based_on` names the games the page showed: if the stored
    pairing differs, it changed meanwhile and nothing is saved. Checked as a whole: absent
    players are not seated, a draft seats everyone else who has joined, a published pairing
    and its round stay fixed. The rankings are recomputed only when what they are computed
    from changed; changed absences of a round whose results are final correct its ranking,
    and are refused without a `reason` (issue 35: nothing published changes silently)."""
    refuse_if_closed(round_.competition)
    stored = locked_round(round_) if round_.pk else None
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
    changed = False
    if absences is not None:
        before = dict(target.absences.values_list("participant_id", "reason"))
        changed = before != dict(absences)
        final = not target.results_are_provisional(now or timezone.now())
        if changed and published and final and not reason:
            raise CompetitionError(
                _("Say why: the results of round %(number)s are final, so its ranking is.")
                % {"number": target.number}
            )
        _replace_absences(target, absences)
        if published and changed:  # kept in the round's history
            target._change_reason = reason or _("Published pairing changed")
            target.save(update_fields=["bye"])
    if boards is not None:
        _replace_boards(round_, boards)
    if published and changed:
        refresh_rankings(target.competition, reason or _("Published pairing changed"))


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
    reasons = round_.competition.engine_settings().reasons  # DSC's, and the club's own
    problems = []
    for participant_id, reason in absences.items():
        participant = participants.get(participant_id)
        if participant is None or participant.competition_id != round_.competition_id:
            name = participant.name if participant else participant_id
            problems.append(_("%(name)s does not play in this competition.") % {"name": name})
        elif reason not in reasons:
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
