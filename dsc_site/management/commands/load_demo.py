"""`python manage.py load_demo`: a realistic demo season, made through the real workflows.

Forty members with ratings (a KNSB list of 1 June, two estimates), two teams with their
matches, a season of 4 periods of 7 weekly rounds whose 12th club evening is
the last one before today, the first 12 rounds paired by the engine, published and played
(with absences, byes and a forfeit), the 13th round's pairing published when its Friday 20:00
has passed, last season (2025-2026: 9 rounds, closed) so a visitor can open an earlier
season, an arbiter account, a board member's account, the rules page and the first training
article. Deterministic; does nothing when a season exists already (use --reset to start
over).

It is for development and trials (`make run`), and refuses a site in production: with DEBUG off
unless told `--without-debug`, and a database with real data (a season, a member or an account
the demo did not make: any, in a database the demo was never loaded into) unless told
`--on-real-data`. With DEBUG off, even when told, the demo's accounts get random passwords,
printed once, never the ones the README publishes.
"""

from __future__ import annotations

import random
import secrets
from datetime import date, datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from arbiter import roles
from arbiter.club_page import set_club
from club.models import current as current_club
from competition import lineup, schedule, seasons, services
from competition.keizer.season import Result, Settings
from competition.models import Absence, Competition, Page, Round, Season
from competition.schedule import EVENING_SPACING
from dsc_site.demo_clubs import DEMO_CLUBS, DSC, DemoClub
from members.models import ExternalGame, ListedRating, Member, RatingList, Team, TeamMatch
from training import first_article, writers
from training.models import Article

PLAYED_ROUNDS = 12
PREVIOUS_ROUNDS = 9  # last season, closed: short, so the demo stays quick
PREVIOUS_PLAYERS = 32  # the first 32 members played last season (the newcomer did not)
NEWCOMER = 20  # a mid-table member who joins in round 6
ARBITER = ("wedstrijdleider", "dsc-demo-2026")
MEMBER = ("jan", "dsc-lid-2026")  # Jan de Zeeuw, to try "Mijn afmeldingen"
BOARD_MEMBER = ("bestuur", "dsc-bestuur-2026")  # Marije de Boer, writes training articles
# Jan's opponent on board 2 of round 13, so the two can enter their result on the evening.
OPPONENT = ("tjeerd", "dsc-lid-2026", "Tjeerd Dijkstra")
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
# The federation's report (TRF) carries sex and birth date where the member's record has them;
# the demo knows them for most members, not all. Frisian names: Anne is a man's name.
WOMEN = {"Marije", "Wietske", "Froukje", "Aukje", "Hinke", "Geertje", "Minke", "Baukje"}
CHIEF_ARBITER = "Gerrit Smit"
RAPID_RATE_OF_PLAY = "15 min + 5 s per zet"
# The demo's rapid competition: a shorter scale, three evenings of three rounds in one period,
# values fixed (no full re-valuation). The rapid evening's benchmark plays by the same.
RAPID_SETTINGS = Settings(top_value=30, rounds_per_period=9, full_revaluation_from_round=None)
# The demo's rating list is named so: a database holding it is one the demo was loaded into.
DEMO_RATING_LIST = "demo"
OPPONENTS = ["Heerenveen", "Leeuwarden", "Sneek", "Groningen", "Assen", "Emmen", "Joure"]


