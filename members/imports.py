"""Importing a KNSB rating list: what it would change, and doing it (in one transaction)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django.db import transaction
from django.utils.translation import gettext as _

from members import knsb
from members.models import ListedRating, Member, RatingList


class ImportRefused(Exception):
    def __init__(self, messages: list[str]):
        self.messages = messages
        super().__init__("; ".join(messages))


@dataclass
class ImportReport:
    list_date: date
    players_on_list: int
    new_ratings: list[tuple[Member, int | None, int]] = field(default_factory=list)  # old, new
    unchanged: list[Member] = field(default_factory=list)
    not_on_list: list[Member] = field(default_factory=list)  # club members with a number
    errors: list[str] = field(default_factory=list)

    @property
    def changes_anything(self) -> bool:
        return bool(self.new_ratings)


def preview(parsed: knsb.RatingListFile, list_date: date) -> ImportReport:
    """What importing the list would do; changes nothing."""
    report = ImportReport(list_date, len(parsed.players), errors=[str(e) for e in parsed.errors])
    listed = {player.knsb_number: player for player in parsed.players}
    members = Member.objects.filter(knsb_number__isnull=False).order_by("name")
    stored = dict(
        ListedRating.objects.filter(rating_list__date=list_date).values_list("member_id", "rating")
    )
    previous = _previous_ratings(list_date)
    for member in members:
        player = listed.get(member.knsb_number)
        if player is None:
            if member.is_active:
                report.not_on_list.append(member)
        elif stored.get(member.pk) == player.rating:
            report.unchanged.append(member)
        else:
            old = stored.get(member.pk, previous.get(member.pk))
            report.new_ratings.append((member, old, player.rating))
    return report


def _previous_ratings(list_date: date) -> dict[int, int]:
    """Each member's rating on the latest list before `list_date`."""
    ratings = {}
    for member_id, rating in (
        ListedRating.objects.filter(rating_list__date__lt=list_date)
        .order_by("rating_list__date")
        .values_list("member_id", "rating")
    ):
        ratings[member_id] = rating
    return ratings


@transaction.atomic
def apply(parsed: knsb.RatingListFile, list_date: date, file_name: str = "") -> ImportReport:
    """Store the club members' ratings from the list. A list with any malformed line is
    refused and changes nothing; importing the same list again changes nothing."""
    report = preview(parsed, list_date)
    if report.errors:
        raise ImportRefused(
            [_("The file has malformed lines; nothing was imported."), *report.errors]
        )
    rating_list, _created = RatingList.objects.get_or_create(
        date=list_date, defaults={"file_name": _shown_file_name(file_name)}
    )
    for member, _old, rating in report.new_ratings:
        ListedRating.objects.update_or_create(
            rating_list=rating_list, member=member, defaults={"rating": rating}
        )
    return report


def _shown_file_name(name: str) -> str:
    """The file's name as its column keeps it: printable, and cut to the column's length."""
    printable = "".join(c for c in name if c.isprintable())
    return printable[: RatingList._meta.get_field("file_name").max_length]
