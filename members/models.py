"""Club members: who plays, how strong they are, and the club's teams with their matches."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from base.validators import validate_name
from club.models import current as current_club
from members import performance


@dataclass(frozen=True)
class Rating:
    """A rating with where it comes from: a KNSB list (its date) or the arbiter's estimate."""

    value: int
    list_date: date | None  # None: estimated by the arbiter

    @property
    def is_estimate(self) -> bool:
        return self.list_date is None

    def __str__(self) -> str:
        if self.is_estimate:
            return _("%(value)s (estimated)") % {"value": self.value}
        return _("%(value)s (KNSB %(date)s)") % {
            "value": self.value,
            "date": self.list_date.strftime("%d-%m-%Y"),
        }


class RatingList(models.Model):
    """One monthly KNSB rating list, as imported."""

    date = models.DateField(_("list date"), unique=True)
    file_name = models.CharField(_("file"), max_length=200, blank=True)
    imported_at = models.DateTimeField(_("imported at"), auto_now_add=True)

    class Meta:
        verbose_name = _("KNSB rating list")
        verbose_name_plural = _("KNSB rating lists")
        ordering = ["-date"]

    def __str__(self) -> str:
        return _("KNSB rating list of %(date)s") % {"date": self.date.strftime("%d-%m-%Y")}


def new_calendar_token() -> str:
    """The secret part of a member's calendar link: 256 random bits, URL-safe (43 characters)."""
    return secrets.token_urlsafe(32)


class MemberQuerySet(models.QuerySet):
    def active(self):
        return self.filter(is_active=True)

    def with_ratings(self, rating_list: RatingList | None = None, on: date | None = None):
        """Annotate `listed_rating` and `listed_on`: from the given list, or else from the
        latest list each member is on (`on`: the latest list dated on or before that day).
        Use `Member.rating` to read them."""
        ratings = ListedRating.objects.filter(member=OuterRef("pk"))
        if rating_list is not None:
            ratings = ratings.filter(rating_list=rating_list)
        if on is not None:
            ratings = ratings.filter(rating_list__date__lte=on)
        ratings = ratings.order_by("-rating_list__date")
        return self.annotate(
            listed_rating=Subquery(ratings.values("rating")[:1]),
            listed_on=Subquery(ratings.values("rating_list__date")[:1]),
        )


def not_in_the_future(day: date) -> None:
    if day > timezone.localdate():
        raise ValidationError(_("A birth date cannot lie in the future."))


class Member(models.Model):
    class Sex(models.TextChoices):
        MALE = "male", _("male")
        FEMALE = "female", _("female")

    name = models.CharField(_("name"), max_length=100, validators=[validate_name])
    knsb_number = models.PositiveIntegerField(
        _("KNSB relation number"), unique=True, null=True, blank=True
    )
    # For the federation's rating report (competition/trf_export.py) only: private, never shown
    # on a public page (docs/site.md, "Files for the federation").
    birth_date = models.DateField(
        _("birth date"),
        null=True,
        blank=True,
        validators=[MinValueValidator(date(1900, 1, 1)), not_in_the_future],
        help_text=_("For the federation's rating report; never shown on the site."),
    )
    sex = models.CharField(
        _("sex"),
        max_length=6,
        choices=Sex,
        blank=True,
        help_text=_("For the federation's rating report; never shown on the site."),
    )
    email = models.EmailField(_("e-mail"), blank=True)
    is_active = models.BooleanField(_("active"), default=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="member",
    )
    estimated_rating = models.PositiveIntegerField(
        _("estimated rating"),
        null=True,
        blank=True,
        validators=[MinValueValidator(100), MaxValueValidator(3500)],
        help_text=_("For members without a KNSB rating; estimated by the arbiter."),
    )
    # Which e-mails the member asked for; what the rules require (a forfeit against you, the
    # automatic cancellation) always goes out.
    mail_pairing = models.BooleanField(
        _("pairing"), default=True, help_text=_("Your board, colour and opponent each week.")
    )
    mail_confirmations = models.BooleanField(
        _("confirmations"),
        default=True,
        help_text=_("A confirmation of each cancellation or re-registration you make."),
    )
    mail_ranking = models.BooleanField(
        _("new ranking"),
        default=False,
        help_text=_("Your new position once the results of an evening are final."),
    )
    mail_reminder = models.BooleanField(
        _("reminder"),
        default=False,
        help_text=_(
            "On the cancellation deadline's day before each club evening: you can still cancel "
            "in time."
        ),
    )
    # The member's way in (members.accounts): when the arbiter last invited them, and when they
    # chose their password through an invitation or a reset link.
    invited_at = models.DateTimeField(_("invited at"), null=True, blank=True, editable=False)
    activated_at = models.DateTimeField(_("active since"), null=True, blank=True, editable=False)
    # The secret of the member's personal calendar feed (/kalender/<token>.ics); renewing it
    # (members.services.renew_calendar_token) makes the old link stop working.
    calendar_token = models.CharField(
        _("calendar link"),
        max_length=64,
        unique=True,
        default=new_calendar_token,
        editable=False,
    )

    objects = MemberQuerySet.as_manager()

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def rating(self) -> Rating | None:
        """The member's rating: from `with_ratings()` when annotated, else the latest list."""
        if not hasattr(self, "listed_rating"):
            listed = (
                self.listed_ratings.select_related("rating_list")
                .order_by("-rating_list__date")
                .first()
            )
            self.listed_rating = listed.rating if listed else None
            self.listed_on = listed.rating_list.date if listed else None
        if self.listed_rating is not None:
            return Rating(self.listed_rating, self.listed_on)
        if self.estimated_rating is not None:
            return Rating(self.estimated_rating, None)
        return None