class Command(BaseCommand):
    help = "Load the demo season (nothing happens when a season already exists)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--reset",
            action="store_true",
            help="Delete all seasons, members, teams and rating lists first (demo databases only).",
        )
        parser.add_argument(
            "--without-debug",
            action="store_true",
            help="Load it with DEBUG off too (its accounts then get random passwords).",
        )
        parser.add_argument(
            "--club",
            choices=sorted(DEMO_CLUBS),
            default=DSC.key,
            help="Whose demo: DSC's (the default) or a second club's (dsc_site/demo_clubs.py).",
        )
        parser.add_argument(
            "--on-real-data",
            action="store_true",
            help="Load it into a database with seasons, members or accounts of its own.",
        )

    def handle(
        self, *args, reset=False, without_debug=False, on_real_data=False, club=DSC.key, **options
    ):
        if not settings.DEBUG and not without_debug:
            raise CommandError(
                "DEBUG is off: this looks like a site in production, and the demo makes "
                "accounts; add --without-debug to load it anyway (with random passwords)"
            )
        if not on_real_data and holds_real_data():
            raise CommandError(
                "the database holds seasons, members or accounts the demo did not make; "
                "add --on-real-data to load the demo beside them"
            )
        if reset:
            with transaction.atomic():
                User.objects.filter(username__in=[MEMBER[0], OPPONENT[0]]).delete()
                Season.objects.all().delete()
                Team.objects.all().delete()
                RatingList.objects.all().delete()
                Member.objects.all().delete()
        published = settings.DEBUG
        if Season.objects.exists():
            self.stdout.write("A season exists already; demo not loaded.")
            if not published:
                self.stdout.write("Its logins were printed when it was loaded.")
                return
            logins = LOGINS
        else:
            logins = LOGINS if published else random_passwords()
            build_demo(timezone.now(), dict(logins), DEMO_CLUBS[club])
            self.stdout.write(self.style.SUCCESS("Demo season loaded."))
        passwords = dict(logins)
        user = ARBITER[0]
        self.stdout.write(f"Admin (/beheer/) login: user {user}, password {passwords[user]}")
        user = MEMBER[0]
        self.stdout.write(f"Member login (/afmelden/): user {user}, password {passwords[user]}")
        user = BOARD_MEMBER[0]
        self.stdout.write(f"Board member login (/beheer/): user {user}, password {passwords[user]}")
        user, _, name = OPPONENT
        self.stdout.write(
            f"{name}, Jan's opponent in round 13: user {user}, password {passwords[user]}"
        )
        self.stdout.write(
            "The other members have no login yet: /beheer/members/member/ -> "
            "Iedereen zonder account uitnodigen (with `make run`, each e-mail is a line in this "
            "console and a file in .mail/)"
        )


# The demo's accounts with the passwords the README publishes (development only).
LOGINS = [ARBITER, MEMBER, BOARD_MEMBER, OPPONENT[:2]]


def random_passwords() -> list[tuple[str, str]]:
    """The demo's accounts with passwords nobody has read in the README."""
    return [(username, secrets.token_urlsafe(12)) for username, _ in LOGINS]


def holds_real_data() -> bool:
    """Whether the database holds a season, a member or an account, and the demo was never
    loaded into it: a site in use, not `make run`'s (which loads the demo into an empty
    database, then finds it there on every later run)."""
    if RatingList.objects.filter(file_name=DEMO_RATING_LIST).exists():
        return False
    return Season.objects.exists() or Member.objects.exists() or User.objects.exists()


def last_evening_before(today: date) -> date:
    return schedule.last_weekday_before(today, current_club().evening_weekday)


