"""The rapid evening: its rounds paired, published and played one after another."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime

from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from competition import exchange
from competition.models import (
    Competition,
    Round,
)
from competition.services.guards import (
    CompetitionError,
    OutOfDate,
    closed_season_problems,
    lock_competition,
    locked_round,
    refuse_if_closed,
)
from competition.services.pairing import make_pairing, publish
from competition.services.results import enter_results
from competition.services.round_page import save_round


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
    lock_competition(competition)  # two taps at once pair one round
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
    round_ = locked_round(round_)
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
    round_ = locked_round(round_)
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
    round_ = locked_round(round_)
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
