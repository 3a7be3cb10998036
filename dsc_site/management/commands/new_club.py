"""`python manage.py new_club`: a new club on an empty site (issue 40, point 5).

The club's row (its name, sender, arbiter's address and week, checked as the club's page
checks them), an empty rules page, the first season with its proposed weekly evenings, and the
arbiter's account with a password printed once. What is not given as an option is asked for;
with --no-input a missing value is an error. Refused on a site that holds a season or a member
already: the club's page (/beheer/vereniging/) changes a club in use.

    python manage.py new_club --name "Schaakclub De Toren" --short-name "De Toren" \\
        --place Sneek --sender-address competitie@detoren.nl \\
        --arbiter-address wedstrijdleider@detoren.nl --arbiter-username wedstrijdleider \\
        --evening dinsdag --deadline "zondag 20:00" --publication "maandag 12:00" \\
        --play 19:30 --results-final 23:30 --season 2027-2028 --first-evening 7-9-2027
"""

from __future__ import annotations

import secrets
from datetime import date, time

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from arbiter import roles
from arbiter.club_page import set_club
from club.models import WEEKDAYS
from competition import seasons
from competition.models import Page, Season
from competition.services import CompetitionError
from members.models import Member

QUESTIONS = (  # option, question (Dutch: the club's people answer them)
    ("name", "Naam van de club"),
    ("short_name", "Korte naam (voor elk e-mailonderwerp)"),
    ("place", "Plaats"),
    ("sender_address", "Afzenderadres van de e-mails"),
    ("arbiter_address", "E-mailadres van de wedstrijdleider"),
    ("arbiter_username", "Gebruikersnaam van de wedstrijdleider"),
    ("evening", "Clubavond (dag)"),
    ("deadline", "Afmelden kan tot (dag en tijd, bijvoorbeeld vrijdag 18:00)"),
    ("publication", "Publicatie van de indeling (dag en tijd; alleen een tijd: de afmelddag)"),
    ("play", "Aanvang van de partijen (tijd)"),
    ("results_final", "Uitslagen definitief om (tijd)"),
    ("season", "Eerste seizoen (bijvoorbeeld 2027-2028)"),
    ("first_evening", "Eerste clubavond (dag-maand-jaar)"),
)


class Command(BaseCommand):
    help = "Set up a new club on an empty site: its row, an empty rules page, a first season."

    def add_arguments(self, parser):
        for option, question in QUESTIONS:
            parser.add_argument(f"--{option.replace('_', '-')}", dest=option, help=question)
        parser.add_argument(
            "--no-input", action="store_true", help="Ask nothing: every value is an option."
        )

    def handle(self, *args, no_input=False, **options):
        if Season.objects.exists() or Member.objects.exists():
            raise CommandError(
                "deze site heeft al een club (een seizoen of een lid); wijzig de club op haar "
                "pagina, /beheer/vereniging/"
            )
        given = {option: options.get(option) for option, _question in QUESTIONS}
        for option, question in QUESTIONS:
            while not given[option]:
                if no_input:
                    raise CommandError(f"--{option.replace('_', '-')} ontbreekt")
                given[option] = input(f"{question}: ").strip()
        try:
            club, competition, password = set_up(given, timezone.localdate())
        except (ValueError, ValidationError, CompetitionError) as error:
            messages = error.messages if hasattr(error, "messages") else [str(error)]
            raise CommandError("; ".join(messages)) from None
        first = competition.rounds.order_by("number").first()
        deadline = timezone.localtime(first.cancellation_deadline)
        publication = timezone.localtime(first.publish_at)
        # In Dutch, as the club's people read it (the site's language).
        lines = [
            f"{club.name}: seizoen {competition.season.name}, {competition.rounds.count()} "
            f"clubavonden vanaf {formats.date_format(first.date, 'l j F Y')}.",
            f"Ronde 1: afmelden tot {formats.date_format(deadline, 'l j F H:i')}, de indeling "
            f"op {formats.date_format(publication, 'l j F H:i')}.",
            f"Wedstrijdleider (/beheer/): gebruiker {given['arbiter_username']}, wachtwoord "
            f"{password} (één keer getoond; wijzig het na het inloggen).",
            "Daarna: de leden (/beheer/members/member/), ranglijst 0 (de pagina van de "
            "competitie) en het reglement (/beheer/competition/page/).",
        ]
        self.stdout.write(self.style.SUCCESS("\n".join(lines)))


