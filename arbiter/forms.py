"""The arbiter's forms: results per board, a round's page (its fields, the draft's boards and
who is absent), ranking 0, a newcomer, a new season, and the reason for changing a final result.

The round page's rows are plain forms of keys (`BoardRows`, `AbsenceRows`): what they mean
together (nobody twice, nobody absent and seated, a published pairing fixed) is checked by
`services.save_round`, the one place of those rules."""

from __future__ import annotations

from datetime import date

from django import forms
from django.contrib.admin.widgets import (
    AdminDateWidget,
    AdminIntegerFieldWidget,
)
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base.admin_labels import LabelledSplitDateTime
from base.validators import validate_name
from base.widgets import FastCheckboxInput, FastHiddenInput, FastSelect, SharedChoices
from club.models import current as current_club
from competition.fields import FractionFormField
from competition.models import Absence, Competition, Game, Participant, Round
from competition.schedule import before, club_week
from competition.services import Board
from members.models import Member, RatingList

EMPTY = ("", "---------")  # a select's choice of nothing, as Django writes it

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
    """A typed result in its stored form ("" for none): the stored code, the site's own words
    (`Game.Result`'s labels: "½-½", "1-0 (reglementair)") or a shortcut; ValidationError when
    unknown."""
    typed = _squeezed(text)
    if not typed:
        return ""
    for value, label in Game.Result.choices:
        if typed in (value.lower(), _squeezed(str(label))):
            return value
    if typed in RESULT_SHORTCUTS:
        return RESULT_SHORTCUTS[typed].value
    raise forms.ValidationError(
        _("Unknown result %(result)r. Use 1, 0, r (draw), 1f, 0f or 00f (forfeits)."),
        params={"result": text},
        code="unknown_result",
    )


def _squeezed(text: str) -> str:
    return text.strip().lower().replace(" ", "")


class ResultField(forms.CharField):
    """A board's result, shown in the site's own words ("½-½", "1-0 (reglementair)"), as every
    other page writes it, not in the stored codes ("1/2-1/2", "1-0F"); typed in either, or with
    a shortcut (issue 37)."""

    widget = forms.TextInput(attrs={"size": 10, "autocomplete": "off", "list": "result-options"})

    def prepare_value(self, value):
        labels = dict(Game.Result.choices)
        return labels.get(value, value)

    def clean(self, value):
        return normalise_result(super().clean(value) or "")


class ResultsForm(forms.Form):
    """One result field per board of the round's pairing. Each field carries the result the
    page showed (a hidden initial value), so a board left as it was shown is not saved: the
    players may have agreed on its result since the page was opened.

    The players' names, which only the page shows (the boards' labels), are read when the page
    is shown (`rows`): a form sent and saved is checked without them."""

    def __init__(self, *args, round_: Round, **kwargs):
        super().__init__(*args, **kwargs)
        self.round = round_
        self._named = not self.is_bound  # the page is shown: the names read with the games
        games = round_.games.order_by("board")  # the default order joins the season
        if self._named:
            games = games.select_related("white__member", "black__member")
        self.games = list(games)
        for game in self.games:
            self.fields[f"game_{game.pk}"] = ResultField(
                required=False, initial=game.result, show_hidden_initial=True
            )
        if self.games:  # the cursor starts on board 1
            self.fields[f"game_{self.games[0].pk}"].widget.attrs["autofocus"] = True
        if self._named:
            self._label_boards()

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
        """Each board's game, with its players, and its field, for the page."""
        if not self._named:  # a form sent, shown again: its games' players in one query
            self._named = True
            keys = {key for game in self.games for key in (game.white_id, game.black_id)}
            players = Participant.objects.select_related("member").in_bulk(keys)
            for game in self.games:
                game.white, game.black = players[game.white_id], players[game.black_id]
            self._label_boards()
        return [(game, self[f"game_{game.pk}"]) for game in self.games]

    def _label_boards(self) -> None:
        for game in self.games:
            label = _("Board %(board)s: %(white)s – %(black)s") % {
                "board": game.board,
                "white": game.white.name,
                "black": game.black.name,
            }
            field = self.fields[f"game_{game.pk}"]
            field.label = label
            # The page shows the board in its table row; a screen reader hears it from here.
            field.widget.attrs["aria-label"] = label


SHORTCUT_HELP = gettext_lazy(
    "Type 1 (white wins), 0 (black wins), r or = (draw), 1f / 0f (won by forfeit), "
    "00f (both forfeit); Tab goes to the next board, Enter saves."
)


# -- the round page ----------------------------------------------------------------------------


