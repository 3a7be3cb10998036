"""The club of this deployment, as data (issue 40): its name and sender, and its week. One
row; what belongs to the deployment (secret key, database, mail server, DKIM key, the site's
address) stays in the environment.

`current()` reads the row once per request or worker pass (`forget` at the start of each, and
when the row is saved), so a change made in the site applies at once, everywhere, without a
restart, and costs one query where it is read.
"""

from __future__ import annotations

from contextvars import ContextVar
from email.utils import parseaddr

from django.conf import settings
from django.db import DatabaseError, models
from django.utils.translation import gettext_lazy as _

WEEKDAYS = [
    (0, _("Monday")),
    (1, _("Tuesday")),
    (2, _("Wednesday")),
    (3, _("Thursday")),
    (4, _("Friday")),
    (5, _("Saturday")),
    (6, _("Sunday")),
]


class Club(models.Model):
    """The club: who it is, and its week around a club evening."""

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
    deadline_weekday = models.PositiveSmallIntegerField(
        _("cancellation deadline: day"),
        choices=WEEKDAYS,
        help_text=_("The last such day before the club evening."),
    )
    deadline_time = models.TimeField(_("cancellation deadline: time"))
    publication_time = models.TimeField(
        _("publication of the pairing"), help_text=_("On the deadline's day.")
    )
    play_time = models.TimeField(_("play starts"), help_text=_("On the club evening."))
    results_final_time = models.TimeField(
        _("results final"), help_text=_("On the club evening: results count as final from then.")
    )

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("club")

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        super().save(*args, **kwargs)
        forget()


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
            club = Club.objects.first()
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
