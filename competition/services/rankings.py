"""The ranking snapshots: computed anew, or only when what the engine reads changed."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from functools import partial

from django.db import connections, router, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from competition import exchange
from competition.keizer.ranking import compute_rankings
from competition.models import (
    Competition,
    Ranking,
    Round,
    Standing,
)
from competition.services.guards import (
    CompetitionError,
    OutOfDate,
    lock_competition,
    refuse_if_closed,
)

logger = logging.getLogger(__name__)


@transaction.atomic
def recompute_rankings(competition: Competition, reason: str = "") -> bool:
    """Compute every ranking snapshot of the competition anew from its complete rounds; a
    final ranking that changes is marked corrected, with `reason` (`_update`, which holds it
    instead where the rule says so). True when every snapshot was stored."""
    lock_competition(competition)
    refuse_if_closed(competition)
    return _update(competition, exchange.read_inputs(competition), reason)


@transaction.atomic
def recompute_after_results(
    competition: Competition,
    number: int,
    changes: Mapping[tuple[int, int], tuple[str, str]],
    reason: str = "",
) -> bool:
    """`recompute_rankings` after results of round `number` changed (`changes`: by the game's
    (white key, black key), its result before and now). Ranking j is computed from rounds 1..j
    only, so only rankings `number`.. can change: when the stored rankings are the engine's
    of the data as it was before these results (their digest says so), only those are computed
    and compared (`_update` with `since`); otherwise (a change held or not yet seen, a round
    that may have stopped counting) every ranking, as `recompute_rankings` does."""
    lock_competition(competition)
    refuse_if_closed(competition)
    inputs = exchange.read_inputs(competition)
    before = exchange.inputs_before(inputs, number, changes)
    stored = set(competition.rankings.order_by().values_list("inputs", flat=True).distinct())
    if before is not None and stored == {before.digest}:
        return _update(competition, inputs, reason, since=number)
    return _update(competition, inputs, reason)


@transaction.atomic
def refresh_rankings(competition: Competition, reason: str = "") -> bool:
    """Recompute the snapshots if what the engine reads changed since they were computed
    (a result, an absence, a player, a setting or a team line-up, changed anywhere); True when
    every snapshot was stored. Closed seasons stay as they are. Without a reason (the worker's
    pass) a change already held as it is costs nothing: it waits for the arbiter."""
    lock_competition(competition)
    if competition.season.is_closed:
        return False
    inputs = exchange.read_inputs(competition)
    if competition.rankings.values_list("inputs", flat=True).first() == inputs.digest:
        _hold(competition, "", None)  # the change was undone: nothing waits any more
        return False
    if not reason and _held(competition)[0] == inputs.digest:
        return False  # held already, as it is
    return _update(competition, inputs, reason)


@transaction.atomic
def correct_rankings(competition: Competition, reason: str, held_inputs: str) -> None:
    """The arbiter's word on a held change: the published rankings are corrected as the
    stored data gives them, with `reason`. Refused without a reason, and when what waits is no
    longer what the arbiter saw (`held_inputs`: undone, changed again, or corrected by another
    hand meanwhile)."""
    lock_competition(competition)
    competition.refresh_from_db()
    if not reason.strip():
        raise CompetitionError(_("Say why the published rankings change."))
    if competition.held_since is None or held_inputs != competition.held_inputs:
        raise OutOfDate(_("What waits has changed meanwhile: look at it again."))
    _update(competition, exchange.read_inputs(competition), reason.strip(), confirmed=True)


def _update(
    competition: Competition,
    inputs: exchange.Inputs,
    reason: str,
    confirmed: bool = False,
    since: int = 0,
) -> bool:
    """The one rule of the published record (issue 35: nothing published changes silently).
    The final rankings (ranking 0 once a round is paired, a round's ranking once its results
    are final) change only with a reason: a workflow gives its own (what it changed), the
    arbiter theirs for a held change (`confirmed`). A change without one (the worker's pass
    after an edit in the admin or by a command), and any change while another is held (a
    result entered on the evening then), leaves every final ranking as it is: the rankings
    that are not final follow, the competition is marked as holding a change for the
    arbiter (`Competition.held_since`: the start page says so, `ranking_changes` previews it,
    `correct_rankings` stores it with the reason), and undoing it clears the mark.

    With `since`, the caller knows the rankings before ranking `since` to be the engine's of
    `inputs` already (`recompute_after_results`): only the later ones are computed, compared
    and stored."""
    now = timezone.now()
    computed = _computed(inputs, since)
    stored = exchange.stored_snapshots(competition, since)
    corrections = _corrections(competition, computed, stored, now)
    held = _held(competition)
    store = partial(_store_rankings, competition, inputs, computed, stored, now, corrections)
    if corrections and not confirmed and (not reason or held[1]):
        store(reason, keep=corrections, since=since)
        _hold(competition, inputs.digest, held[1] or now, held)
        logger.warning("a change to %s would correct published rankings: held", competition)
        return False
    store(reason, since=since, held=held)
    return True


def _held(competition: Competition) -> tuple[str, datetime | None]:
    """The digest of the data a held change waits with, and since when ("", None: none)."""
    return (
        Competition.objects.filter(pk=competition.pk).values_list("held_inputs", "held_since").get()
    )


@dataclass(frozen=True)
class Moved:
    """A player whose line in a final ranking a held change would change."""

    name: str
    position: tuple[int, int]  # before, after
    total: tuple[Fraction, Fraction]


@dataclass(frozen=True)
class RankingChange:
    after_round: int
    moved: list[Moved]


def ranking_changes(competition: Competition) -> list[RankingChange]:
    """What storing the competition's data as it is now would change in its final rankings
    (the published record): per ranking, the players whose position or total moves."""
    computed = _computed(exchange.read_inputs(competition))
    stored = exchange.stored_snapshots(competition)
    corrected = _corrections(competition, computed, stored, timezone.now())
    names = {p.pk: p.name for p in competition.participants.select_related("member")}
    changes = []
    for snapshot in computed:
        if snapshot.after_round not in corrected:
            continue
        before = {line[0]: line for line in stored[snapshot.after_round].standings}
        moved = [
            Moved(names[key], (before[key][1], position), (before[key][4], total))
            for key, position, _value, _valuation, total, *_rest in snapshot.standings
            if key in before and (before[key][1], before[key][4]) != (position, total)
        ]
        changes.append(RankingChange(snapshot.after_round, moved))
    return changes


def _computed(inputs: exchange.Inputs, since: int = 0) -> list[exchange.Snapshot]:
    return exchange.snapshots(compute_rankings(inputs.season, since=since), inputs)


def _corrections(
    competition: Competition,
    computed: list[exchange.Snapshot],
    stored: dict[int, exchange.Snapshot],
    now: datetime,
) -> set[int]:
    """The final rankings (stored, their round's results final) that `computed` changes."""
    differ = {s.after_round for s in computed if stored.get(s.after_round) not in (None, s)}
    differ |= set(stored) - {s.after_round for s in computed}  # a ranking that would go
    return _final(competition, differ, now)


def _final(competition: Competition, numbers, now: datetime) -> set[int]:
    """Which of these rankings are final, the club's record: ranking 0 once a round has been
    paired, a round's ranking once its results are final (23:30 on its evening)."""
    final = set(
        Round.objects.filter(competition=competition, number__in=list(numbers))
        .results_final(now)
        .order_by()  # a set: without the default order's joins
        .values_list("number", flat=True)
    )
    if 0 in numbers and competition.is_under_way:
        final.add(0)
    return final


def _hold(
    competition: Competition,
    digest: str,
    since: datetime | None,
    stored: tuple[str, datetime | None] | None = None,
) -> None:
    """Mark the change held (or nothing held, with "" and None): written only when it differs
    from what is stored (`stored`: what `_held` gave under the competition's lock, else read
    here), so that a pass with nothing new writes nothing (and leaves the pages' cache
    alone)."""
    if (stored if stored is not None else _held(competition)) != (digest, since):
        Competition.objects.filter(pk=competition.pk).update(held_inputs=digest, held_since=since)
    competition.held_inputs, competition.held_since = digest, since


def _store_rankings(
    competition: Competition,
    inputs: exchange.Inputs,
    computed: list[exchange.Snapshot],
    stored: dict[int, exchange.Snapshot],
    now: datetime,
    final: set[int],
    reason: str = "",
    keep: set[int] = frozenset(),
    since: int = 0,
    held: tuple[str, datetime | None] | None = None,
) -> None:
    """Store the engine's rankings of `inputs`. Only the snapshots that differ from the stored
    ones are written anew (after a round's results, the ranking after that round and any it
    changed); the others keep their rows. A final ranking that changes is a correction: it is
    marked with the moment and `reason` (which `_update` makes sure there is), after the
    reasons of its earlier corrections (the standings page says so, the ranking e-mail's
    readers are told once). The rankings in `keep` (final ones a held change would correct)
    stay as they are; then no snapshot gets the digest of `inputs`, so the worker's next pass
    sees the data still differ, and finds it held. With `since`, `computed` and `stored` hold
    the rankings from `since` on, and the earlier ones stay as they are (the caller knows them
    up to date). `final`: the final rankings among those that differ from the stored ones
    (`_corrections` at `now`); `held`: what `_held` gave, if read already."""
    changed = [
        snapshot
        for snapshot in computed
        if stored.get(snapshot.after_round) != snapshot and snapshot.after_round not in keep
    ]
    kept = {snapshot.after_round for snapshot in computed} - {s.after_round for s in changed}
    kept |= keep & set(stored)
    digest = "" if keep else inputs.digest
    replaced = competition.rankings.filter(after_round__gte=since).exclude(after_round__in=kept)
    marks = {
        ranking.after_round: ranking
        for ranking in replaced.only(  # the competition too: the manager links it to each row
            "competition", "after_round", "corrected_at", "correction", "correction_mailed_at"
        )
    }
    if marks:
        _delete_rankings([ranking.pk for ranking in marks.values()])
    competition.rankings.update(inputs=digest, computed_at=now)
    rows = exchange.ranking_rows(competition, changed, digest)
    for ranking, _standings in rows:
        earlier = marks.get(ranking.after_round)
        if earlier is None:
            continue  # a new ranking, not a correction
        if ranking.after_round in final:
            ranking.corrected_at = now
            ranking.correction = "; ".join(filter(None, [reason, earlier.correction]))
        else:  # still provisional: a change of the evening, not a correction
            ranking.corrected_at, ranking.correction = earlier.corrected_at, earlier.correction
            ranking.correction_mailed_at = earlier.correction_mailed_at
    Ranking.objects.bulk_create(ranking for ranking, _standings in rows)
    _insert_standings(rows)
    if not keep:
        _hold(competition, "", None, held)


def _delete_rankings(keys: list[int]) -> None:
    """Delete these rankings and their standings: two DELETEs by key. What Django's deletion
    would do, without reading the rankings first to find what else refers to them: only their
    standings do (a test says so), and neither has signals or history."""
    database = router.db_for_write(Ranking)
    Standing.objects.filter(ranking__in=keys)._raw_delete(database)
    Ranking.objects.filter(pk__in=keys)._raw_delete(database)


def _insert_standings(rows: list[tuple[Ranking, tuple[tuple, ...]]]) -> None:
    """The standings of these saved rankings (`exchange.ranking_rows`) in one executemany:
    each value prepared by its field as bulk_create prepares it, without a model object and a
    compiled INSERT a row (a saved result writes 150 standings, a full recompute 4,200)."""
    fields = [Standing._meta.get_field(name) for name in exchange.STANDING_COLUMNS]
    connection = connections[router.db_for_write(Standing)]
    total, points = Standing._meta.get_field("total"), Standing._meta.get_field("points")
    values = [
        (
            ranking.pk,
            participant,
            position,
            value,
            valuation_value,
            total.get_db_prep_save(amount, connection),
            points.get_db_prep_save(round_points, connection),
            attended,
        )
        for ranking, standings in rows
        for participant, position, value, valuation_value, amount, round_points, attended in (
            standings
        )
    ]
    if not values:
        return
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in fields)
    marks = ", ".join(["%s"] * len(fields))
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {quote(Standing._meta.db_table)} ({columns}) VALUES ({marks})", values
        )


def claim_correction_mail(competition: Competition, now: datetime) -> list[Ranking]:
    """The competition's corrected rankings not yet told by e-mail, claimed for it by a
    conditional update (a second worker gets none); in round order."""
    due = list(
        competition.rankings.filter(
            corrected_at__isnull=False, correction_mailed_at__isnull=True
        ).order_by("after_round")
    )
    claimed = Ranking.objects.filter(
        pk__in=[ranking.pk for ranking in due], correction_mailed_at__isnull=True
    ).update(correction_mailed_at=now)
    return due if claimed else []
