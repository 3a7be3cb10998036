"""A round: a club evening of a competition, where it stands in the club's week, and who is
absent from it and why."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, timedelta

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from competition.keizer import season as keizer
from competition.keizer.scoring import Outcome
from competition.models.competitions import Competition, Participant, Season
from competition.models.games import Game
from competition.models.rankings import Ranking
from competition.outcomes import OUTCOME_WORDS, reason_label
from competition.schedule import EVENING_SPACING, ClubWeek, before, club_week


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
            competition__kind__in=Competition.CLUB_WEEK_KINDS,
            competition__season__is_closed=False,
        )

    def pairing_mail_due(self, now: datetime):
        """Published pairings of the internal competition not yet e-mailed, of evenings still to
        come: today's only until play starts, so a worker catching up (after downtime, or a
        pairing published on the evening) never mails a pairing the players sit down to."""
        today = timezone.localdate(now)
        coming = self.from_day(today)
        if not before(now, club_week().play_starts_at(today)):
            coming = self.from_day(today + timedelta(days=1))
        return coming.published().filter(
            pairing_mailed_at__isnull=True, competition__kind__in=Competition.CLUB_WEEK_KINDS
        )

    def reminder_due(self, now: datetime):
        """Unpublished rounds of the internal competition of open seasons whose members are to
        be reminded now: on the deadline's day from the reminder time until the deadline, not
        reminded yet."""
        today = timezone.localdate(now)
        week = club_week()
        candidates = self.unpublished().filter(
            reminder_mailed_at__isnull=True,
            competition__kind__in=Competition.CLUB_WEEK_KINDS,
            competition__season__is_closed=False,
            date__gt=today,
            date__lte=today + EVENING_SPACING,
        )
        return candidates.filter(
            pk__in=[
                round_.pk
                for round_ in candidates
                if not before(now, week.reminder_at(round_.date))
                and before(now, week.cancellation_deadline(round_.date))
            ]
        )

    def results_final(self, now: datetime):
        """Rounds whose results are final at `now` (`Round.results_are_provisional`, in SQL):
        every evening before today, and today's once its results-final time has passed."""
        today = timezone.localdate(now)
        if before(now, club_week().results_final_at(today)):
            return self.filter(date__lt=today)
        return self.filter(date__lte=today)

    def ranking_mail_due(self, now: datetime):
        """The round whose new ranking is to be e-mailed, per competition at most one: of the
        current season's internal competition, its results final, its ranking stored and the
        newest of the competition, not mailed yet and no later round mailed. Only the newest
        ranking is ever mailed, so a worker that was down, a season imported at once or the
        deployment of this e-mail never sends a backlog of older rankings."""
        today = timezone.localdate(now)
        same_competition = {"competition": models.OuterRef("competition")}
        number = models.OuterRef("number")
        return (
            self.published()
            .results_final(now)
            .filter(
                ranking_mailed_at__isnull=True,
                competition__kind__in=Competition.CLUB_WEEK_KINDS,
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
            "Empty: the club's publication time (on the cancellation deadline's day before the "
            "evening; for the rapid competition the evening itself)."
        ),
    )
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    bye = models.ForeignKey(
        Participant,
        verbose_name=OUTCOME_WORDS[Outcome.BYE],
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="+",
    )
    pairing_warnings = models.JSONField(_("pairing warnings"), default=list, blank=True)
    # Whose change dropped the draft pairing ("Jan de Zeeuw: op tijd afgemeld"), until the
    # round is paired again: the start page and the arbiter's e-mail say it.
    draft_discarded_because = models.CharField(
        _("draft discarded because of"), max_length=200, blank=True, editable=False
    )
    pairing_mailed_at = models.DateTimeField(
        _("pairing e-mailed at"), null=True, blank=True, editable=False
    )
    waiting_notice_at = models.DateTimeField(
        _("arbiter told of missing results at"), null=True, blank=True, editable=False
    )
    ranking_mailed_at = models.DateTimeField(
        _("new ranking e-mailed at"), null=True, blank=True, editable=False
    )
    reminder_mailed_at = models.DateTimeField(
        _("reminder e-mailed at"), null=True, blank=True, editable=False
    )
    history = HistoricalRecords(
        excluded_fields=[
            "pairing_mailed_at",
            "waiting_notice_at",
            "ranking_mailed_at",
            "reminder_mailed_at",
        ]
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
    def publication_time_for(
        cls, evening: date, competition: Competition, week: ClubWeek | None = None
    ) -> datetime:
        """When the pairing of a club evening appears, the one rule for every new round: the
        internal competition's on the Friday before (the club's week, or `week`: a change the
        arbiter previews), the rapid competition's on the evening itself, where the arbiter
        pairs round after round."""
        week = week or club_week()
        if competition.pairs_on_the_evening:
            return week.publication_on_the_evening(evening)
        return week.publication_at(evening)

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

    def cancels_in_time(self, moment: datetime) -> bool:
        """A cancellation at `moment` is in time: before the deadline (at 18:00:00 it is
        late)."""
        return before(moment, self.cancellation_deadline)

    @property
    def published_early(self) -> bool:
        """The arbiter published the pairing before the cancellation deadline: from then on
        the deadline offers nothing (a cancellation is a forfeit, the pairing is fixed)."""
        return self.is_published and self.cancels_in_time(self.published_at)

    def games_started(self, moment: datetime) -> bool:
        """The games have started at `moment` (19:45 on the evening): members no longer
        cancel online, players enter their results."""
        return not before(moment, self.play_starts_at)

    def results_are_provisional(self, now: datetime) -> bool:
        return before(now, self.results_final_at)

    def takes_players_results(self, now: datetime) -> bool:
        """Players enter their game's result themselves from the games' start until the
        results are final (19:45 to 23:30 on the evening); after that the arbiter decides."""
        return self.games_started(now) and self.results_are_provisional(now)

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
            return self.Stage.OPEN if self.cancels_in_time(now) else self.Stage.CLOSED
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

    def pairing_non_recipients(self) -> list[tuple[Participant, str]]:
        """The seated players the pairing e-mail does not go to, by name, each with why (the
        other side of `pairing_recipients`): a guest, no address, or the member's choice."""
        sent = set(self.pairing_recipients().values_list("pk", flat=True))
        others = Participant.objects.filter(pk__in=self.seated_ids() - sent).select_related(
            "member"
        )
        return sorted(
            (
                (
                    player,
                    _("a guest")
                    if player.member is None
                    else _("no e-mail address")
                    if not player.member.email
                    else _("chose not to get the pairing by e-mail"),
                )
                for player in others
            ),
            key=lambda item: item[0].name,
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


class AbsenceQuerySet(models.QuerySet):
    def team_claims(self):
        """Team matches a member claimed that the arbiter has not decided on yet."""
        return self.filter(team_claim=True)


class Absence(models.Model):
    """A player who did not play a round, and why (what the engine scores)."""

    class Reason(models.TextChoices):
        """DSC's reasons, which every competition knows; a club's own reasons are words its
        Keizer settings name (`Competition.absence_reasons`)."""

        EXCUSED = keizer.Absence.EXCUSED.value, OUTCOME_WORDS[Outcome.EXCUSED]
        TEAM = keizer.Absence.TEAM.value, OUTCOME_WORDS[Outcome.TEAM]
        LATE = keizer.Absence.LATE.value, OUTCOME_WORDS[Outcome.LATE]
        UNEXCUSED = keizer.Absence.UNEXCUSED.value, OUTCOME_WORDS[Outcome.UNEXCUSED]
        AUTO = keizer.Absence.AUTO.value, OUTCOME_WORDS[Outcome.AUTO]

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="absences"
    )
    participant = models.ForeignKey(
        Participant, verbose_name=_("player"), on_delete=models.CASCADE, related_name="absences"
    )
    reason = models.CharField(_("reason"), max_length=30)
    team_claim = models.BooleanField(
        _("team match claimed"),
        default=False,
        help_text=_(
            "The member said it is a team match. It counts as cancelled in time until a "
            "line-up shows it or the arbiter confirms it."
        ),
    )
    history = HistoricalRecords()

    objects = AbsenceQuerySet.as_manager()
    # The history's words for a reason: DSC's, or the club's own (no field choices: a club's
    # reasons are its settings' words).
    HISTORY_LABELS = {"reason": reason_label}

    class Meta:
        verbose_name = _("absence")
        verbose_name_plural = _("absences")
        constraints = [
            models.UniqueConstraint(fields=["round", "participant"], name="absent_once_per_round")
        ]

    def __str__(self) -> str:
        return f"{self.participant}: {self.reason_label}"

    @property
    def reason_label(self) -> str:
        return reason_label(self.reason)
