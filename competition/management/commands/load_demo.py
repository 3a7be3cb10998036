"""`python manage.py load_demo`: a realistic demo season, made through the real workflows.

Forty members with ratings, a season of 4 periods of 7 weekly rounds whose 12th club evening is
the last one before today, the first 12 rounds paired by the engine, published and played
(with absences, byes and a forfeit), the 13th round's pairing published when its Friday 20:00
has passed, an arbiter account and the rules page. Deterministic; does nothing when a season
exists already (use --reset to start over).
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path

from django.contrib.auth.models import Group, Permission, User
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from competition import schedule, services
from competition.models import Absence, Competition, Page, Participant, Round, Season
from members.models import Member

THURSDAY = 3
PLAYED_ROUNDS = 12
ARBITER = ("wedstrijdleider", "dsc-demo-2026")
NAMES = [
    "Jan de Zeeuw",
    "Pieter Bakker",
    "Klaas Jansen",
    "Sietse de Vries",
    "Anne Hoekstra",
    "Hendrik Postma",
    "Jelle Visser",
    "Marije de Boer",
    "Tjeerd Dijkstra",
    "Gerrit Smit",
    "Wietske van der Meer",
    "Sjoerd Bosma",
    "Harm Mulder",
    "Froukje de Jong",
    "Douwe Kuipers",
    "Bauke Veenstra",
    "Lieuwe Wiersma",
    "Rients Hofstra",
    "Ytsen Zijlstra",
    "Gerben Terpstra",
    "Aukje Koopmans",
    "Jitse de Wit",
    "Sybren Pietersen",
    "Hinke van Dijk",
    "Oene de Bruin",
    "Tiede Slager",
    "Lammert de Oude",
    "Johannes de Jonge",
    "Wybren Brouwer",
    "Geertje Kramer",
    "Durk Boersma",
    "Ruurd Schaap",
    "Egbert Feenstra",
    "Minke Haagsma",
    "Tsjalle Meijer",
    "Age Bergsma",
    "Folkert Nauta",
    "Roel Kooistra",
    "Ids Faber",
    "Baukje Sikkema",
]
CONTENT = Path(__file__).resolve().parents[2] / "content"


class Command(BaseCommand):
    help = "Load the demo season (nothing happens when a season already exists)."

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true", help="Delete all seasons first.")

    def handle(self, *args, reset=False, **options):
        if reset:
            Season.objects.all().delete()
        if Season.objects.exists():
            self.stdout.write("A season exists already; demo not loaded.")
        else:
            build_demo(timezone.now())
            self.stdout.write(self.style.SUCCESS("Demo season loaded."))
        user, password = ARBITER
        self.stdout.write(f"Admin (/beheer/) login: user {user}, password {password}")


def last_evening_before(today: date) -> date:
    return schedule.last_weekday_before(today, THURSDAY)


@transaction.atomic
def build_demo(now) -> Competition:
    rng = random.Random(2026)
    members = [
        Member.objects.create(
            name=name,
            knsb_number=8_100_000 + index,
            email=f"{name.lower().replace(' ', '.')}@example.org",
            rating=2150 - 27 * index + rng.randint(-20, 20),
            rating_is_estimate=index in (17, 33),
        )
        for index, name in enumerate(NAMES)
    ]
    twelfth = last_evening_before(timezone.localdate(now))
    first = twelfth - timedelta(weeks=PLAYED_ROUNDS - 1)
    season = Season.objects.create(name=f"{first.year}-{first.year + 1}", start_date=first)
    competition = Competition.objects.create(season=season)
    by_rating = sorted(members[:-1], key=lambda m: -m.rating)
    for position, member in enumerate(by_rating, start=1):
        Participant.objects.create(
            competition=competition, member=member, initial_position=position
        )
    newcomer = members[-1]  # joins in round 6 with start points placing them mid-table
    Participant.objects.create(
        competition=competition,
        member=newcomer,
        initial_position=len(by_rating) + 1,
        joined_round=6,
        start_points=150,
    )
    for number in range(1, 29):
        evening = first + timedelta(weeks=number - 1)
        Round.objects.create(
            competition=competition,
            number=number,
            date=evening,
            publish_at=schedule.publication_time(evening),
        )
    services.recompute_rankings(competition)
    for round_ in competition.rounds.order_by("number")[:PLAYED_ROUNDS]:
        play_round(round_, rng)
    upcoming = competition.rounds.get(number=PLAYED_ROUNDS + 1)
    if upcoming.publish_at <= now:
        services.make_pairing(upcoming)
        services.publish(upcoming, upcoming.publish_at)
    Page.objects.update_or_create(
        slug="reglement",
        defaults={
            "title": "Reglement interne competitie",
            "body": (CONTENT / "reglement.txt").read_text(encoding="utf-8"),
        },
    )
    create_arbiter()
    return competition


def play_round(round_: Round, rng: random.Random) -> None:
    """Absences, the engine's pairing, publication at 20:00 on Friday, then results."""
    present = services.present_players(round_)
    reasons = [Absence.Reason.EXCUSED] * 6 + [Absence.Reason.TEAM] * 2 + [Absence.Reason.UNEXCUSED]
    for participant in present:
        if rng.random() < 0.12:
            Absence.objects.create(
                round=round_, participant=participant, reason=rng.choice(reasons)
            )
    services.make_pairing(round_)
    services.publish(round_, round_.publish_at)
    round_.refresh_from_db()
    results = {}
    for game in round_.games.select_related("white__member", "black__member"):
        if round_.number == 5 and game.board == 3:
            results[game.pk] = "1-0F"  # black did not come
            continue
        edge = (game.white.member.rating - game.black.member.rating) / 400
        white_score = 1 / (1 + 10 ** (-edge))
        roll = rng.random()
        results[game.pk] = (
            "1-0"
            if roll < white_score - 0.12
            else "1/2-1/2"
            if roll < white_score + 0.12
            else "0-1"
        )
    services.enter_results(round_, results)


def create_arbiter() -> None:
    group, _ = Group.objects.get_or_create(name="Wedstrijdleiding")
    group.permissions.set(
        Permission.objects.filter(
            content_type__app_label__in=["competition", "members", "absences"]
        )
    )
    username, password = ARBITER
    user, created = User.objects.get_or_create(
        username=username, defaults={"is_staff": True, "first_name": "Wedstrijdleider"}
    )
    if created:
        user.set_password(password)
        user.save()
    user.groups.add(group)