class KeyRow(forms.Form):
    """A row of the round page: the stored row it shows (`id`, none for a new row) and
    participant keys chosen from the round's competition (`players`, read once per page)."""

    id = forms.IntegerField(required=False, widget=FastHiddenInput)
    PLAYER_FIELDS: tuple[str, ...] = ()

    def __init__(self, *args, players: list[tuple] | SharedChoices, **kwargs):
        super().__init__(*args, **kwargs)
        choices = player_choices(players)
        for name in self.PLAYER_FIELDS:
            self.fields[name].choices = choices


def player_choices(players: list[tuple] | SharedChoices) -> SharedChoices:
    """The players' select choices, nobody first: made once per page (`Rows` makes them for
    all its rows)."""
    return players if isinstance(players, SharedChoices) else SharedChoices([EMPTY, *players])


def player_field(label) -> forms.TypedChoiceField:
    return forms.TypedChoiceField(label=label, coerce=int, widget=FastSelect)


class BoardRow(KeyRow):
    board = forms.IntegerField(
        label=gettext_lazy("board"), min_value=1, widget=AdminIntegerFieldWidget
    )
    white = player_field(gettext_lazy("white"))
    black = player_field(gettext_lazy("black"))
    PLAYER_FIELDS = ("white", "black")


class Rows(forms.BaseFormSet):
    """Rows of the round page, never more than the competition has players: a posted count
    beyond that is refused with a message before any row is made (a count of millions would
    otherwise build thousands of rows)."""

    deletion_widget = FastCheckboxInput

    def __init__(self, *args, form_kwargs=None, **kwargs):
        players = (form_kwargs or {}).get("players")
        if players is not None:  # one list of choices for every row
            form_kwargs = {**form_kwargs, "players": player_choices(players)}
        super().__init__(*args, form_kwargs=form_kwargs, **kwargs)
        self.fixed = False
        if players is not None:
            self.absolute_max = self.max_num = max(len(players), self.initial_form_count())
            self.validate_max = True

    def allow(self, rights) -> Rows:
        """Only what the account may do (`rounds.Rights`): without `add` no row beyond those
        shown, without `change` the rows shown as they are, without `delete` none removed."""
        self.can_delete = rights.delete
        if not rights.add:
            self.max_num, self.validate_max = self.initial_form_count(), True
        self.fixed = not rights.change  # the rows are made when the page needs them
        return self

    def _construct_form(self, i, **kwargs):
        form = super()._construct_form(i, **kwargs)
        if self.fixed and i < self.initial_form_count():
            for name, field in form.fields.items():
                field.disabled = name != "DELETE"
        return form

    def kept(self) -> list[dict]:
        """What the rows that are filled in and not marked for deletion hold."""
        return [
            form.cleaned_data
            for form in self.forms
            if getattr(form, "cleaned_data", None) and not self._should_delete_form(form)
        ]

    def shown(self) -> set[int]:
        """The stored rows the page showed (deleted ones too)."""
        return {
            int(value)
            for value in (form["id"].value() for form in self.initial_forms)
            if str(value).isdigit()
        }


class BoardRows(Rows):
    """A draft's boards: number, White and Black; boards and colours may change."""

    def boards(self) -> list[Board]:
        return [Board(row["board"], row["white"], row["black"]) for row in self.kept()]


