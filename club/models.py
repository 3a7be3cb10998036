"""The club of this deployment, as data (issue 40): its name and sender, its week, and its
policies (rounds proposed, attendance for the prizes, groups, automatic cancellation, the
team-match window, the best team player's minimum, the federations, the ranking e-mail's
length). One row; what belongs to the deployment (secret key, database, mail server, DKIM key,
the site's address) stays in the environment.

`current()` reads the row once per request or worker pass (`forget` at the start of each, and
when the row is saved), so a change made in the site applies at once, everywhere, without a
restart, and costs one query where it is read.
"""

from __future__ import annotations

from contextvars import ContextVar
from datetime import time
from email.utils import parseaddr
from fractions import Fraction

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import DatabaseError, models
from django.utils.formats import time_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

WEEKDAYS = [
    (0, _("Monday")),
    (1, _("Tuesday")),
    (2, _("Wednesday")),
    (3, _("Thursday")),
    (4, _("Friday")),
    (5, _("Saturday")),
    (6, _("Sunday")),
]


def validate_share(value: str) -> None:
    """A share of the season's rounds: a fraction from 0 to 1 ("2/3", "0.5" or "0")."""
    try:
        share = Fraction(value.strip())
    except (ValueError, ZeroDivisionError):
        share = None
    if share is None or not 0 <= share <= 1:
        raise ValidationError(_("Enter a share from 0 to 1, as 2/3 or 0.5."), code="invalid")


def validate_group_labels(value: str) -> None:
    """One character a group, strongest first, each once ("ABCD")."""
    labels = value.replace(" ", "")
    if not labels.isalnum() or len(set(labels)) != len(labels):
        raise ValidationError(
            _("Give each group one letter or digit, strongest first and each once, as ABCD."),
            code="invalid",
        )


def validate_leagues(value: str) -> None:
    names = split_list(value)
    if not names or len(set(names)) != len(names) or any(len(name) > 20 for name in names):
        raise ValidationError(
            _("Give the federations' names separated by commas, each once, as KNSB, FSB."),
            code="invalid",
        )


