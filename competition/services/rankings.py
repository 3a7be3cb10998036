"""The ranking snapshots: computed anew, or only when what the engine reads changed."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from competition import exchange
from competition.keizer.ranking import compute_rankings
from competition.models import (
    Competition,
    Ranking,
    Standing,
)
from competition.services.guards import lock_competition, refuse_if_closed


@transaction.atomic
def recompute_rankings(competition: Competition) -> None:
    """Compute every ranking snapshot of the competition anew from its complete rounds."""
    lock_competition(competition)
    refuse_if_closed(competition)
    _store_rankings(competition, exchange.read_inputs(competition))


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
