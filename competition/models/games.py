"""The games of a round's pairing and the results its players enter themselves."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from competition.keizer import season as keizer
from competition.keizer.scoring import Outcome, game_outcome
from competition.models.competitions import Participant


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
    # Who did not come when a game is won by default: white (0), black (1) or both.
    DEFAULTERS = {
        Result.WHITE_WINS_BY_FORFEIT: (1,),
        Result.BLACK_WINS_BY_FORFEIT: (0,),
        Result.DOUBLE_FORFEIT: (0, 1),
    }

    round = models.ForeignKey(
        "competition.Round", verbose_name=_("round"), on_delete=models.CASCADE, related_name="games"
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

    def defaulters(self) -> list[int]:
        """The players (ids) who lost this game by default: they did not come."""
        return [
            (self.white_id, self.black_id)[side] for side in self.DEFAULTERS.get(self.result, ())
        ]

    def player_of_member(self, member) -> Participant | None:
        """The player of this game who is `member`, if any."""
        for player in (self.white, self.black):
            if player.member_id is not None and player.member_id == member.pk:
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
