"""Seasons, their competitions (the internal and the rapid one, each with its Keizer settings
and what its kind does) and the players of a competition."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from base.validators import validate_name
from club.models import current as current_club
from competition.fields import FractionField, not_negative
from competition.keizer import season as keizer
from competition.keizer import settings_file
from competition.outcomes import reason_label
from members.models import Member

if TYPE_CHECKING:
    from competition.models.rankings import Ranking, Standing
    from competition.models.rounds import Round

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


@dataclass(frozen=True)
class Closing:
    """A closed season's closing as its history keeps it (`seasons.close_season`): the moment
    (None for a season closed before the history was kept) and the arbiter's reason."""

    season: str
    at: datetime | None
    reason: str

    def calls_off(self, round_: Round) -> bool:
        """The round will not be played: its games had not begun when the season was closed
        (without a known moment: it was not published)."""
        if self.at is None:
            return not round_.is_published
        return not round_.games_started(self.at)

    def __str__(self) -> str:
        """What home, the pairing, the cancellation page and the calendars say: "Seizoen
        2026-2027 is afgesloten op zondag 22 november 2026. Reden: … De stand is definitief: …"."""
        if self.at is None:
            said = gettext("Season %(season)s is closed.") % {"season": self.season}
        else:
            said = gettext("Season %(season)s was closed on %(date)s.") % {
                "season": self.season,
                "date": formats.date_format(timezone.localtime(self.at), "l j F Y"),
            }
        if self.reason:
            reason = self.reason if self.reason[-1] in ".!?" else f"{self.reason}."
            said += " " + gettext("Reason: %(reason)s") % {"reason": reason}
        return said + " " + gettext("The standings are final: no more rounds are played.")


class Season(models.Model):
    name = models.CharField(
        _("name"), max_length=20, unique=True, help_text="2026-2027", validators=[validate_name]
    )
    start_date = models.DateField(_("start date"))
    is_closed = models.BooleanField(_("closed"), default=False)
    # Closing and reopening, with the arbiter's reason (competition/seasons.py).
    history = HistoricalRecords()

    objects = SeasonQuerySet.as_manager()

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-start_date"]

    def __str__(self) -> str:
        return self.name

    def closing(self) -> Closing | None:
        """When and why the season was closed (None while it is open): the history's record
        that closed it, the first of the latest run of records in which it is closed."""
        if not self.is_closed:
            return None
        closed = None
        # In the order the records were written (a clock set back never reorders them).
        for is_closed, at, reason in self.history.order_by("-history_id").values_list(
            "is_closed", "history_date", "history_change_reason"
        ):
            if not is_closed:
                break
            closed = (at, reason or "")
        at, reason = closed or (None, "")
        return Closing(self.name, at, reason.strip())


