"""Seasons, competitions, their players, rounds, games and ranking snapshots.

The Keizer arithmetic lives in `competition.keizer`; these models store what the engine reads
(`exchange.py` translates) and what it computed (`Ranking`, `Standing`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, timedelta
from fractions import Fraction

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from competition.fields import FractionField, not_negative
from competition.keizer import season as keizer
from competition.keizer.scoring import Outcome, game_outcome
from competition.schedule import CLUB_TIME_ZONE, club_week
from members.models import Member

DEFAULT_SETTINGS = keizer.Settings()  # DSC's settings: the defaults of a new competition
# DSC rule i: 1:30 for the first 30 moves, then 15 minutes to finish, per player per game. As
# the federation's rating report (TRF line 122) states it; the rapid competition has its own.
DSC_RATE_OF_PLAY = "90 min/30 zetten + 15 min"


class SeasonQuerySet(models.QuerySet):
    def current(self, today: date):
        """The latest season that has started and has a competition (else the latest)."""
        with_competition = self.filter(competitions__isnull=False).distinct()
        return (
            with_competition.filter(start_date__lte=today).order_by("-start_date").first()
            or with_competition.order_by("-start_date").first()
            or self.order_by("-start_date").first()
        )


class Season(models.Model):
    name = models.CharField(_("name"), max_length=20, unique=True, help_text="2026-2027")
    start_date = models.DateField(_("start date"))
    is_closed = models.BooleanField(_("closed"), default=False)

    objects = SeasonQuerySet.as_manager()

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-start_date"]

    def __str__(self) -> str:
        return self.name


class CompetitionQuerySet(models.QuerySet):
    def classical(self):
        """The internal competition (Friday deadline, published by the worker, team absences)."""
        return self.filter(kind=Competition.Kind.CLASSICAL)

    def rapid(self):
        return self.filter(kind=Competition.Kind.RAPID)

    def open(self):
        """Competitions of seasons that are not closed: their standings can still change."""
        return self.filter(season__is_closed=False)

    def current(self, today: date):
        """The competitions of the current season (`SeasonQuerySet.current`)."""
        return self.filter(season=Season.objects.current(today))


class CompetitionManager(models.Manager.from_queryset(CompetitionQuerySet)):
    def get_queryset(self):
        return super().get_queryset().select_related("season")  # its name includes the season


class Competition(models.Model):
    class Kind(models.TextChoices):
        CLASSICAL = "classical", _("internal competition")
        RAPID = "rapid", _("rapid competition")

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.CASCADE, related_name="competitions"
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind, default=Kind.CLASSICAL)
    # The engine's settings (`keizer.season.Settings`), one column each, DSC's values by default.
    top_value = models.PositiveIntegerField(
        _("top value"), default=DEFAULT_SETTINGS.top_value, validators=[MinValueValidator(1)]
    )
    step = models.PositiveIntegerField(
        _("step"), default=DEFAULT_SETTINGS.step, validators=[MinValueValidator(1)]
    )
    rounds_per_period = models.PositiveIntegerField(
        _("rounds per period"),
        default=DEFAULT_SETTINGS.rounds_per_period,
        validators=[MinValueValidator(1)],
    )
    full_revaluation_from_round = models.PositiveIntegerField(
        _("full re-valuation from round"),
        null=True,
        blank=True,
        default=DEFAULT_SETTINGS.full_revaluation_from_round,
        help_text=_("Empty: never."),
    )
    bye_fraction = FractionField(
        _("bye: share of own value"),
        default=str(DEFAULT_SETTINGS.bye_fraction),
        validators=[not_negative],
    )
    excused_fraction = FractionField(
        _("cancelled in time: share"),
        default=str(DEFAULT_SETTINGS.excused_fraction),
        validators=[not_negative],
    )
    team_fraction = FractionField(
        _("team match: share"),
        default=str(DEFAULT_SETTINGS.team_fraction),
        validators=[not_negative],
    )
    auto_absence_fraction = FractionField(
        _("cancelled automatically: share"),
        default=str(DEFAULT_SETTINGS.auto_absence_fraction),
        validators=[not_negative],
    )
    # What the federation's rating report (competition/trf_export.py) says of the competition.
    rate_of_play = models.CharField(
        _("rate of play"),
        max_length=100,
        blank=True,
        help_text=_(
            "As the rating report to the federation states it. The internal competition's is "
            "DSC rule i; the rapid competition has its own."
        ),
    )
    chief_arbiter = models.CharField(
        _("chief arbiter"),
        max_length=100,
        blank=True,
        help_text=_("Name of the arbiter in charge; the federation needs it to rate the games."),
    )

    objects = CompetitionManager()

    class Meta:
        verbose_name = _("competition")
        verbose_name_plural = _("competitions")
        ordering = ["-season__start_date", "kind"]
        constraints = [
            models.UniqueConstraint(fields=["season", "kind"], name="one_competition_per_kind")
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.season}"

    @property
    def is_classical(self) -> bool:
        return self.kind == self.Kind.CLASSICAL

    def engine_settings(self) -> keizer.Settings:
        return keizer.Settings(**self.settings_values())

    def settings_values(self) -> dict:
        """The Keizer settings by name, to copy into another competition."""
        return {name: getattr(self, name) for name in keizer.SETTING_NAMES}

    @classmethod
    def report_defaults(cls, kind: str) -> dict:
        """The rate of play a new competition of this kind starts with: DSC rule i's for the
        internal competition; the rules state none for the rapid competition."""
        return {"rate_of_play": DSC_RATE_OF_PLAY if kind == cls.Kind.CLASSICAL else ""}

    def report_values(self) -> dict:
        """What the rating report says of the competition (rate of play, chief arbiter), to
        copy into next season's."""
        return {"rate_of_play": self.rate_of_play, "chief_arbiter": self.chief_arbiter}

    @staticmethod
    def values_of(settings: keizer.Settings) -> dict:
        """An engine's settings as the field values of a competition."""
        return {name: getattr(settings, name) for name in keizer.SETTING_NAMES}


