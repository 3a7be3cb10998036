"""The public pages' forms: the what-if question and a player's own result (the arbiter's are
in `arbiter.forms`)."""

from __future__ import annotations

import copy
from collections.abc import Mapping

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competition.models import Game

# The results a what-if offers per board: the played ones first, then the forfeits.
WHAT_IF_RESULTS = [
    (result.value, result.label)
    for result in (*Game.OVER_THE_BOARD, *(r for r in Game.Result if r not in Game.OVER_THE_BOARD))
]
# What a board's select shows of each (issue 37: "nog geen uitslag" and "0-1 (reglementair)"
# were cut to "nog gee…" on a phone). The shown text is the option's name, as WCAG 2.5.3 asks
# ("reg." is read as written), except for the empty choice, whose "–" says nothing: it is named
# in full. A board without a result counts as a draw (`what_if.EMPTY_BOARD`).
SHORT_RESULTS = {
    "": "–",
    **{result: result.label for result in Game.OVER_THE_BOARD},  # short already: 1-0, ½-½, 0-1
    Game.Result.WHITE_WINS_BY_FORFEIT: gettext_lazy("1-0 forf."),
    Game.Result.BLACK_WINS_BY_FORFEIT: gettext_lazy("0-1 forf."),
    Game.Result.DOUBLE_FORFEIT: gettext_lazy("0-0 forf."),
}
BOARD_PREFIX = "bord-"


class WhatIfForm(forms.Form):
    """The what-if page's question: a result per board of the round asked about (a GET form,
    so an address names its choices). `ronde` names the round the choices were made for; a
    board the address leaves out keeps its stored result; `leeg` fills the boards still
    without one. Anything else that names a board or a result is refused, never guessed."""

    ronde = forms.IntegerField(
        required=False,
        widget=forms.HiddenInput,
        error_messages={"invalid": gettext_lazy("The round must be given as a number.")},
    )
    leeg = forms.ChoiceField(
        required=False,
        choices=[("", "—"), *WHAT_IF_RESULTS],
        error_messages={
            "invalid_choice": gettext_lazy("Unknown result %(value)r for the empty boards.")
        },
    )

    def __init__(self, query: Mapping[str, str], question):
        self.question = question
        stored = {f"{BOARD_PREFIX}{board.number}": board.result for board in question.boards}
        super().__init__({"ronde": str(question.round.number), **stored, **query})
        self.query = query
        self.board_choices = [("", _("no result yet: counts as a draw")), *WHAT_IF_RESULTS]
        # (value, what the select shows, the option's name) for the page.
        self.board_options = [
            (value, str(SHORT_RESULTS[value]), str(label if value == "" else SHORT_RESULTS[value]))
            for value, label in self.board_choices
        ]
        # One field made, and copied for each board with its own label and message: up to 75
        # fields built one by one took 6 ms of every what-if.
        result = forms.ChoiceField(required=False, choices=self.board_choices)
        label, unknown = (
            _("Result board %(board)s"),
            _("Board %(board)s: unknown result %(result)s."),
        )
        for board in question.boards:
            field = copy.copy(result)
            field.label = label % {"board": board.number}
            field.error_messages = result.error_messages | {
                "invalid_choice": unknown % {"board": board.number, "result": "%(value)r"}
            }
            self.fields[f"{BOARD_PREFIX}{board.number}"] = field

    def clean(self):
        data = super().clean()
        number = self.question.round.number
        problems = []
        if data.get("ronde") not in (None, number):
            problems.append(
                _(
                    "These results were chosen for round %(asked)s; the round to choose "
                    "results for is round %(number)s."
                )
                % {"asked": data["ronde"], "number": number}
            )
        problems += [
            _("Round %(number)s has no board %(board)r.")
            % {"number": number, "board": name[len(BOARD_PREFIX) :]}
            for name in self.query
            if name.startswith(BOARD_PREFIX) and name not in self.fields
        ]
        if problems:
            raise forms.ValidationError(problems)
        return data

    def boards(self):
        """(board, its result field) in board order."""
        return [(board, self[f"{BOARD_PREFIX}{board.number}"]) for board in self.question.boards]

    def results(self) -> dict[int, str]:
        """The chosen result per board ("" for none: `what_if.answer` counts it as a draw),
        the empty ones filled with `leeg` when the address asks for it."""
        fill = self.cleaned_data.get("leeg") or ""
        return {
            board.number: self.cleaned_data[f"{BOARD_PREFIX}{board.number}"] or fill
            for board in self.question.boards
        }

    def filled(self) -> WhatIfForm:
        """This choice with the empty boards filled as `leeg` asked, as a form of its own (so
        the page shows what it computed with)."""
        form = WhatIfForm(
            {f"{BOARD_PREFIX}{number}": result for number, result in self.results().items()},
            self.question,
        )
        form.is_valid()
        return form

    def problems(self) -> list[str]:
        """Every error as one sentence (field errors name their board themselves)."""
        return [message for errors in self.errors.values() for message in errors]


class ResultEntryForm(forms.Form):
    """A player's result of their own game: one of the results a player may enter."""

    result = forms.ChoiceField(
        choices=[(choice.value, choice.label) for choice in Game.OVER_THE_BOARD],
        error_messages={
            "required": gettext_lazy("Choose the result of your game."),
            "invalid_choice": gettext_lazy("Choose the result of your game."),
        },
    )


def what_if_question(query: Mapping[str, str]) -> list[tuple[str, str]]:
    """What of an address's parameters (`base.page_cache.parameters`: by name, the last value
    of each) makes its what-if question (the round, each board's result and `leeg`; the season
    is the page cache's own), in one order: two addresses that ask the same are answered once,
    whatever else they carry."""
    return sorted(
        (name, value)
        for name, value in query.items()
        if name in WhatIfForm.base_fields or name.startswith(BOARD_PREFIX)
    )