class CompetitionQuerySet(models.QuerySet):
    def classical(self):
        """The internal competition (Friday deadline, published by the worker, team absences)."""
        return self.filter(kind=Competition.Kind.CLASSICAL)

    def rapid(self):
        return self.filter(kind=Competition.Kind.RAPID)

    def following_the_club_week(self):
        """Competitions run by the club's week (`Competition.follows_the_club_week`)."""
        return self.filter(kind__in=Competition.CLUB_WEEK_KINDS)

    def paired_on_the_evening(self):
        """Competitions played round after round on an evening (`pairs_on_the_evening`)."""
        return self.exclude(kind__in=Competition.CLUB_WEEK_KINDS)

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
    # The variants' settings (shared/spec/keizer-variants.md: another club's Keizer), as the
    # season file writes them: only those that differ from DSC's, and a top value that follows
    # the field or a season that is one period, which the columns above cannot hold. Empty for
    # DSC's own Keizer. Read with the columns by `engine_settings`, through the season file's
    # reader: one home for every setting's meaning and check.
    variant = models.JSONField(_("Keizer variant"), default=dict, blank=True)
    # What the federation's rating report (competition/trf_export.py) says of the competition.
    rate_of_play = models.CharField(
        _("rate of play"),
        max_length=100,
        blank=True,
        help_text=_(
            "As the rating report to the federation states it: the internal competition's "
            "from the club's rules, the rapid competition its own."
        ),
    )
    chief_arbiter = models.CharField(
        _("chief arbiter"),
        max_length=100,
        blank=True,
        help_text=_("Name of the arbiter in charge; the federation needs it to rate the games."),
    )

    # A change made outside the workflows (the admin, a command) that would correct a final
    # ranking is not stored until the arbiter confirms it with a reason
    # (`services.refresh_rankings`): the digest of the data it waits with, and since when.
    held_inputs = models.CharField(max_length=64, blank=True, default="", editable=False)
    held_since = models.DateTimeField(_("change waiting since"), null=True, editable=False)

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

    # What each kind of competition does, one name per policy (and nowhere else a check of
    # the kind): the internal competition follows the club's week; the rapid competition is
    # paired, published and played round after round on its evening.
    CLUB_WEEK_KINDS = frozenset({Kind.CLASSICAL})
    # DSC rule i for the internal competition; the rules state none for the rapid one.
    RATES_OF_PLAY = {Kind.CLASSICAL: DSC_RATE_OF_PLAY, Kind.RAPID: ""}
    SHORT_NAMES = {Kind.CLASSICAL: "", Kind.RAPID: "rapid"}

    @property
    def is_under_way(self) -> bool:
        """A round has been paired: the settings and ranking 0, which every ranking since
        follows from, are fixed (a newcomer joins through `lineup.add_newcomer`)."""
        return self.pk is not None and self.rounds.filter(games__isnull=False).exists()

    @property
    def follows_the_club_week(self) -> bool:
        """Members cancel online until the Friday deadline (rule k for no-shows); the worker
        publishes the pairing at its time and e-mails it, and the new ranking once the results
        are final."""
        return self.kind in self.CLUB_WEEK_KINDS

    @property
    def pairs_on_the_evening(self) -> bool:
        """Each round is paired and published on its evening, from the arbiter's rapid evening
        page; a round paired by mistake may be withdrawn before its first result."""
        return not self.follows_the_club_week

    @property
    def counts_team_matches(self) -> bool:
        """A member in a team match's line-up is absent with the team share (DSC rule f)."""
        return self.follows_the_club_week

    @property
    def players_enter_results(self) -> bool:
        """Players enter their own game's result on the evening (DSC rule q); in the rapid
        competition the arbiter enters every result."""
        return self.follows_the_club_week

    @property
    def has_groups(self) -> bool:
        """Groups A–D by rating, with a prize each."""
        return self.follows_the_club_week

    @property
    def prizes_ask_attendance(self) -> bool:
        """Its prizes ask for two thirds of the club evenings (section 8)."""
        return self.follows_the_club_week

    @property
    def offers_what_if(self) -> bool:
        """The what-if page asks about this competition's round being played."""
        return self.follows_the_club_week

    @property
    def short_name(self) -> str:
        """ "rapid" in its public pages' addresses (/rapid/…), its files' names and the
        federation's report; nothing for the internal competition."""
        return self.SHORT_NAMES[self.kind]

    def latest_ranking(self) -> Ranking | None:
        """The latest ranking (None before ranking 0), without its stored appearances."""
        return self.rankings.defer("appearances").order_by("-after_round").first()

    def engine_settings(self) -> keizer.Settings:
        if not self.variant:  # DSC's own Keizer: the columns alone
            return keizer.Settings(**{name: getattr(self, name) for name in keizer.SETTING_NAMES})
        document = settings_file.settings_document(
            keizer.Settings(**{name: getattr(self, name) for name in keizer.SETTING_NAMES})
        )
        return settings_file.settings_from_document({**document, **self.variant})

    def absence_reasons(self) -> list[tuple[str, str]]:
        """The reasons an absence can have in this competition, as choices (word, words):
        DSC's five, then those of the club's own that its Keizer settings give a share."""
        return [(word, reason_label(word)) for word in self.engine_settings().reasons]

    def settings_values(self) -> dict:
        """The Keizer settings by field, to copy into another competition."""
        return {name: getattr(self, name) for name in (*keizer.SETTING_NAMES, "variant")}

    @classmethod
    def report_defaults(cls, kind: str) -> dict:
        """The rate of play a new competition of this kind starts with: DSC rule i's for the
        internal competition; the rules state none for the rapid competition."""
        return {"rate_of_play": cls.RATES_OF_PLAY[kind]}

    def report_values(self) -> dict:
        """What the rating report says of the competition (rate of play, chief arbiter), to
        copy into next season's."""
        return {"rate_of_play": self.rate_of_play, "chief_arbiter": self.chief_arbiter}

    @staticmethod
    def values_of(settings: keizer.Settings) -> dict:
        """An engine's settings as the field values of a competition: DSC's eight in their
        columns (DSC's default where a column cannot hold the value), and in `variant` the
        variants' that differ from DSC's with those the columns could not hold."""
        values, variant = settings_file.in_columns(settings)
        return {**values, "variant": variant}


def group_choices() -> list[tuple[str, str]]:
    """The club's groups (DSC: A–D), read when a form asks."""
    return [(group, group) for group in current_club().groups]


class ParticipantQuerySet(models.QuerySet):
    def names(self) -> dict[int, str]:
        """{key: name} of these participants, as `Participant.name` gives it, read as values
        (a page's selects and sentences name some 150 players: no row objects)."""
        return {
            pk: member_name if member_id else guest_name
            for pk, member_id, member_name, guest_name in self.values_list(
                "pk", "member_id", "member__name", "guest_name"
            )
        }


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
    guest_name = models.CharField(
        _("guest name"), max_length=100, blank=True, validators=[validate_name]
    )
    initial_position = models.PositiveIntegerField(
        _("position in ranking 0"), help_text=_("The order of the initial ranking.")
    )
    joined_round = models.PositiveIntegerField(
        _("joins in round"), default=1, validators=[MinValueValidator(1)]
    )
    start_points = FractionField(_("start points"), default="0", validators=[not_negative])
    withdrawn_after_round = models.PositiveIntegerField(
        _("withdrawn after round"),
        null=True,
        blank=True,
        help_text=_(
            "Empty: plays on. The last round they count in; 0: not at all (a variant's "
            "withdrawn player, as KeizerForClubs' retired one)."
        ),
    )
    group = models.CharField(
        _("group"),
        max_length=1,
        blank=True,
        choices=group_choices,
        help_text=_("By rating, fixed for the season."),
    )

    objects = ParticipantQuerySet.as_manager()

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
    def name(self) -> str:  # as values: `ParticipantQuerySet.names`
        return self.member.name if self.member_id else self.guest_name

    @property
    def engine_id(self) -> str:
        return str(self.pk)

    def latest_standing(self) -> Standing | None:
        """The player's place in the competition's latest ranking (None before ranking 0)."""
        return self.standings.order_by("-ranking__after_round").first()