@transaction.atomic
def build_demo(now, passwords: dict[str, str], demo: DemoClub = DSC) -> Competition:
    """The demo of `demo`'s club, its accounts with `passwords` (by username)."""
    if demo.club:
        set_club(demo.club, timezone.localdate(now))
    rng = random.Random(2026)
    twelfth = last_evening_before(timezone.localdate(now))
    first = twelfth - EVENING_SPACING * (PLAYED_ROUNDS - 1)
    june_list = RatingList.objects.create(date=date(first.year, 6, 1), file_name=DEMO_RATING_LIST)
    members = []
    for index, name in enumerate(NAMES):
        strength = 2150 - 27 * index + rng.randint(-20, 20)
        estimated = index in (17, 33)  # two members without a KNSB rating
        member = Member.objects.create(
            name=name,
            knsb_number=None if estimated else 8_100_000 + index,
            email=f"{name.lower().replace(' ', '.')}@example.org",
            estimated_rating=strength if estimated else None,
            **private_details(index, name),
        )
        if not estimated:
            ListedRating.objects.create(rating_list=june_list, member=member, rating=strength)
        members.append(member)
    season = Season.objects.create(name=f"{first.year}-{first.year + 1}", start_date=first)
    competition = Competition.objects.create(
        season=season,
        chief_arbiter=CHIEF_ARBITER,
        **Competition.report_defaults(Competition.Kind.CLASSICAL),
        **Competition.values_of(demo.keizer),
    )
    for number, evening in enumerate(schedule.weekly_evenings(first, 28), start=1):
        Round.on_evening(competition, number, evening).save()
    # The newcomer comes before round 5 is played and joins in round 6 with the suggested start
    # points: they enter ranking 5 with its results, and nothing published changes.
    newcomer = members[NEWCOMER]
    lineup.fill_initial_ranking(
        competition, [m for m in members if m != newcomer], rating_list=june_list
    )
    create_teams(season.name, members, first, rng, demo)
    strength = {m.pk: m.rating.value for m in Member.objects.with_ratings()}
    for round_ in competition.rounds.order_by("number")[:PLAYED_ROUNDS]:
        if round_.number == 5:
            points = lineup.suggest_start_points(competition, newcomer, 6)
            lineup.add_newcomer(competition, newcomer, 6, points, round_.publish_at)
        play_round(round_, rng, strength)
    if demo.with_rapid:
        create_rapid(season, members, first, rng)
    create_previous_season(first, members, june_list, strength, now)
    upcoming = competition.rounds.get(number=PLAYED_ROUNDS + 1)
    if upcoming.publish_at <= now:
        services.make_pairing(upcoming)
        services.publish(upcoming, upcoming.publish_at)
    Page.objects.update_or_create(
        slug="reglement",
        defaults={
            "title": "Reglement interne competitie",
            "body": demo.rules.read_text(encoding="utf-8") if demo.rules else "",
        },
    )
    if demo.with_article:
        Article.objects.update_or_create(
            slug=first_article.SLUG,
            defaults={
                "title": first_article.TITLE,
                "summary": first_article.SUMMARY,
                "body": first_article.body(),
                "published_on": first,
            },
        )
    create_arbiter(passwords[ARBITER[0]])
    create_board_member(passwords[BOARD_MEMBER[0]])
    username = MEMBER[0]
    account = User.objects.create_user(username, password=passwords[username], first_name="Jan")
    Member.objects.filter(name="Jan de Zeeuw").update(user=account)
    username, _, name = OPPONENT
    account = User.objects.create_user(
        username, password=passwords[username], first_name=name.split()[0]
    )
    Member.objects.filter(name=name).update(user=account)
    return competition


def private_details(index: int, name: str) -> dict:
    """Sex and birth date of the demo's members, known for four in five of them (without the
    random numbers, so the season comes out as before)."""
    if index % 5 == 4:
        return {}
    return {
        "sex": Member.Sex.FEMALE if name.split()[0] in WOMEN else Member.Sex.MALE,
        "birth_date": date(
            1948 + (index * 13) % 60, 1 + (index * 5 + 3) % 12, 1 + (index * 11 + 6) % 28
        ),
    }


def create_previous_season(
    first: date,
    members: list[Member],
    rating_list: RatingList,
    strength: dict[int, int],
    now: datetime,
) -> Competition:
    """Last season, closed: 9 weekly rounds a year before this season, played through the same
    workflows (pairing, publication, results) with its own random numbers, so this season's
    demo stays as it is."""
    rng = random.Random(2025)
    start = first - EVENING_SPACING * 52  # a year before
    competition = seasons.create_season(
        f"{start.year}-{start.year + 1}",
        seasons.proposed_dates(start, PREVIOUS_ROUNDS),
        members=[m for m in members[:PREVIOUS_PLAYERS] if m != members[NEWCOMER]],
        rating_list=rating_list,
    )
    for round_ in competition.rounds.order_by("number"):
        play_round(round_, rng, strength)
    seasons.close_season(competition.season, now)
    return competition


def create_teams(
    season: str, members: list[Member], first: date, rng: random.Random, demo: DemoClub = DSC
) -> None:
    """Two teams (DSC 1 in the KNSB, the 8 strongest, and DSC 2 in the FSB, the next 6: the
    club's short name and federations), each with matches two days after a club evening; the
    first team's second match is the day after club evening 4, so its players are absent from
    round 4 with the team reason."""
    club = current_club()
    first_league, second_league = (club.league_names * 2)[:2]
    for name, league, players, boards, fridays in (
        (f"{club.short_name} {demo.teams[0]}", first_league, members[:8], 8, {1}),
        (f"{club.short_name} {demo.teams[1]}", second_league, members[8:14], 6, set()),
    ):
        team = Team.objects.create(season=season, name=name, league=league)
        team.players.set(players)
        for match_number in range(7):
            evening = first + EVENING_SPACING * (match_number * 2 + 1)
            day = evening + timedelta(days=1 if match_number in fridays else 2)
            match = TeamMatch.objects.create(
                team=team,
                date=day,
                opponent=rng.choice(OPPONENTS),
                at_home=match_number % 2 == 0,
                kind=TeamMatch.Kind.CUP if match_number == 6 else TeamMatch.Kind.LEAGUE,
            )
            for board, member in enumerate(players[:boards], start=1):
                own = member.rating.value
                ExternalGame.objects.create(
                    match=match,
                    board=board,
                    member=member,
                    colour="white" if (board + match_number) % 2 else "black",
                    opponent_name=f"Tegenstander {board}",
                    own_rating=own,
                    opponent_rating=own + rng.randint(-150, 150),
                    score=rng.choice(["1", "1", "1/2", "0"]),
                )


