"""The log of cancellations and re-registrations for club evenings."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from competition.keizer.scoring import Outcome as Scored
from competition.keizer.season import Absence as Reason
from competition.models import Participant, Round
from competition.outcomes import OUTCOME_WORDS
from members.models import Member


class Registration(models.Model):
    """One change of a member's attendance for one club evening, as it was asked for.

    `sequence` numbers the changes per member and evening; a double submit would repeat a
    number and is refused by the database, so a member never gets two records for one click.
    """

    class Action(models.TextChoices):
        CANCEL = "cancel", _("cancel")
        REGISTER = "register", _("re-register")

    class Reason(models.TextChoices):
        REGULAR = "regular", _("regular")
        TEAM = Reason.TEAM.value, _("team match")  # the member's form: `Club.team_match_words`

    class Outcome(models.TextChoices):
        """What the change did; the absences among them are the engine's absence kinds."""

        EXCUSED = Reason.EXCUSED.value, OUTCOME_WORDS[Scored.EXCUSED]
        TEAM = Reason.TEAM.value, OUTCOME_WORDS[Scored.TEAM]
        LATE = Reason.LATE.value, OUTCOME_WORDS[Scored.LATE]
        FORFEIT = "forfeit", _("cancelled after publication: the opponent wins by default")
        BYE = "bye", _("has the bye: nothing changes")
        PRESENT = "present", _("registered again")
        AUTO = Reason.AUTO.value, OUTCOME_WORDS[Scored.AUTO]

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="registrations"
    )
    member = models.ForeignKey(
        Member, verbose_name=_("member"), on_delete=models.CASCADE, related_name="registrations"
    )
    sequence = models.PositiveIntegerField(_("number"))
    action = models.CharField(_("action"), max_length=10, choices=Action)
    reason = models.CharField(_("reason"), max_length=10, choices=Reason, blank=True)
    outcome = models.CharField(_("outcome"), max_length=10, choices=Outcome)
    reported_at = models.DateTimeField(
        _("reported at"), help_text=_("When the member reported (by phone or e-mail, say).")
    )
    made_at = models.DateTimeField(_("recorded at"), default=timezone.now)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("recorded by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        help_text=_("Empty: automatically."),
    )

    class Meta:
        verbose_name = _("cancellation or re-registration")
        verbose_name_plural = _("cancellations and re-registrations")
        ordering = ["-made_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "member", "sequence"], name="one_change_per_number"
            )
        ]

    def __str__(self) -> str:
        return f"{self.member} · {self.round}: {self.get_outcome_display()}"


class NoShowCancellation(models.Model):
    """Two no-shows in a row cancelled the player for the coming rounds (DSC rule k), once."""

    participant = models.ForeignKey(Participant, on_delete=models.CASCADE)
    after_round = models.PositiveIntegerField(_("after round"))
    made_at = models.DateTimeField(_("made at"), default=timezone.now)

    class Meta:
        verbose_name = _("automatic cancellation")
        verbose_name_plural = _("automatic cancellations")
        constraints = [
            models.UniqueConstraint(fields=["participant", "after_round"], name="no_show_once")
        ]

    def __str__(self) -> str:
        return f"{self.participant} ({self.after_round})"