class ListedRating(models.Model):
    rating_list = models.ForeignKey(
        RatingList, verbose_name=_("rating list"), on_delete=models.CASCADE, related_name="ratings"
    )
    member = models.ForeignKey(
        Member, verbose_name=_("member"), on_delete=models.CASCADE, related_name="listed_ratings"
    )
    rating = models.PositiveIntegerField(_("rating"))

    class Meta:
        verbose_name = _("listed rating")
        verbose_name_plural = _("listed ratings")
        constraints = [
            models.UniqueConstraint(fields=["rating_list", "member"], name="one_rating_per_list")
        ]

    def __str__(self) -> str:
        return f"{self.member}: {self.rating}"


def league_choices() -> list[tuple[str, str]]:
    """The club's federations (DSC: KNSB and FSB), read when a form asks."""
    return [(name, name) for name in current_club().league_names]


class Team(models.Model):
    season = models.CharField(_("season"), max_length=20, help_text="2026-2027")
    name = models.CharField(
        _("name"),
        max_length=50,
        help_text=_("The club's name and a number."),
        validators=[validate_name],
    )
    league = models.CharField(_("federation"), max_length=20, choices=league_choices)
    players = models.ManyToManyField(
        Member, verbose_name=_("players"), blank=True, related_name="teams"
    )

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["-season", "name"]
        constraints = [
            models.UniqueConstraint(fields=["season", "name"], name="team_name_per_season")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.season})"


class TeamMatch(models.Model):
    class Kind(models.TextChoices):
        LEAGUE = "league", _("competition")
        CUP = "cup", _("cup")

    team = models.ForeignKey(
        Team, verbose_name=_("team"), on_delete=models.CASCADE, related_name="matches"
    )
    date = models.DateField(_("date"))
    opponent = models.CharField(_("opponent club"), max_length=100)
    at_home = models.BooleanField(_("at home"), default=True)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind, default=Kind.LEAGUE)

    class Meta:
        verbose_name = _("team match")
        verbose_name_plural = _("team matches")
        ordering = ["-date"]

    def __str__(self) -> str:
        home, away = (
            (self.team.name, self.opponent) if self.at_home else (self.opponent, self.team.name)
        )
        return f"{home} – {away} ({self.date.strftime('%d-%m-%Y')})"