class AbsenceRow(KeyRow):
    """A player and the reason of their absence: one of the competition's reasons (`reasons`,
    `Competition.absence_reasons`: DSC's, and the club's own that its settings name)."""

    participant = player_field(gettext_lazy("player"))
    reason = forms.ChoiceField(
        label=gettext_lazy("reason"), choices=[EMPTY, *Absence.Reason.choices], widget=FastSelect
    )
    PLAYER_FIELDS = ("participant",)

    def __init__(self, *args, reasons: list[tuple[str, str]] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if reasons is not None:
            self.fields["reason"].choices = [EMPTY, *reasons]


class AbsenceRows(Rows):
    """Who is absent and why; a player once."""

    def clean(self):
        if any(self.errors):
            return
        names = dict(self.forms[0].fields["participant"].choices) if self.forms else {}
        chosen = [row["participant"] for row in self.kept()]
        twice = sorted({key for key in chosen if chosen.count(key) > 1})
        if twice:
            raise forms.ValidationError(
                [_("%(name)s is listed more than once.") % {"name": names[key]} for key in twice]
            )

    def absences(self) -> dict[int, str]:
        return {row["participant"]: row["reason"] for row in self.kept()}


BoardFormSet = forms.formset_factory(BoardRow, formset=BoardRows, extra=0, can_delete=True)
AbsenceFormSet = forms.formset_factory(AbsenceRow, formset=AbsenceRows, extra=0, can_delete=True)


class RoundForm(forms.ModelForm):
    """A round's own fields. Its publication time defaults to the club's (Friday 20:00 before
    the evening); the bye is one of the competition's players (`players`, read once per page).
    """

    class Meta:
        model = Round
        fields = ("competition", "number", "date", "publish_at", "bye")
        field_classes = {"publish_at": forms.SplitDateTimeField}
        widgets = {
            "number": AdminIntegerFieldWidget,
            "date": AdminDateWidget,
            "publish_at": LabelledSplitDateTime(Round._meta.get_field("publish_at").verbose_name),
            "bye": FastSelect,
        }

    def __init__(self, *args, players: list[tuple] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if players is None:  # a new round: its bye follows from its pairing
            del self.fields["bye"]
        else:  # the competition's players: read once for every select of the page
            self.fields["bye"].queryset = self.instance.competition.participants.all()
            self.fields["bye"].choices = [EMPTY, *players]

    def clean(self):
        data = super().clean()
        competition = data.get("competition")  # a closed season: `services.save_round` refuses
        if not data.get("publish_at") and data.get("date") and competition is not None:
            data["publish_at"] = Round.publication_time_for(data["date"], competition)
        publish_at, evening = data.get("publish_at"), data.get("date")
        if publish_at and evening and competition is not None:
            deadline = club_week().cancellation_deadline(evening)
            published = self.instance.pk and self.instance.is_published
            if competition.follows_the_club_week and before(publish_at, deadline) and not published:
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
        help_text=gettext_lazy("Usually the list of 1 June. Empty: each member's latest rating."),
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
    """A member who does not play yet, or a new member made here (issue 37: the list was
    empty, with no word that the person had to be made under Leden first). A new member is
    kept unsaved until the arbiter adds them after the preview (`lineup.add_newcomer`)."""

    member = forms.ModelChoiceField(
        Member.objects.active(),
        required=False,
        label=gettext_lazy("member"),
        empty_label=gettext_lazy("— a new member: fill in below —"),
    )
    new_name = forms.CharField(
        required=False,
        max_length=100,
        validators=[validate_name],
        label=gettext_lazy("new member's name"),
    )
    new_email = forms.EmailField(required=False, label=gettext_lazy("new member's e-mail"))
    new_rating = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=3000,
        label=gettext_lazy("estimated rating"),
        help_text=gettext_lazy("For the suggested start points and the group."),
    )
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

    def clean(self):
        data = super().clean()
        chosen, name = data.get("member"), (data.get("new_name") or "").strip()
        if chosen is not None and name:
            raise forms.ValidationError(
                _("Choose a member from the list or give a new member's name, not both.")
            )
        if chosen is None and not name:
            if "new_name" not in self.errors:
                raise forms.ValidationError(
                    _("Choose a member from the list, or give the new member's name.")
                )
            return data
        if name:
            if Member.objects.filter(name__iexact=name).exists():
                raise forms.ValidationError(
                    _("There is a member %(name)s already: choose them from the list.")
                    % {"name": name}
                )
            email = data.get("new_email") or ""
            if email and Member.objects.filter(email__iexact=email).exists():
                raise forms.ValidationError(
                    _("Another member has the e-mail address %(email)s.") % {"email": email}
                )
            member = Member(name=name, email=email, estimated_rating=data.get("new_rating"))
            member.listed_rating = None  # no rating list names a new member
            data["member"] = member
        return data


class NewSeasonForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("season"),
        max_length=20,
        help_text="2027-2028",
        validators=[validate_name],
    )
    first_evening = forms.DateField(label=gettext_lazy("first club evening"))
    evenings = forms.CharField(
        label=gettext_lazy("club evenings"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 14}),
    )
    rating_list = forms.ModelChoiceField(
        RatingList.objects.all(),
        required=False,
        label=gettext_lazy("ranking 0 and groups from"),
        help_text=gettext_lazy("Empty: fill ranking 0 later on the competition page."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["evenings"].help_text = _(
            "One date per line (day-month-year). Empty: %(count)s weekly dates are proposed; "
            "remove holidays and add dates at the end."
        ) % {"count": current_club().rounds_proposed}

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


class ChangeReasonForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason for changing a final result"),
        max_length=100,
        required=False,
        help_text=gettext_lazy("Kept in the game's history."),
    )


class CorrectionReasonForm(forms.Form):
    """Why the published rankings change: shown on each corrected ranking and in the e-mail
    that tells its readers."""

    reason = forms.CharField(
        label=gettext_lazy("Reason for the correction"),
        max_length=200,
        help_text=gettext_lazy(
            "Shown on each corrected ranking and in the e-mail to the members who get the "
            "ranking by e-mail."
        ),
    )
