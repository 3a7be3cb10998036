"""Forms for the arbiter (results per board, the pairing review) and the what-if question."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from django import forms
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competition.fields import FractionFormField
from competition.models import Competition, Game, Round
from competition.schedule import club_week
from competition.services import (
    Board,
    absence_problems,
    board_problems,
    unseated_without_absence,
)
from members.models import Member, RatingList

# What the arbiter may type for a result: the results themselves and short forms.
RESULT_SHORTCUTS = {
    "1": Game.Result.WHITE_WINS,
    "0": Game.Result.BLACK_WINS,
    "r": Game.Result.DRAW,
    "=": Game.Result.DRAW,
    "½": Game.Result.DRAW,
    "0.5": Game.Result.DRAW,
    "½-½": Game.Result.DRAW,
    "1f": Game.Result.WHITE_WINS_BY_FORFEIT,
    "0f": Game.Result.BLACK_WINS_BY_FORFEIT,
    "00f": Game.Result.DOUBLE_FORFEIT,
    "ff": Game.Result.DOUBLE_FORFEIT,
}


def normalise_result(text: str) -> str:
    """A typed result in its stored form ("" for none); ValidationError when unknown."""
    typed = text.strip().lower().replace(" ", "")
    if not typed:
        return ""
    for value in Game.Result.values:
        if typed == value.lower():
            return value
    if typed in RESULT_SHORTCUTS:
        return RESULT_SHORTCUTS[typed].value
    raise forms.ValidationError(
        _("Unknown result %(result)r. Use 1, 0, r (draw), 1f, 0f or 00f (forfeits)."),
        params={"result": text},
        code="unknown_result",
    )


class ResultField(forms.CharField):
    widget = forms.TextInput(attrs={"size": 6, "autocomplete": "off", "list": "result-options"})

    def clean(self, value):
        return normalise_result(super().clean(value) or "")


class ResultsForm(forms.Form):
    """One result field per board of the round's pairing. Each field carries the result the
    page showed (a hidden initial value), so a board left as it was shown is not saved: the
    players may have agreed on its result since the page was opened."""

    def __init__(self, *args, round_: Round, **kwargs):
        super().__init__(*args, **kwargs)
        self.round = round_
        self.games = list(round_.games.select_related("white__member", "black__member"))
        for game in self.games:
            self.fields[f"game_{game.pk}"] = ResultField(
                label=_("Board %(board)s: %(white)s – %(black)s")
                % {"board": game.board, "white": game.white.name, "black": game.black.name},
                required=False,
                initial=game.result,
                show_hidden_initial=True,
            )
        if self.games:  # the cursor starts on board 1
            self.fields[f"game_{self.games[0].pk}"].widget.attrs["autofocus"] = True

    def results(self) -> dict[int, str]:
        """The results typed, by game id: the boards whose result differs from what the page
        showed (every board when the page did not say what it showed)."""
        return {
            game.pk: self.cleaned_data[f"game_{game.pk}"]
            for game in self.games
            if self._changed_on_the_page(f"game_{game.pk}")
        }

    def _changed_on_the_page(self, name: str) -> bool:
        shown = self.data.get(self.add_initial_prefix(name))
        if shown is None:
            return True
        try:
            return normalise_result(shown) != self.cleaned_data[name]
        except forms.ValidationError:
            return True

    def rows(self):
        return [(game, self[f"game_{game.pk}"]) for game in self.games]


def submitted_absences(data, round_: Round, prefix: str = "absences") -> set[int]:
    """Who is absent after this POST of the round page: the players its absence rows name (not
    deleted), and the stored absences it does not show (rows the user may only view, or no
    absence rows at all)."""
    if f"{prefix}-TOTAL_FORMS" not in data:
        return round_.absent_ids() if round_.pk else set()
    absent, view_only = set(), set()
    for index in range(int(data.get(f"{prefix}-TOTAL_FORMS") or 0)):
        row = f"{prefix}-{index}-"
        participant, stored = data.get(row + "participant"), data.get(row + "id", "")
        if data.get(row + "DELETE"):
            continue
        if participant and participant.isdigit():
            absent.add(int(participant))
        elif stored.isdigit():
            view_only.add(int(stored))
    if view_only and round_.pk:
        absent |= set(
            round_.absences.filter(pk__in=view_only).values_list("participant_id", flat=True)
        )
    return absent


def key(value) -> int:
    """A participant's key, whether the form cleaned it to a row or kept a view-only row's
    initial key."""
    return getattr(value, "pk", value)


def kept_forms(formset):
    """The forms of an inline formset that are filled in and not marked for deletion."""
    return [
        form
        for form in formset.forms
        if getattr(form, "cleaned_data", None) and not formset._should_delete_form(form)
    ]


class GameFormSet(forms.BaseInlineFormSet):
    """The pairing review: boards and colours may change, but nobody twice, nobody missing,
    nobody absent or not yet joined; checked against the absences submitted with it."""

    def boards(self) -> list[Board]:
        return [
            Board(data["board"], key(data["white"]), key(data["black"]))
            for data in (form.cleaned_data for form in kept_forms(self))
            if data.get("white") and data.get("black")
        ]

    def clean(self):
        super().clean()
        round_ = self.instance
        if any(self.errors) or round_.competition_id is None:
            return
        if round_.pk and round_.is_published:
            return  # a published pairing is read-only
        problems = board_problems(round_, self.boards(), submitted_absences(self.data, round_))
        if problems:
            raise forms.ValidationError(problems)


class AbsenceFormSet(forms.BaseInlineFormSet):
    """Absences name players of this competition; once the pairing is published, nobody in
    it can be recorded absent (a late cancellation becomes a forfeit result instead)."""

    def absences(self) -> dict[int, str]:
        return {
            key(form.cleaned_data["participant"]): form.cleaned_data["reason"]
            for form in kept_forms(self)
            if form.cleaned_data.get("participant")
        }

    def clean(self):
        super().clean()
        if any(self.errors) or self.instance.competition_id is None:
            return
        round_, absences = self.instance, self.absences()
        problems = absence_problems(round_, absences)
        if round_.pk and round_.is_published:
            problems += unseated_without_absence(round_, absences)
        if problems:
            raise forms.ValidationError(problems)


SHORTCUT_HELP = gettext_lazy(
    "Type 1 (white wins), 0 (black wins), r or = (draw), 1f / 0f (won by forfeit), "
    "00f (both forfeit); Tab goes to the next board, Enter saves."
)


class RoundForm(forms.ModelForm):
    """A round's publication time defaults to the club's (Friday 20:00 before the evening)."""

    class Meta:
        model = Round
        fields = ("competition", "number", "date", "publish_at", "bye")

    def clean(self):
        data = super().clean()
        competition = data.get("competition")
        if competition is not None and competition.season.is_closed:
            raise forms.ValidationError(
                _("Season %(name)s is closed; its standings are final.")
                % {"name": competition.season.name}
            )
        if not data.get("publish_at") and data.get("date") and competition is not None:
            data["publish_at"] = Round.publication_time_for(data["date"], competition)
        publish_at, evening = data.get("publish_at"), data.get("date")
        if publish_at and evening and competition is not None and competition.is_classical:
            deadline = club_week().cancellation_deadline(evening)
            if publish_at < deadline and not (self.instance.pk and self.instance.is_published):
                # The worker would publish without asking while members still cancel in time;
                # an early publication goes through the button, which asks first.
                raise forms.ValidationError(
                    _(
                        "The publication time cannot lie before the cancellation deadline "
                        "(%(deadline)s). To publish early, use the publish button: it asks "
                        "first and says who gets an e-mail."
                    )
                    % {"deadline": formats.date_format(timezone.localtime(deadline), "D j F H:i")}
                )
        return data


class InitialRankingForm(forms.Form):
    rating_list = forms.ModelChoiceField(
        RatingList.objects.all(),
        required=False,
        label=gettext_lazy("rating list"),
        help_text=gettext_lazy("DSC uses the list of 1 June. Empty: each member's latest rating."),
    )
    previous = forms.ModelChoiceField(
        Competition.objects.all(),
        required=False,
        label=gettext_lazy("order by the final ranking of"),
        help_text=gettext_lazy("Empty: order by rating. Groups always follow the rating."),
    )
    members = forms.ModelMultipleChoiceField(
        Member.objects.active(),
        label=gettext_lazy("members"),
        widget=forms.CheckboxSelectMultiple,
    )


class NewcomerForm(forms.Form):
    member = forms.ModelChoiceField(Member.objects.active(), label=gettext_lazy("member"))
    joined_round = forms.IntegerField(min_value=2, label=gettext_lazy("joins in round"))
    start_points = FractionFormField(
        required=False,
        label=gettext_lazy("start points"),
        help_text=gettext_lazy("Empty: the suggestion."),
    )

    def __init__(self, *args, competition: Competition, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = Member.objects.active().exclude(
            participations__competition=competition
        )


class NewSeasonForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("season"), max_length=20, help_text="2027-2028")
    first_evening = forms.DateField(label=gettext_lazy("first club evening"))
    evenings = forms.CharField(
        label=gettext_lazy("club evenings"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 14}),
        help_text=gettext_lazy(
            "One date per line (day-month-year). Empty: 28 weekly dates are proposed; "
            "remove holidays and add dates at the end."
        ),
    )
    rating_list = forms.ModelChoiceField(
        RatingList.objects.all(),
        required=False,
        label=gettext_lazy("ranking 0 and groups from"),
        help_text=gettext_lazy("Empty: fill ranking 0 later on the competition page."),
    )

    def clean_evenings(self):
        evenings = []
        for number, line in enumerate(self.cleaned_data["evenings"].splitlines(), start=1):
            if not line.strip():
                continue
            try:
                day, month, year = (int(part) for part in line.strip().split("-"))
                evenings.append(date(year, month, day))
            except ValueError:
                raise forms.ValidationError(
                    _("Line %(number)s: %(text)r is not a date like 3-9-2027.")
                    % {"number": number, "text": line.strip()}
                ) from None
        return evenings


# The results a what-if offers per board: the played ones first, then the forfeits.
WHAT_IF_RESULTS = [
    (result.value, result.label)
    for result in (*Game.OVER_THE_BOARD, *(r for r in Game.Result if r not in Game.OVER_THE_BOARD))
]
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
        self.board_choices = [("", _("no result yet")), *WHAT_IF_RESULTS]
        for board in question.boards:
            self.fields[f"{BOARD_PREFIX}{board.number}"] = forms.ChoiceField(
                required=False,
                choices=self.board_choices,
                label=_("Result board %(board)s") % {"board": board.number},
                error_messages={
                    "invalid_choice": _("Board %(board)s: unknown result %(result)s.")
                    % {"board": board.number, "result": "%(value)r"}
                },
            )

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
        """The chosen result per board ("" for none), the empty ones filled with `leeg`."""
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