@transaction.atomic
def set_up(given: dict, today: date):
    """The club, its empty rules page, its first season and its arbiter, or nothing."""
    deadline_day, deadline_time = day_and_time(given["deadline"])
    publication_day, publication_time = day_and_time(given["publication"], day_needed=False)
    club = set_club(
        {
            "name": given["name"],
            "short_name": given["short_name"],
            "place": given["place"],
            "sender_name": given["name"],
            "sender_address": given["sender_address"],
            "arbiter_address": given["arbiter_address"],
            "evening_weekday": weekday(given["evening"]),
            "deadline_weekday": deadline_day,
            "deadline_time": deadline_time,
            "publication_weekday": publication_day,
            "publication_time": publication_time,
            "play_time": clock(given["play"]),
            "results_final_time": clock(given["results_final"]),
        },
        today,
    )
    first_evening = parse_date(given["first_evening"])
    if first_evening.weekday() != club.evening_weekday:
        raise ValueError(
            _("The first club evening %(date)s is not a %(day)s.")
            % {
                "date": first_evening.strftime("%d-%m-%Y"),
                "day": club.get_evening_weekday_display(),
            }
        )
    Page.objects.update_or_create(
        slug="reglement", defaults={"title": _("Rules of the internal competition"), "body": ""}
    )
    competition = seasons.create_season(given["season"], seasons.proposed_dates(first_evening))
    password = secrets.token_urlsafe(12)
    arbiter = User.objects.create_user(given["arbiter_username"], password=password)
    arbiter.is_staff = True
    arbiter.save()
    arbiter.groups.add(roles.arbiter_group())
    return club, competition, password


def weekday(text: str) -> int:
    """A day as the command reads it: in Dutch, in English or as a number (Monday = 0)."""
    names = {str(number): number for number, _label in WEEKDAYS}
    for language in ("nl", "en"):
        with translation.override(language):
            names |= {str(label).lower(): number for number, label in WEEKDAYS}
    number = names.get(text.strip().lower())
    if number is None:
        raise ValueError(_("Unknown day %(day)s: give a day such as dinsdag.") % {"day": text})
    return number


def clock(text: str) -> time:
    try:
        return time.fromisoformat(text.strip())  # 20:00
    except ValueError:
        raise ValueError(
            _("Unknown time %(time)s: give a time such as 20:00.") % {"time": text}
        ) from None


def day_and_time(text: str, day_needed: bool = True) -> tuple[int | None, time]:
    """ "zondag 20:00" as (6, 20:00); "12:00" (where no day is needed) as (None, 12:00)."""
    parts = text.split()
    if len(parts) == 1 and not day_needed:
        return None, clock(parts[0])
    if len(parts) != 2:
        raise ValueError(
            _("Give a day and a time, such as zondag 20:00: not %(text)s.") % {"text": text}
        )
    return weekday(parts[0]), clock(parts[1])


def parse_date(text: str) -> date:
    """ "7-9-2027" (day-month-year, as the site writes dates) or "2027-09-07"."""
    parts = text.strip().split("-")
    try:
        if len(parts) == 3 and len(parts[0]) <= 2:
            return date(int(parts[2]), int(parts[1]), int(parts[0]))
        return date.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(
            _("Unknown date %(date)s: give one such as 7-9-2027.") % {"date": text}
        ) from None