def split_list(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


class Club(models.Model):
    """The club: who it is, its week around a club evening, and its policies."""

    name = models.CharField(_("name"), max_length=60)
    short_name = models.CharField(
        _("short name"),
        max_length=20,
        help_text=_("Before every e-mail's subject, and in the arbiter's name."),
    )
    place = models.CharField(
        _("place"), max_length=60, blank=True, help_text=_("Where the club plays; in the TRF.")
    )
    sender_name = models.CharField(
        _("sender's name"), max_length=60, help_text=_("The name the e-mails come from.")
    )
    sender_address = models.EmailField(_("sender's address"))
    arbiter_address = models.EmailField(
        _("the arbiter's address"), help_text=_("Members' replies and questions go here.")
    )
    playing_address = models.CharField(
        _("playing address"),
        max_length=120,
        blank=True,
        help_text=_("Where the club evenings are; in the calendar's evenings."),
    )
    evening_weekday = models.PositiveSmallIntegerField(
        _("club evening"),
        choices=WEEKDAYS,
        default=3,
        help_text=_("The day a new season's evenings are proposed on."),
    )
    # The logo (`club.logo`): its bytes, its media type, and a digest that renames its address
    # when it changes (so a browser never shows the old one). Read only where it is served.
    logo = models.BinaryField(_("logo"), blank=True, default=b"", editable=False)
    logo_type = models.CharField(max_length=20, blank=True, editable=False)
    logo_digest = models.CharField(max_length=12, blank=True, editable=False)
    deadline_weekday = models.PositiveSmallIntegerField(
        _("cancellation deadline: day"),
        choices=WEEKDAYS,
        help_text=_("The last such day before the club evening."),
    )
    deadline_time = models.TimeField(_("cancellation deadline: time"))
    publication_weekday = models.PositiveSmallIntegerField(
        _("publication of the pairing: day"),
        choices=WEEKDAYS,
        null=True,
        blank=True,
        help_text=_("The last such day before the club evening; empty: the deadline's day."),
    )
    publication_time = models.TimeField(
        _("publication of the pairing: time"), help_text=_("On the publication's day.")
    )
    play_time = models.TimeField(_("play starts"), help_text=_("On the club evening."))
    results_final_time = models.TimeField(
        _("results final"), help_text=_("On the club evening: results count as final from then.")
    )
    reminder_time = models.TimeField(
        _("reminder"),
        default=time(9),
        help_text=_(
            "On the deadline's day: from then on the members who asked for it are reminded "
            "that they can still cancel in time."
        ),
    )
    rounds_proposed = models.PositiveSmallIntegerField(
        _("rounds proposed"),
        default=28,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
        help_text=_("How many weekly evenings a new season proposes."),
    )
    attendance_required = models.CharField(
        _("attendance for the prizes"),
        max_length=10,
        default="2/3",
        validators=[validate_share],
        help_text=_("The share of the season's rounds a player attends to win a prize: 2/3."),
    )
    group_labels = models.CharField(
        _("groups"),
        max_length=10,
        default="ABCD",
        validators=[validate_group_labels],
        help_text=_("One letter a group, strongest first: ABCD is four groups."),
    )
    no_shows_before_cancellation = models.PositiveSmallIntegerField(
        _("no-shows before automatic cancellation"),
        default=2,
        validators=[MinValueValidator(1), MaxValueValidator(10)],
        help_text=_(
            "Absent this many rounds in a row without cancelling: cancelled for the coming "
            "rounds until the member registers again."
        ),
    )
    team_match_days_after = models.PositiveSmallIntegerField(
        _("team match: days after the evening"),
        default=1,
        validators=[MaxValueValidator(6)],
        help_text=_(
            "A team match on the club evening or up to this many days after it excuses the "
            "round (0: only on the evening)."
        ),
    )
    team_player_minimum_games = models.PositiveSmallIntegerField(
        _("best team player: games at least"),
        default=5,
        validators=[MinValueValidator(1)],
    )
    leagues = models.CharField(
        _("federations"),
        max_length=100,
        default="KNSB, FSB",
        validators=[validate_leagues],
        help_text=_("Whose competitions the club's teams play in, separated by commas."),
    )
    ranking_mail_length = models.PositiveSmallIntegerField(
        _("ranking e-mail: players"),
        default=10,
        validators=[MinValueValidator(1), MaxValueValidator(200)],
        help_text=_("How many of the standings the weekly ranking e-mail lists."),
    )

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("club")

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        super().save(*args, **kwargs)
        forget()

    @property
    def attendance_share(self) -> Fraction:
        return Fraction(self.attendance_required.strip())

    @property
    def groups(self) -> str:
        """The groups' labels, strongest first."""
        return self.group_labels.replace(" ", "")

    @property
    def groups_span(self) -> str:
        """The groups as a page names them: "A–D" (one group: "A")."""
        groups = self.groups
        return f"{groups[0]}–{groups[-1]}" if len(groups) > 1 else groups

    @property
    def deadline_day_name(self) -> str:
        """ "vrijdag": the cancellation deadline's day, as a text names it."""
        return str(self.get_deadline_weekday_display())

    @property
    def reminder_choice(self) -> str:
        """The reminder as a member chooses it: "A reminder on Friday morning: you can cancel
        until 18:00" (the part of the day from the reminder's time)."""
        if self.reminder_time < time(12):
            text = _("A reminder on %(day)s morning: you can cancel until %(time)s")
        elif self.reminder_time < time(18):
            text = _("A reminder on %(day)s afternoon: you can cancel until %(time)s")
        else:
            text = _("A reminder on %(day)s evening: you can cancel until %(time)s")
        return text % {"day": self.deadline_day_name, "time": time_format(self.deadline_time)}

    @property
    def team_match_words(self) -> str:
        """ "KNSB/FSB team match": a team match in the club's federations."""
        return _("%(leagues)s team match") % {"leagues": "/".join(self.league_names)}

    @property
    def no_shows_in_words(self) -> str:
        """ "twice" (the words a mail and a page use for the no-shows in a row)."""
        return times_in_words(self.no_shows_before_cancellation)

    @property
    def league_names(self) -> list[str]:
        return split_list(self.leagues)


TIMES = {1: _("once"), 2: _("twice"), 3: _("three times"), 4: _("four times")}


def times_in_words(count: int) -> str:
    words = TIMES.get(count)
    if words:
        return str(words)
    return ngettext("%(count)s time", "%(count)s times", count) % {"count": count}


def initial_values() -> dict:
    """The club as the environment described it before it was data (`dsc_site/settings.py`):
    what the data migration stores, and what a database without the row starts from."""
    return {
        "name": settings.MAIL_FROM_NAME,
        "short_name": settings.MAIL_FROM_NAME.split()[0] if settings.MAIL_FROM_NAME.split() else "",
        # The sender's name after its first word ("DSC Drachten": Drachten); the arbiter
        # corrects it on the club's page where that is not the place.
        "place": " ".join(settings.MAIL_FROM_NAME.split()[1:]),
        "sender_name": settings.MAIL_FROM_NAME,
        "sender_address": _address(settings.DEFAULT_FROM_EMAIL),
        "arbiter_address": settings.ARBITER_EMAIL,
        "deadline_weekday": settings.CLUB_DEADLINE_WEEKDAY,
        "deadline_time": settings.CLUB_DEADLINE_TIME,
        "publication_time": settings.CLUB_PUBLICATION_TIME,
        "play_time": settings.CLUB_PLAY_TIME,
        "results_final_time": settings.CLUB_RESULTS_FINAL_TIME,
    }


def _address(from_header: str) -> str:
    return parseaddr(from_header)[1]


_current: ContextVar[Club | None] = ContextVar("club", default=None)


def current() -> Club:
    """The club, read once per request or worker pass."""
    club = _current.get()
    if club is None:
        try:
            club = Club.objects.defer("logo").first()  # its bytes only where it is served
            if club is None:  # a database emptied whole (a test's flush)
                club = Club.objects.create(**initial_values())
        except DatabaseError:
            # The database cannot be read (the error report of its being down): the club as
            # the environment describes it, read again next time.
            return Club(**initial_values())
        _current.set(club)
    return club


def forget(**_signal) -> None:
    """Read the club afresh next time: a new request, a new worker pass, a saved row."""
    _current.set(None)


__all__ = ["Club", "current", "forget", "initial_values"]
