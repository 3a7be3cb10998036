"""Starting and closing a season."""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.utils.translation import gettext as _

from competition import lineup
from competition.models import Competition, Round, Season
from competition.schedule import weekly_evenings
from competition.services import CompetitionError

SEASON_ROUNDS = 28


def proposed_dates(first_evening: date, count: int = SEASON_ROUNDS) -> list[date]:
    """Weekly club evenings from the first; the arbiter removes holidays and adds later dates."""
    return weekly_evenings(first_evening, count)


@transaction.atomic
def create_season(name: str, evenings: list[date], members=None, rating_list=None) -> Competition:
    """The season, its internal competition with last season's settings (its rate of play and
    chief arbiter too), one round per club evening, and (given members) ranking 0 and groups
    from the ratings."""
    if Season.objects.filter(name=name).exists():
        raise CompetitionError(_("Season %(name)s exists already.") % {"name": name})
    evenings = sorted(set(evenings))
    if not evenings:
        raise CompetitionError(_("Give at least one club evening."))
    previous = Competition.objects.classical().order_by("-season__start_date").first()
    copied = {**previous.settings_values(), **previous.report_values()} if previous else {}
    copied = {**Competition.report_defaults(Competition.Kind.CLASSICAL), **copied}
    season = Season.objects.create(name=name, start_date=evenings[0])
    competition = Competition.objects.create(season=season, **copied)
    Round.objects.bulk_create(
        Round.on_evening(competition, number, evening)
        for number, evening in enumerate(evenings, start=1)
    )
    if members:
        lineup.fill_initial_ranking(competition, list(members), rating_list=rating_list)
    return competition


def close_season(season: Season) -> None:
    """Freeze the final standings: nothing of a closed season changes any more."""
    Season.objects.filter(pk=season.pk).update(is_closed=True)
