"""The ranking after each round as the engine computed it: the snapshots the pages read."""

from __future__ import annotations

from fractions import Fraction

from django.db import models
from django.utils.translation import gettext_lazy as _

from competition.fields import FractionField
from competition.keizer.scoring import Outcome
from competition.models.competitions import Competition, Participant


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
    # A ranking that changed after its round's results were final (a corrected result, a
    # line-up entered later, …): when and why, shown on its standings page
    # (`services.rankings`). Kept while it stays as corrected.
    corrected_at = models.DateTimeField(_("corrected at"), null=True, blank=True, editable=False)
    # Why, newest first: every correction's reason is kept (one after the other, with "; ").
    correction = models.TextField(_("correction"), blank=True, editable=False)
    # The members who get the new ranking by e-mail were told of the correction (once).
    correction_mailed_at = models.DateTimeField(
        _("correction e-mailed at"), null=True, blank=True, editable=False
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

    def appearance_of(
        self, participant_id: int
    ) -> tuple[Outcome, int | None, int | None, str | None] | None:
        """(outcome, opponent id, team match id, reason) of a player in round `after_round`;
        the reason only for an absence for a reason of the club's own."""
        stored = self.appearances.get(str(participant_id))
        if stored is None:
            return None
        outcome, opponent, team_match, *reason = stored
        return Outcome(outcome), opponent, team_match, reason[0] if reason else None

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
