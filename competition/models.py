"""Seasons, competitions, their players, rounds, games and ranking snapshots.

The Keizer arithmetic lives in `competition.keizer`; these models store what the engine reads
(`exchange.py` translates) and what it computed (`Ranking`, `Standing`).
"""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from competition import schedule
from competition.fields import FractionField, not_negative
from competition.keizer.season import Absence as AbsenceReason
from competition.keizer.season import Result, Settings
from members.models import Member


class SeasonQuerySet(models.QuerySet):
    def current(self, today=None):
        """The latest season that has started and has a competition (else the latest)."""
        today = today or timezone.localdate()
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


class CompetitionManager(models.Manager):
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
    top_value = models.PositiveIntegerField(
        _("top value"), default=50, validators=[MinValueValidator(1)]
    )
    step = models.PositiveIntegerField(_("step"), default=1, validators=[MinValueValidator(1)])
    rounds_per_period = models.PositiveIntegerField(
        _("rounds per period"), default=7, validators=[MinValueValidator(1)]
    )
    full_revaluation_from_round = models.PositiveIntegerField(
        _("full re-valuation from round"),
        null=True,
        blank=True,
        default=10,
        help_text=_("Empty: never."),
    )
    bye_fraction = FractionField(
        _("bye: share of own value"), default="1", validators=[not_negative]
    )
    excused_fraction = FractionField(
        _("cancelled in time: share"), default="1/3", validators=[not_negative]
    )
    team_fraction = FractionField(_("team match: share"), default="2/3", validators=[not_negative])
    auto_absence_fraction = FractionField(_("cancelled automatically: share"), default="1/3")

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

    def engine_settings(self) -> Settings:
        return Settings(
            top_value=self.top_value,
            step=self.step,
            rounds_per_period=self.rounds_per_period,
            full_revaluation_from_round=self.full_revaluation_from_round,
            bye_fraction=self.bye_fraction,
            excused_fraction=self.excused_fraction,
            team_fraction=self.team_fraction,
            auto_absence_fraction=self.auto_absence_fraction,
        )


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


class RoundQuerySet(models.QuerySet):
    def published(self):
        return self.filter(published_at__isnull=False)


class Round(models.Model):
    competition = models.ForeignKey(
        Competition,
        verbose_name=_("competition"),
        on_delete=models.CASCADE,
        related_name="rounds",
    )
    number = models.PositiveIntegerField(_("round"), validators=[MinValueValidator(1)])
    date = models.DateField(_("club evening"))
    publish_at = models.DateTimeField(
        _("publication time"), blank=True, help_text=_("Empty: Friday 20:00 before the evening.")
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
    history = HistoricalRecords(excluded_fields=["pairing_mailed_at", "waiting_notice_at"])

    objects = RoundQuerySet.as_manager()

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["competition", "number"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "number"], name="round_number_once")
        ]

    def __str__(self) -> str:
        return _("Round %(number)s (%(date)s)") % {"number": self.number, "date": self.date}

    @property
    def is_published(self) -> bool:
        return self.published_at is not None

    @property
    def period(self) -> int:
        return self.competition.engine_settings().period_of(self.number)

    @property
    def cancellation_deadline(self) -> datetime:
        return schedule.cancellation_deadline(
            self.date, settings.CLUB_DEADLINE_WEEKDAY, settings.CLUB_DEADLINE_TIME
        )

    @property
    def results_final_at(self) -> datetime:
        return schedule.results_final_at(self.date)

    def results_are_provisional(self, now: datetime) -> bool:
        return now < self.results_final_at


class Game(models.Model):
    class Outcome(models.TextChoices):
        WHITE_WINS = Result.WHITE_WINS.value, "1-0"
        BLACK_WINS = Result.BLACK_WINS.value, "0-1"
        DRAW = Result.DRAW.value, "½-½"
        WHITE_WINS_BY_FORFEIT = Result.WHITE_WINS_BY_FORFEIT.value, _("1-0 (forfeit)")
        BLACK_WINS_BY_FORFEIT = Result.BLACK_WINS_BY_FORFEIT.value, _("0-1 (forfeit)")
        DOUBLE_FORFEIT = Result.DOUBLE_FORFEIT.value, _("0-0 (both forfeit)")

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
    result = models.CharField(_("result"), max_length=8, choices=Outcome, blank=True)
    history = HistoricalRecords()

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


class Absence(models.Model):
    """A player who did not play a round, and why (what the engine scores)."""

    class Reason(models.TextChoices):
        EXCUSED = AbsenceReason.EXCUSED.value, _("cancelled in time")
        TEAM = AbsenceReason.TEAM.value, _("team match")
        LATE = AbsenceReason.LATE.value, _("cancelled late")
        UNEXCUSED = AbsenceReason.UNEXCUSED.value, _("absent without cancelling")
        AUTO = AbsenceReason.AUTO.value, _("cancelled automatically")

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="absences"
    )
    participant = models.ForeignKey(
        Participant, verbose_name=_("player"), on_delete=models.CASCADE, related_name="absences"
    )
    reason = models.CharField(_("reason"), max_length=10, choices=Reason)
    history = HistoricalRecords()

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

    class Meta:
        verbose_name = _("ranking")
        verbose_name_plural = _("rankings")
        ordering = ["competition", "after_round"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "after_round"], name="ranking_once")
        ]

    def __str__(self) -> str:
        return _("Ranking %(number)s") % {"number": self.after_round}


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
