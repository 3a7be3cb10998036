"""A competition's Keizer: DSC's or another club's variant (issue 39), chosen until its first
pairing."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from competition.keizer.season import Settings
from competition.models import Competition
from competition.services.guards import CompetitionError, refuse_if_closed


@transaction.atomic
def choose_keizer(competition: Competition, settings: Settings) -> Competition:
    """Store these settings as the competition's Keizer. Refused once a round has been
    paired: every ranking since follows from them (as the admin's form holds them then)."""
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    refuse_if_closed(competition)
    if competition.is_under_way:
        raise CompetitionError(
            _("A round has been paired: the Keizer settings are fixed for this competition.")
        )
    for field, value in Competition.values_of(settings).items():
        setattr(competition, field, value)
    competition.save()
    return competition
