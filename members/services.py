"""Workflows of the members app: ratings on a date, the best team player, drawing lots,
a member's choice of e-mails, the member's calendar link."""

from __future__ import annotations

import random
from datetime import date

from django.db import transaction

from club.models import current as current_club
from members import performance
from members.models import ExternalGame, ListedRating, Member, TeamPlayerLot, new_calendar_token


def rating_on(member: Member, day: date) -> int | None:
    """The member's rating on the latest list dated on or before `day`, else the estimate."""
    listed = (
        ListedRating.objects.filter(member=member, rating_list__date__lte=day)
        .order_by("-rating_list__date")
        .values_list("rating", flat=True)
        .first()
    )
    return listed if listed is not None else member.estimated_rating


def fill_own_ratings(boards: list[ExternalGame]) -> None:
    """Give each board without an own rating the member's rating on the match date."""
    for board in boards:
        if board.own_rating is None:
            board.own_rating = rating_on(board.member, board.match.date)
            board.save(update_fields=["own_rating"])


def team_player_table(season: str) -> list[performance.TeamPlayerRow]:
    games = ExternalGame.objects.filter(match__team__season=season).exclude(score="")
    results = [
        performance.ExternalResult(g.member_id, g.colour, g.score, g.w_minus_we) for g in games
    ]
    lots = dict(TeamPlayerLot.objects.filter(season=season).values_list("member_id", "lot"))
    minimum = current_club().team_player_minimum_games  # DSC: 5
    return performance.best_team_player_table(results, lots, minimum)


@transaction.atomic
def draw_lots(season: str, rng: random.Random | None = None) -> int:
    """Record a drawing of lots for every group of players tied on all rules; players who
    have a lot keep it (a drawing is never repeated). Returns how many lots were drawn."""
    rng = rng or random.SystemRandom()
    table = team_player_table(season)
    drawn = 0
    group: list[performance.TeamPlayerRow] = []
    for row in table:
        group.append(row)
        if not row.tied_with_next:
            undrawn = [r for r in group if r.lot is None]
            if len(group) > 1 and undrawn:
                taken = {r.lot for r in group if r.lot is not None}
                free = [n for n in range(1, len(group) + len(taken) + 1) if n not in taken]
                rng.shuffle(free)
                for r, lot in zip(undrawn, free, strict=False):
                    TeamPlayerLot.objects.create(season=season, member_id=r.member_id, lot=lot)
                    drawn += 1
            group = []
    return drawn


MAIL_CHOICES = ("mail_pairing", "mail_confirmations", "mail_ranking", "mail_reminder")


def choose_mail(member: Member, **chosen: bool):
    """Store which e-mails the member wants (`MAIL_CHOICES`; the ones the rules require always
    go out)."""
    for field in MAIL_CHOICES:
        setattr(member, field, bool(chosen[field]))
    member.save(update_fields=list(MAIL_CHOICES))


def turn_off_mail(member: Member, choice: str, on: bool = False) -> None:
    """One kind of e-mail off, as the one-click link in it asks (`members.unsubscribe`); or on
    again (`on`), from the same link's page, for whoever changed their mind there."""
    setattr(member, choice, on)
    member.save(update_fields=[choice])


def renew_calendar_token(member: Member) -> str:
    """Give the member a new secret calendar link; the old one stops working at once."""
    member.calendar_token = new_calendar_token()
    member.save(update_fields=["calendar_token"])
    return member.calendar_token