class Participant(models.Model):
    """A player in a competition: a member, or a guest (rapid only)."""

    competition = models.ForeignKey(
        Competition,
        verbose_name=_("competition"),
        on_delete=models.CASCADE,
        related_name="participants",
    )
    member = models.ForeignKey(
        Member,
        verbose_name=_("member"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="participations",
    )
    guest_name = models.CharField(_("guest name"), max_length=100, blank=True)
    initial_position = models.PositiveIntegerField(
        _("position in ranking 0"), help_text=_("The order of the initial ranking.")
    )
    joined_round = models.PositiveIntegerField(
        _("joins in round"), default=1, validators=[MinValueValidator(1)]
    )
    start_points = FractionField(_("start points"), default="0", validators=[not_negative])
    group = models.CharField(
        _("group"),
        max_length=1,
        blank=True,
        choices=[(g, g) for g in "ABCD"],
        help_text=_("A–D by rating, fixed for the season."),
    )

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["competition", "initial_position"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "member"],
                condition=Q(member__isnull=False),
                name="member_once_per_competition",
            ),
            models.CheckConstraint(
                condition=Q(member__isnull=False, guest_name="")
                | Q(member__isnull=True) & ~Q(guest_name=""),
                name="member_or_guest",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("competition:player", args=[self.pk])

    @property
    def name(self) -> str:
        return self.member.name if self.member_id else self.guest_name

    @property
    def engine_id(self) -> str:
        return str(self.pk)

    def latest_standing(self) -> Standing | None:
        """The player's place in the competition's latest ranking (None before ranking 0)."""
        return self.standings.order_by("-ranking__after_round").first()


class RoundQuerySet(models.QuerySet):
    def published(self):
        return self.filter(published_at__isnull=False)

    def unpublished(self):
        return self.filter(published_at__isnull=True)

    def from_day(self, day: date):
        """Club evenings on `day` or later (the coming ones)."""
        return self.filter(date__gte=day)

    def before_day(self, day: date):
        return self.filter(date__lt=day)

    def with_result_counts(self):
        """Each round with `games_total` and `games_done` (games with a result)."""
        return self.annotate(
            games_total=models.Count("games"),
            games_done=models.Count("games", filter=~Q(games__result="")),
        )

    def this_week(self, today: date):
        """The arbiter's desk: the rounds from `today` on up to and including the first one
        not published yet (one competition's rounds)."""
        first_unpublished = (
            self.from_day(today).unpublished().order_by("number").values("number")[:1]
        )
        return self.from_day(today).filter(
            number__lte=Coalesce(models.Subquery(first_unpublished), models.Value(2**31 - 1))
        )

    def missing_results(self, today: date):
        """Published rounds before `today` with a game still without a result."""
        without_result = Game.objects.filter(round=models.OuterRef("pk"), result="")
        return self.published().before_day(today).filter(models.Exists(without_result))

    def due_for_publication(self, now: datetime):
        """Unpublished rounds of the internal competition of open seasons whose publication
        time has come (the rapid competition is paired and published on its evening)."""
        return self.unpublished().filter(
            publish_at__lte=now,
            competition__kind=Competition.Kind.CLASSICAL,
            competition__season__is_closed=False,
        )

    def pairing_mail_due(self, now: datetime):
        """Published pairings of the internal competition not yet e-mailed, of evenings still to
        come: today's only until play starts, so a worker catching up (after downtime, or a
        pairing published on the evening) never mails a pairing the players sit down to."""
        today = now.astimezone(CLUB_TIME_ZONE).date()
        coming = self.from_day(today)
        if now >= club_week().play_starts_at(today):
            coming = self.from_day(today + timedelta(days=1))
        return coming.published().filter(
            pairing_mailed_at__isnull=True, competition__kind=Competition.Kind.CLASSICAL
        )

    def results_final(self, now: datetime):
        """Rounds whose results are final at `now` (`Round.results_are_provisional`, in SQL):
        every evening before today, and today's once its results-final time has passed."""
        today = now.astimezone(CLUB_TIME_ZONE).date()
        if now < club_week().results_final_at(today):
            return self.filter(date__lt=today)
        return self.filter(date__lte=today)

    def ranking_mail_due(self, now: datetime):
        """The round whose new ranking is to be e-mailed, per competition at most one: of the
        current season's internal competition, its results final, its ranking stored and the
        newest of the competition, not mailed yet and no later round mailed. Only the newest
        ranking is ever mailed, so a worker that was down, a season imported at once or the
        deployment of this e-mail never sends a backlog of older rankings."""
        today = now.astimezone(CLUB_TIME_ZONE).date()
        same_competition = {"competition": models.OuterRef("competition")}
        number = models.OuterRef("number")
        return (
            self.published()
            .results_final(now)
            .filter(
                ranking_mailed_at__isnull=True,
                competition__kind=Competition.Kind.CLASSICAL,
                competition__season=Season.objects.current(today),
                competition__season__is_closed=False,
            )
            .filter(models.Exists(Ranking.objects.filter(**same_competition, after_round=number)))
            .exclude(
                models.Exists(Ranking.objects.filter(**same_competition, after_round__gt=number))
            )
            .exclude(
                models.Exists(
                    Round.objects.filter(
                        **same_competition, number__gt=number, ranking_mailed_at__isnull=False
                    )
                )
            )
        )


class Round(models.Model):
    class Stage(models.TextChoices):
        """Where a round stands in the club's week (`Round.stage`)."""

        OPEN = "open", _("open for cancellations")
        CLOSED = "closed", _("cancellations closed, not paired yet")
        DRAFT = "draft", _("draft pairing")
        PUBLISHED = "published", _("published")
        PROVISIONAL = "provisional", _("results entered (provisional)")
        FINAL = "final", _("results entered")

    competition = models.ForeignKey(
        Competition,
        verbose_name=_("competition"),
        on_delete=models.CASCADE,
        related_name="rounds",
    )
    number = models.PositiveIntegerField(_("round"), validators=[MinValueValidator(1)])
    date = models.DateField(_("club evening"))
    publish_at = models.DateTimeField(
        _("publication time"),
        blank=True,
        help_text=_(
            "Empty: the club's publication time (Friday 20:00 before the evening; for the "
            "rapid competition the evening itself)."
        ),
    )
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    bye = models.ForeignKey(
        Participant,
        verbose_name=_("bye"),
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="+",
    )
    pairing_warnings = models.JSONField(_("pairing warnings"), default=list, blank=True)
    pairing_mailed_at = models.DateTimeField(
        _("pairing e-mailed at"), null=True, blank=True, editable=False
    )
    waiting_notice_at = models.DateTimeField(
        _("arbiter told of missing results at"), null=True, blank=True, editable=False
    )
    ranking_mailed_at = models.DateTimeField(
        _("new ranking e-mailed at"), null=True, blank=True, editable=False
    )
    history = HistoricalRecords(
        excluded_fields=["pairing_mailed_at", "waiting_notice_at", "ranking_mailed_at"]
    )

    objects = RoundQuerySet.as_manager()

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["competition", "number"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "number"], name="round_number_once")
        ]

    def __str__(self) -> str:
        return _("Round %(number)s (%(date)s)") % {
            "number": self.number,
            "date": self.date.strftime("%d-%m-%Y"),  # as the site writes dates
        }

    @classmethod
    def publication_time_for(cls, evening: date, competition: Competition) -> datetime:
        """When the pairing of a club evening appears, the one rule for every new round: the
        internal competition's on the Friday before (the club's week), the rapid
        competition's on the evening itself, where the arbiter pairs round after round."""
        week = club_week()
        if competition.is_classical:
            return week.publication_at(evening)
        return week.publication_on_the_evening(evening)

    @classmethod
    def on_evening(cls, competition: Competition, number: int, evening: date, **fields) -> Round:
        """A new (unsaved) round on a club evening, published at the club's time."""
        fields.setdefault("publish_at", cls.publication_time_for(evening, competition))
        return cls(competition=competition, number=number, date=evening, **fields)

    @property
    def is_published(self) -> bool:
        return self.published_at is not None

    @property
    def period(self) -> int:
        return self.competition.engine_settings().period_of(self.number)

    @property
    def cancellation_deadline(self) -> datetime:
        return club_week().cancellation_deadline(self.date)

    @property
    def results_final_at(self) -> datetime:
        return club_week().results_final_at(self.date)

    @property
    def play_starts_at(self) -> datetime:
        return club_week().play_starts_at(self.date)

    def results_are_provisional(self, now: datetime) -> bool:
        return now < self.results_final_at

    def takes_players_results(self, now: datetime) -> bool:
        """Players enter their game's result themselves from the games' start until the
        results are final (19:45 to 23:30 on the evening); after that the arbiter decides."""
        return self.play_starts_at <= now < self.results_final_at

    def stage(self, now: datetime) -> Round.Stage:
        """Where the round stands at `now`, from what is stored (with the counts of
        `RoundQuerySet.with_result_counts` when the round was read with them)."""
        total = getattr(self, "games_total", None)
        if total is None:
            total = self.games.count()
        done = getattr(self, "games_done", None)
        if done is None:
            done = self.games.exclude(result="").count()
        if not self.is_published:
            if total:
                return self.Stage.DRAFT
            return self.Stage.OPEN if now < self.cancellation_deadline else self.Stage.CLOSED
        if done < total or not total:
            return self.Stage.PUBLISHED
        return self.Stage.PROVISIONAL if self.results_are_provisional(now) else self.Stage.FINAL

    def results_changed_after_final(self, results: Mapping[int, str], now: datetime) -> list:
        """The games whose stored result these results ({game id: result}) would change
        after the results became final (23:30 on the evening): such a change needs a reason.
        """
        if self.results_are_provisional(now):
            return []
        stored = self.games.filter(pk__in=list(results)).exclude(result="")
        return [game for game in stored if game.result != results[game.pk]]

    def pairing_recipients(self):
        """The seated members the pairing e-mail goes to (an address, and they want it; the
        rule of `clubweek.pairing_mail.pairing`)."""
        return (
            self.competition.participants.filter(pk__in=self.seated_ids(), member__isnull=False)
            .exclude(member__email="")
            .filter(member__mail_pairing=True)
            .select_related("member")
            .order_by("member__name")
        )

    def seated_ids(self) -> set[int]:
        """The participants seated in the round's pairing (draft or published), bye included."""
        seated = {p for pair in self.games.values_list("white_id", "black_id") for p in pair}
        return seated | {self.bye_id} if self.bye_id else seated

    def absent_ids(self) -> set[int]:
        return set(self.absences.values_list("participant_id", flat=True))

    def present_participants(self):
        """Everyone who has joined by this round and is not recorded absent from it."""
        return (
            self.competition.participants.filter(joined_round__lte=self.number)
            .exclude(pk__in=self.absences.values("participant_id"))
            .select_related("member")
        )