def create_rapid(
    season: Season, members: list[Member], first: date, rng: random.Random
) -> Competition:
    """The rapid competition: its own settings, 18 members and 2 guests, three Tuesday
    evenings of three rounds each, paired and published by the arbiter on the evening."""
    rapid = Competition.objects.create(
        season=season,
        kind=Competition.Kind.RAPID,
        **Competition.values_of(RAPID_SETTINGS),
        rate_of_play=RAPID_RATE_OF_PLAY,
        chief_arbiter=CHIEF_ARBITER,
    )
    players = members[::2][:18]
    for position, member in enumerate(players, start=1):
        rapid.participants.create(member=member, initial_position=position)
    for offset, guest in enumerate(("Piet Oosterhuis", "Klaas Bosch"), start=len(players) + 1):
        rapid.participants.create(guest_name=guest, initial_position=offset)
    services.recompute_rankings(rapid)
    for evening_number in range(3):
        evening = first + timedelta(days=5 + 28 * evening_number)  # a Tuesday
        for number in range(evening_number * 3 + 1, evening_number * 3 + 4):
            round_ = Round.on_evening(rapid, number, evening)
            round_.save()
            services.make_pairing(round_)
            services.publish(round_, round_.publish_at)
            round_.refresh_from_db()
            outcomes = [Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW]
            services.enter_results(
                round_, {game.pk: rng.choice(outcomes).value for game in round_.games.all()}
            )
    return rapid


def play_round(round_: Round, rng: random.Random, strength: dict[int, int]) -> None:
    """Absences, the engine's pairing, publication at 20:00 on Friday, then results."""
    present = list(round_.present_participants())
    reasons = [Absence.Reason.EXCUSED] * 6 + [Absence.Reason.LATE, Absence.Reason.UNEXCUSED]
    for participant in present:
        if rng.random() < 0.1:
            services.record_absence(round_, participant, rng.choice(reasons))
    services.make_pairing(round_)
    services.publish(round_, round_.publish_at)
    round_.refresh_from_db()
    results = {}
    for game in round_.games.select_related("white", "black"):
        if round_.number == 5 and game.board == 3:
            results[game.pk] = Result.by_default(white_came=True, black_came=False).value
            continue
        edge = (strength[game.white.member_id] - strength[game.black.member_id]) / 400
        white_score = 1 / (1 + 10 ** (-edge))
        roll = rng.random()
        result = (
            Result.WHITE_WINS
            if roll < white_score - 0.12
            else Result.DRAW
            if roll < white_score + 0.12
            else Result.BLACK_WINS
        )
        results[game.pk] = result.value
    services.enter_results(round_, results)


def create_arbiter(password: str) -> None:
    group = roles.arbiter_group()
    username = ARBITER[0]
    user, created = User.objects.get_or_create(
        username=username, defaults={"is_staff": True, "first_name": "Wedstrijdleider"}
    )
    if created:
        user.set_password(password)
        user.save()
    user.groups.add(group)


def create_board_member(password: str) -> None:
    """A board member who writes the training articles and keeps the club's page (and
    nothing else in /beheer/)."""
    group, _ = Group.objects.get_or_create(name=writers.BOARD_GROUP)
    group.permissions.set(roles.board_permissions())
    username = BOARD_MEMBER[0]
    user, created = User.objects.get_or_create(
        username=username,
        defaults={"is_staff": True, "first_name": "Marije", "last_name": "de Boer"},
    )
    if created:
        user.set_password(password)
        user.save()
    user.groups.add(group)
