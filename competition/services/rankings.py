"""The ranking snapshots: computed anew, or only when what the engine reads changed."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
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
from competition.services.guards import lock_competition, refuse_if_closed


@transaction.atomic
def recompute_rankings(competition: Competition, reason: str = "") -> None:
    """Compute every ranking snapshot of the competition anew from its complete rounds; a
    final ranking that changes is marked corrected, with `reason`."""
    lock_competition(competition)
    refuse_if_closed(competition)
    _store_rankings(competition, exchange.read_inputs(competition), reason)


@transaction.atomic
def refresh_rankings(competition: Competition) -> bool:
    """Recompute the snapshots if what the engine reads changed since they were computed
    (a result, an absence, a player, a setting or a team line-up, changed anywhere); True when
    it did. Closed seasons stay as they are."""
    lock_competition(competition)
    if competition.season.is_closed:
        return False
    inputs = exchange.read_inputs(competition)
    if competition.rankings.values_list("inputs", flat=True).first() == inputs.digest:
        return False
    _store_rankings(competition, inputs)
    return True


def _store_rankings(competition: Competition, inputs: exchange.Inputs, reason: str = "") -> None:
    """Store the engine's rankings of `inputs`. Only the snapshots that differ from the stored
    ones are written anew (after a round's results, the ranking after that round and any it
    changed); the others keep their rows, and every snapshot gets the new digest. A ranking
    that was there and final (its round's results final) and changes is a correction: it is
    marked with the moment and `reason` (the standings page says so, the ranking e-mail's
    readers are told once)."""
    now = timezone.now()
    computed = exchange.snapshots(compute_rankings(inputs.season), inputs)
    stored = exchange.stored_snapshots(competition)
    changed = [snapshot for snapshot in computed if stored.get(snapshot.after_round) != snapshot]
    kept = {snapshot.after_round for snapshot in computed} - {s.after_round for s in changed}
    marks = {
        ranking.after_round: ranking
        for ranking in competition.rankings.exclude(after_round__in=kept).only(
            "after_round", "corrected_at", "correction", "correction_mailed_at"
        )
    }
    final = set(
        Round.objects.filter(competition=competition, number__in=list(marks))
        .results_final(now)
        .values_list("number", flat=True)
    )
    if set(stored) - kept:
        competition.rankings.exclude(after_round__in=kept).delete()
    competition.rankings.update(inputs=inputs.digest, computed_at=now)
    rows = exchange.ranking_rows(competition, changed, inputs.digest)
    for ranking, _standings in rows:
        earlier = marks.get(ranking.after_round)
        if earlier is None:
            continue  # a new ranking, not a correction
        if ranking.after_round in final:
            ranking.corrected_at = now
            ranking.correction = (reason or _("changed by the arbiter"))[:200]
        else:  # still provisional: a change of the evening, not a correction
            ranking.corrected_at, ranking.correction = earlier.corrected_at, earlier.correction
            ranking.correction_mailed_at = earlier.correction_mailed_at
    Ranking.objects.bulk_create(ranking for ranking, _standings in rows)
    Standing.objects.bulk_create(
        (standing for _ranking, standings in rows for standing in standings), batch_size=1000
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
