"""Starting, closing and reopening a season."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db import transaction
from django.utils.translation import gettext as _

from club.models import current as current_club
from competition import exchange, lineup, reports
from competition.models import Competition, Game, Round, Season
from competition.schedule import weekly_evenings
from competition.services import CompetitionError


def proposed_dates(first_evening: date, count: int | None = None) -> list[date]:
    """Weekly club evenings from the first, as many as the club proposes (DSC: 28) unless
    told; the arbiter removes holidays and adds later dates."""
    return weekly_evenings(first_evening, count or current_club().rounds_proposed)


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


@dataclass(frozen=True)
class ClosingReport:
    """What closing the season would leave undone: its rounds not yet played (not published,
    or a result missing), and the results and team matches still waiting for the arbiter."""

    unplayed: list[Round]
    missing_results: int
    disputes: int

    @property
    def complete(self) -> bool:
        return not self.unplayed and not self.disputes


def closing_report(season: Season, now: datetime) -> ClosingReport:
    rounds = list(
        Round.objects.filter(competition__season=season)
        .with_result_counts()
        .select_related("competition")
        .order_by("competition__kind", "number")
    )
    unplayed = [r for r in rounds if not r.is_published or r.games_done < r.games_total]
    missing = Game.objects.filter(
        round__competition__season=season, round__published_at__isnull=False, result=""
    ).count()
    disputes = sum(
        len(reports.games_to_decide(competition, now)) + len(exchange.open_team_claims(competition))
        for competition in season.competitions.all()
    )
    return ClosingReport(unplayed, missing, disputes)


@transaction.atomic
def close_season(season: Season, now: datetime, reason: str = "") -> None:
    """Freeze the final standings: nothing of a closed season changes any more. Before the
    last round is played (or with results or team matches still to decide) only with the
    arbiter's reason, kept in the season's history."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    if season.is_closed:
        raise CompetitionError(_("Season %(name)s is closed already.") % {"name": season.name})
    report = closing_report(season, now)
    reason = reason.strip()
    if not report.complete and not reason:
        raise CompetitionError(
            _(
                "Season %(name)s is not finished: %(rounds)s round(s) still to play and "
                "%(disputes)s to decide. Give a reason to close it now."
            )
            % {"name": season.name, "rounds": len(report.unplayed), "disputes": report.disputes}
        )
    season.is_closed = True
    season._change_reason = reason or _("Closed after the last round")
    season.save(update_fields=["is_closed"])


@transaction.atomic
def reopen_season(season: Season, reason: str) -> None:
    """A closed season open again (a result to correct, closed by mistake): with a reason,
    kept in the season's history."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    if not season.is_closed:
        raise CompetitionError(_("Season %(name)s is not closed.") % {"name": season.name})
    if not reason.strip():
        raise CompetitionError(_("Give a reason to reopen the season."))
    season.is_closed = False
    season._change_reason = reason.strip()
    season.save(update_fields=["is_closed"])
