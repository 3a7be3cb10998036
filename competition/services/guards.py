"""What every workflow checks first: a refusal (`CompetitionError`, `OutOfDate` for a page
that showed an older state), a closed season, and the locks that keep two changes of a round
or a competition from interleaving."""

from __future__ import annotations

from django.utils.translation import gettext as _

from competition.models import (
    Competition,
    Round,
)


class CompetitionError(Exception):
    """A workflow refused: the messages say why; nothing was changed."""

    def __init__(self, messages: list[str] | str):
        self.messages = [messages] if isinstance(messages, str) else list(messages)
        super().__init__(" ".join(self.messages))


class OutOfDate(CompetitionError):
    """The arbiter's page showed a state that has changed since (a second tap, another
    device): nothing was done; the page is to be shown again as it is now."""


def closed_season_problems(competition: Competition) -> list[str]:
    """A closed season's standings are final: nothing in it changes any more."""
    if competition.season.is_closed:
        return [
            _("Season %(name)s is closed; its standings are final.")
            % {"name": competition.season.name}
        ]
    return []


def refuse_if_closed(competition: Competition) -> None:
    if problems := closed_season_problems(competition):
        raise CompetitionError(problems)


def locked_round(round_: Round) -> Round:
    """The round, locked for this transaction: one change of a round at a time."""
    return (
        Round.objects.select_for_update(of=("self",))
        .select_related("competition__season")
        .get(pk=round_.pk)
    )


def lock_competition(competition: Competition) -> None:
    """Two recomputations of one competition never interleave."""
    Competition.objects.select_for_update(of=("self",)).filter(pk=competition.pk).first()