class GameQuerySet(models.QuerySet):
    def involving(self, participant: Participant | int):
        """The games a participant plays, with either colour."""
        return self.filter(Q(white=participant) | Q(black=participant))

    def published(self):
        """Games of published pairings (a draft's games are the arbiter's alone)."""
        return self.filter(round__published_at__isnull=False)


class Game(models.Model):
    class Result(models.TextChoices):
        """The engine's results (`keizer.season.Result`) with the labels the site shows."""

        WHITE_WINS = keizer.Result.WHITE_WINS.value, keizer.Result.WHITE_WINS.value
        BLACK_WINS = keizer.Result.BLACK_WINS.value, keizer.Result.BLACK_WINS.value
        DRAW = keizer.Result.DRAW.value, "½-½"
        WHITE_WINS_BY_FORFEIT = keizer.Result.WHITE_WINS_BY_FORFEIT.value, _("1-0 (forfeit)")
        BLACK_WINS_BY_FORFEIT = keizer.Result.BLACK_WINS_BY_FORFEIT.value, _("0-1 (forfeit)")
        DOUBLE_FORFEIT = keizer.Result.DOUBLE_FORFEIT.value, _("0-0 (both forfeit)")

    # The results of a game played over the board (forfeits are the arbiter's): what players
    # enter themselves, the rapid evening's tap targets, the slips' tick boxes, what-if's first.
    OVER_THE_BOARD = (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS)

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="games"
    )
    board = models.PositiveIntegerField(_("board"), validators=[MinValueValidator(1)])
    # RESTRICT: a player with games cannot be deleted, but a whole season or competition can.
    white = models.ForeignKey(
        Participant, verbose_name=_("white"), on_delete=models.RESTRICT, related_name="+"
    )
    black = models.ForeignKey(
        Participant, verbose_name=_("black"), on_delete=models.RESTRICT, related_name="+"
    )
    result = models.CharField(_("result"), max_length=8, choices=Result, blank=True)
    history = HistoricalRecords()

    objects = GameQuerySet.as_manager()

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["round", "board"]
        constraints = [
            models.UniqueConstraint(fields=["round", "board"], name="board_once_per_round"),
            models.CheckConstraint(condition=~Q(white=models.F("black")), name="not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.white} – {self.black} {self.get_result_display()}"

    @property
    def engine_result(self) -> keizer.Result | None:
        return keizer.Result(self.result) if self.result else None

    def is_white(self, participant_id: int) -> bool:
        return self.white_id == participant_id

    def opponent_id(self, participant_id: int) -> int:
        return self.black_id if self.is_white(participant_id) else self.white_id

    def opponent_of(self, participant_id: int) -> Participant:
        return self.black if self.is_white(participant_id) else self.white

    def player_of(self, user) -> Participant | None:
        """The player of this game whose member account `user` is, if any (white and black
        read with their members)."""
        for player in (self.white, self.black):
            if user.is_authenticated and player.member_id and player.member.user_id == user.pk:
                return player
        return None

    def outcome_for(self, participant_id: int) -> Outcome | None:
        """The player's outcome in the engine's terms; None while there is no result."""
        result = self.engine_result
        return None if result is None else game_outcome(result, self.is_white(participant_id))


class ResultReportQuerySet(models.QuerySet):
    def undecided(self):
        """Reports of games of published pairings that have no result yet."""
        return self.filter(game__result="", game__round__published_at__isnull=False)


class ResultReport(models.Model):
    """A player's own word on the result of their game (DSC rule q): one per player per game.
    Entering again replaces it, and its history keeps every entry with who and when. When the
    two players' reports agree, the game's result is stored (`services.report_result`); when
    they differ, or one is missing at the end of the evening, the arbiter decides
    (`competition.reports`). A player reports a game played (`Game.OVER_THE_BOARD`); forfeits
    are the arbiter's."""

    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="reports"
    )
    participant = models.ForeignKey(
        Participant, verbose_name=_("player"), on_delete=models.CASCADE, related_name="+"
    )
    result = models.CharField(_("result"), max_length=8, choices=Game.Result)
    reported_at = models.DateTimeField(_("entered at"))
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    history = HistoricalRecords()

    objects = ResultReportQuerySet.as_manager()

    class Meta:
        verbose_name = _("result entered by a player")
        verbose_name_plural = _("results entered by players")
        ordering = ["game", "reported_at"]
        constraints = [
            models.UniqueConstraint(fields=["game", "participant"], name="one_report_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.participant}: {self.get_result_display()}"


class AbsenceQuerySet(models.QuerySet):
    def team_claims(self):
        """Team matches a member claimed that the arbiter has not decided on yet."""
        return self.filter(team_claim=True)


class Absence(models.Model):
    """A player who did not play a round, and why (what the engine scores)."""

    class Reason(models.TextChoices):
        EXCUSED = keizer.Absence.EXCUSED.value, _("cancelled in time")
        TEAM = keizer.Absence.TEAM.value, _("team match")
        LATE = keizer.Absence.LATE.value, _("cancelled late")
        UNEXCUSED = keizer.Absence.UNEXCUSED.value, _("absent without cancelling")
        AUTO = keizer.Absence.AUTO.value, _("cancelled automatically")

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="absences"
    )
    participant = models.ForeignKey(
        Participant, verbose_name=_("player"), on_delete=models.CASCADE, related_name="absences"
    )
    reason = models.CharField(_("reason"), max_length=10, choices=Reason)
    team_claim = models.BooleanField(
        _("team match claimed"),
        default=False,
        help_text=_(
            "The member said it is a KNSB/FSB team match. It counts as cancelled in time until "
            "a line-up shows it or the arbiter confirms it."
        ),
    )
    history = HistoricalRecords()

    objects = AbsenceQuerySet.as_manager()

    class Meta:
        verbose_name = _("absence")
        verbose_name_plural = _("absences")
        constraints = [
            models.UniqueConstraint(fields=["round", "participant"], name="absent_once_per_round")
        ]

    def __str__(self) -> str:
        return f"{self.participant}: {self.get_reason_display()}"


class Ranking(models.Model):
    """The ranking after a round (0 = the initial ranking), as the engine computed it."""

    competition = models.ForeignKey(
        Competition,
        verbose_name=_("competition"),
        on_delete=models.CASCADE,
        related_name="rankings",
    )
    after_round = models.PositiveIntegerField(_("after round"))
    computed_at = models.DateTimeField(_("computed at"), auto_now=True)
    passes = models.PositiveIntegerField(_("valuation passes"), default=1)
    oscillation_stop = models.BooleanField(_("oscillation stop"), default=False)
    # How each player took part in round `after_round`, as the engine scored it:
    # {participant id: [outcome, opponent's participant id or null, team match id or null]}.
    appearances = models.JSONField(_("appearances in the round"), default=dict, editable=False)
    # A digest of everything the engine read (settings, players, complete rounds, team matches):
    # the rankings are recomputed when it no longer matches the stored data.
    inputs = models.CharField(
        _("digest of the inputs"), max_length=64, blank=True, default="", editable=False
    )

    class Meta:
        verbose_name = _("ranking")
        verbose_name_plural = _("rankings")
        ordering = ["competition", "after_round"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "after_round"], name="ranking_once")
        ]

    def __str__(self) -> str:
        return _("Ranking %(number)s") % {"number": self.after_round}

    def appearance_of(self, participant_id: int) -> tuple[Outcome, int | None, int | None] | None:
        """(outcome, opponent id, team match id) of a player in round `after_round`."""
        stored = self.appearances.get(str(participant_id))
        if stored is None:
            return None
        outcome, opponent, team_match = stored
        return Outcome(outcome), opponent, team_match

    def mail_recipients(self):
        """The standings of the members who get this ranking by e-mail: players of the
        competition in this ranking, with an address, who chose the new ranking by e-mail."""
        return (
            self.standings.filter(participant__member__mail_ranking=True)
            .exclude(participant__member__email="")
            .select_related("participant__member")
            .order_by("position")
        )