class ExternalGame(models.Model):
    """One board of a team match: our member against a player of the other club."""

    class Colour(models.TextChoices):
        WHITE = "white", _("white")
        BLACK = "black", _("black")

    class Score(models.TextChoices):
        WIN = "1", "1"
        DRAW = "1/2", "½"
        LOSS = "0", "0"

    match = models.ForeignKey(
        TeamMatch, verbose_name=_("team match"), on_delete=models.CASCADE, related_name="games"
    )
    board = models.PositiveIntegerField(_("board"), validators=[MinValueValidator(1)])
    member = models.ForeignKey(
        Member, verbose_name=_("member"), on_delete=models.PROTECT, related_name="external_games"
    )
    colour = models.CharField(_("colour"), max_length=5, choices=Colour)
    opponent_name = models.CharField(_("opponent"), max_length=100, validators=[validate_name])
    opponent_rating = models.PositiveIntegerField(_("opponent's rating"), null=True, blank=True)
    own_rating = models.PositiveIntegerField(
        _("own rating"), null=True, blank=True, help_text=_("Empty: the member's rating.")
    )
    score = models.CharField(_("result"), max_length=3, choices=Score, blank=True)
    published_w_we = models.DecimalField(
        _("W−We published by the federation"),
        max_digits=5,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=_("When entered, this value counts instead of the computed one."),
    )

    class Meta:
        verbose_name = _("external game")
        verbose_name_plural = _("external games")
        ordering = ["match", "board"]
        constraints = [
            models.UniqueConstraint(fields=["match", "board"], name="board_once_per_match"),
            models.UniqueConstraint(fields=["match", "member"], name="member_once_per_match"),
        ]

    def __str__(self) -> str:
        return f"{self.member} – {self.opponent_name}"

    @property
    def w_minus_we(self) -> Decimal | None:
        """The federation's published W−We, else computed from the rating difference."""
        if self.published_w_we is not None:
            return self.published_w_we
        if not self.score or self.own_rating is None or self.opponent_rating is None:
            return None
        return performance.w_minus_we(self.score, self.own_rating, self.opponent_rating)


class TeamPlayerLot(models.Model):
    """A drawing of lots between tied candidates for best team player, recorded once."""

    season = models.CharField(_("season"), max_length=20)
    member = models.ForeignKey(Member, verbose_name=_("member"), on_delete=models.CASCADE)
    lot = models.PositiveIntegerField(_("lot"), help_text=_("Lower wins."))
    drawn_at = models.DateTimeField(_("drawn at"), auto_now_add=True)

    class Meta:
        verbose_name = _("drawing of lots")
        verbose_name_plural = _("drawings of lots")
        constraints = [
            models.UniqueConstraint(fields=["season", "member"], name="one_lot_per_season")
        ]

    def __str__(self) -> str:
        return f"{self.season}: {self.member} ({self.lot})"


class ResetRequestQuerySet(models.QuerySet):
    def due(self):
        return self.filter(answered_at__isnull=True).order_by("pk")


class PasswordResetRequest(models.Model):
    """Someone asked for a new password for an address. The form only writes this row, the
    same for a known and an unknown address (so its answer takes the same time and tells
    nothing); the worker answers it (`accounts.answer_reset_requests`)."""

    address = models.CharField(_("e-mail address"), max_length=254)
    asked_at = models.DateTimeField(_("asked at"))
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)

    objects = ResetRequestQuerySet.as_manager()

    class Meta:
        verbose_name = _("password reset request")
        verbose_name_plural = _("password reset requests")

    def __str__(self) -> str:
        return self.address


class AddressRequestQuerySet(models.QuerySet):
    def asked_by(self, member: Member, since):
        return self.filter(member=member, asked_at__gte=since)

    def forget_before(self, moment) -> None:
        self.filter(asked_at__lt=moment).delete()


class AddressRequest(models.Model):
    """A member asked the club to mail a confirmation link to a new address
    (`accounts.ask_for_new_address`): counted, so a member cannot make the club mail any
    number of strangers; forgotten after a day."""

    member = models.ForeignKey(Member, verbose_name=_("member"), on_delete=models.CASCADE)
    address = models.CharField(_("e-mail address"), max_length=254)
    asked_at = models.DateTimeField(_("asked at"))

    objects = AddressRequestQuerySet.as_manager()

    class Meta:
        verbose_name = _("request for a new e-mail address")
        verbose_name_plural = _("requests for a new e-mail address")
        indexes = [models.Index(fields=["member", "asked_at"], name="address_requests_by_member")]

    def __str__(self) -> str:
        return self.address