class Standing(models.Model):
    ranking = models.ForeignKey(
        Ranking, verbose_name=_("ranking"), on_delete=models.CASCADE, related_name="standings"
    )
    participant = models.ForeignKey(
        Participant, verbose_name=_("player"), on_delete=models.CASCADE, related_name="standings"
    )
    position = models.PositiveIntegerField(_("position"))
    value = models.PositiveIntegerField(_("value"))
    valuation_value = models.PositiveIntegerField(
        _("value in the valuation ranking"), help_text=_("The value the points were computed with.")
    )
    total = FractionField(_("total"))
    points = models.JSONField(_("points per round"), default=list)
    attended = models.PositiveIntegerField(
        _("rounds attended"), default=0, help_text=_("Up to this ranking's round (section 8).")
    )

    class Meta:
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        ordering = ["ranking", "position"]
        constraints = [
            models.UniqueConstraint(fields=["ranking", "participant"], name="standing_once"),
            models.UniqueConstraint(fields=["ranking", "position"], name="position_once"),
        ]

    def __str__(self) -> str:
        return f"{self.position}. {self.participant}"

    @property
    def round_points(self) -> list[Fraction]:
        return [Fraction(p) for p in self.points]


class Page(models.Model):
    """A page of text the arbiter edits in the admin, such as the competition rules."""

    slug = models.SlugField(_("address"), unique=True)
    title = models.CharField(_("title"), max_length=200)
    body = models.TextField(_("text"))
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("page")
        verbose_name_plural = _("pages")

    def __str__(self) -> str:
        return self.title
