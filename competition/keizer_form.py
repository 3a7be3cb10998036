"""The arbiter's form of a competition's Keizer (issue 39): a preset and every setting of the
variants (shared/spec/keizer-variants.md), each named and explained in the arbiter's words.

The form only gathers values, one per field (`variants.flat`); the season file's reader checks
them as the settings object they make (`variants.from_flat`), and its message names the
setting: one home for every setting's meaning and check."""

from __future__ import annotations

from fractions import Fraction

from django import forms
from django.utils.translation import gettext, gettext_lazy

from competition.amounts import format_amount
from competition.fields import FractionFormField
from competition.keizer import variants
from competition.keizer.scoring import Outcome
from competition.keizer.season import DSC_REASONS, Settings
from competition.outcomes import OUTCOME_WORDS, reason_label

OPPONENTS = gettext_lazy("Share of the opponent's value.")
OWN = gettext_lazy("Share of the own value.")


class KeizerForm(forms.Form):
    """A competition's Keizer: a preset and every setting of the variants
    (shared/spec/keizer-variants.md), each named and explained in the arbiter's words. The
    form only gathers the values as a settings object of the season file; its reader
    (`season_file.settings_from_document`) checks them, and its message names the setting."""

    PROFILES = (
        ("dsc", gettext_lazy("the standard rules")),
        ("keizerforclubs", "KeizerForClubs"),
        ("sharly-chess", "Sharly-Chess"),
        ("chesspairing", "chesspairing"),
    )
    profile = forms.ChoiceField(
        choices=PROFILES,
        label=gettext_lazy("preset"),
        help_text=gettext_lazy(
            "The Keizer of another program, to start from: choose it and press "
            "“Use this preset”. Every setting below may still be changed."
        ),
    )
    top_value = forms.CharField(
        label=gettext_lazy("value of number 1"),
        help_text=gettext_lazy(
            "A number, or N (the number of players), N-1+(N-1)//2, or ratio:R (number 1 is "
            "worth R times the last)."
        ),
    )
    step = forms.IntegerField(
        min_value=1,
        label=gettext_lazy("step"),
        help_text=gettext_lazy("How much less each next place is worth."),
    )
    own_value = forms.BooleanField(
        required=False,
        label=gettext_lazy("own value counts"),
        help_text=gettext_lazy("A player's total includes their own value."),
    )
    win = FractionFormField(label=OUTCOME_WORDS[Outcome.WIN], help_text=OPPONENTS)
    draw = FractionFormField(label=OUTCOME_WORDS[Outcome.DRAW], help_text=OPPONENTS)
    loss = FractionFormField(label=OUTCOME_WORDS[Outcome.LOSS], help_text=OPPONENTS)
    forfeit_win = FractionFormField(label=OUTCOME_WORDS[Outcome.FORFEIT_WIN], help_text=OPPONENTS)
    forfeit_loss = FractionFormField(label=OUTCOME_WORDS[Outcome.FORFEIT_LOSS], help_text=OPPONENTS)
    double_forfeit = FractionFormField(
        label=OUTCOME_WORDS[Outcome.DOUBLE_FORFEIT], help_text=OPPONENTS
    )
    bye_fraction = FractionFormField(label=OUTCOME_WORDS[Outcome.BYE], help_text=OWN)
    excused = FractionFormField(label=OUTCOME_WORDS[Outcome.EXCUSED], help_text=OWN)
    team = FractionFormField(label=OUTCOME_WORDS[Outcome.TEAM], help_text=OWN)
    late = FractionFormField(label=OUTCOME_WORDS[Outcome.LATE], help_text=OWN)
    unexcused = FractionFormField(label=OUTCOME_WORDS[Outcome.UNEXCUSED], help_text=OWN)
    auto = FractionFormField(label=OUTCOME_WORDS[Outcome.AUTO], help_text=OWN)
    own_reasons = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        label=gettext_lazy("reasons of the club's own"),
        help_text=gettext_lazy(
            "One a line: a word and its share of the own value, as ill = 1/2. The arbiter can "
            "then record them as a reason of absence."
        ),
    )
    fixed_points = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        label=gettext_lazy("fixed points"),
        help_text=gettext_lazy(
            "One a line: bye or a reason and its points instead of a share, as bye = 10."
        ),
    )
    absence_limit = forms.IntegerField(
        min_value=0,
        label=gettext_lazy("most absences that score"),
        help_text=gettext_lazy("Each absence beyond it scores nothing; 0: no limit."),
    )
    absence_limit_reasons = forms.CharField(
        required=False,
        label=gettext_lazy("absences the limit counts"),
        help_text=gettext_lazy("Reasons, separated by commas; empty: every reason but team match."),
    )
    absence_decay = forms.BooleanField(
        required=False,
        label=gettext_lazy("each next absence halved"),
        help_text=gettext_lazy("The second counted absence scores half, the third a quarter, …"),
    )
    revaluation = forms.ChoiceField(
        choices=(
            ("dsc", gettext_lazy("once, and fully from a round on")),
            ("cascade", gettext_lazy("once, with the ranking before")),
            ("fixed_point", gettext_lazy("again and again until the order stays")),
            ("frozen", gettext_lazy("each round once, never again")),
        ),
        label=gettext_lazy("re-valuation"),
        help_text=gettext_lazy("Which values a ranking's points are counted with."),
    )
    full_revaluation_from_round = forms.IntegerField(
        required=False,
        min_value=1,
        label=gettext_lazy("fully re-valued from round"),
        help_text=gettext_lazy('With "once, and fully from a round on"; empty: never.'),
    )
    fixed_point_start = forms.ChoiceField(
        choices=(
            ("previous", gettext_lazy("the ranking before")),
            ("ranking0", gettext_lazy("ranking 0's order")),
        ),
        label=gettext_lazy("again and again, starting from"),
    )
    on_cycle = forms.ChoiceField(
        choices=(
            ("first_repeat", gettext_lazy("stop at the first order seen before")),
            ("average", gettext_lazy("average two orders that take turns")),
        ),
        label=gettext_lazy("when the order keeps changing"),
    )
    max_passes = forms.IntegerField(min_value=1, label=gettext_lazy("at most this many valuations"))
    rounding = forms.ChoiceField(
        choices=(
            ("exact", gettext_lazy("exact")),
            ("half_per_item", gettext_lazy("each amount to a half point")),
        ),
        label=gettext_lazy("rounding"),
    )
    ranking0_totals = forms.ChoiceField(
        choices=(("own_value", gettext_lazy("own value")), ("zero", gettext_lazy("zero"))),
        label=gettext_lazy("totals of ranking 0"),
    )
    late_join = forms.ChoiceField(
        choices=(
            ("insert", gettext_lazy("inserted at their start points (rule 5)")),
            ("handicap", gettext_lazy("in ranking 0 from the start")),
        ),
        label=gettext_lazy("a player who joins later"),
    )
    late_join_handicap = FractionFormField(
        label=gettext_lazy("points a round before joining"),
        help_text=gettext_lazy("For a player in ranking 0 from the start."),
    )
    tiebreak = forms.ChoiceField(
        choices=(
            ("previous", gettext_lazy("the order of the ranking before")),
            ("ranking0", gettext_lazy("the order of ranking 0")),
        ),
        label=gettext_lazy("equal totals keep"),
    )
    withdrawn_opponent_fraction = FractionFormField(
        required=False,
        label=gettext_lazy("a game against a withdrawn player"),
        help_text=gettext_lazy(
            "Share of the own value times the game's share; empty: as absent without cancelling."
        ),
    )
    rounds_per_period = forms.IntegerField(
        required=False,
        min_value=1,
        label=gettext_lazy("rounds per period"),
        help_text=gettext_lazy("No repeat within a period; empty: the whole season."),
    )
    repeat_gap = forms.IntegerField(
        required=False,
        min_value=1,
        label=gettext_lazy("again after rounds"),
        help_text=gettext_lazy(
            "Met in round j: again from round j plus this; empty: the periods decide."
        ),
    )
    colours = forms.ChoiceField(
        choices=(
            ("dsc", gettext_lazy("the balance, then the last game")),
            ("swiss", gettext_lazy("as the Dutch Swiss system")),
        ),
        label=gettext_lazy("colours"),
    )

    # The settings in groups of what they are about (`variants.FIELD_GROUPS`), each a
    # fieldset on the page below the preset they start from.
    GROUPS = tuple(
        (legend, variants.FIELD_GROUPS[key])
        for key, legend in (
            ("values", gettext_lazy("Values and totals")),
            ("games", gettext_lazy("Games")),
            ("absences", gettext_lazy("Bye and absences")),
            ("revaluation", gettext_lazy("Re-valuation")),
            ("late_join", gettext_lazy("Players who join later")),
            ("pairing", gettext_lazy("Pairing")),
        )
    )

    def fieldsets(self) -> list[tuple[str, list]]:
        """(legend, bound fields) of each group, in the form's order within it."""
        return [(legend, [self[name] for name in names]) for legend, names in self.GROUPS]

    def document(self) -> dict:
        """The season file's settings object of these values (after `is_valid`)."""
        return variants.from_flat(self.cleaned_data)


def summary(settings: Settings) -> list[tuple[str, str]]:
    """Every setting of a competition's Keizer as (what, value) in the form's words, for the
    public pages (standings, player, what-if): how the competition counts, for every member to
    read. Choices in their words, yes or no, amounts as the site writes them, "—" for none."""
    values = variants.flat(settings)
    listed = settings.absence_limit_reasons
    values |= {  # the tables in words: the reasons' own, the site's amounts
        "own_reasons": [
            f"{reason_label(reason)} {format_amount(settings.absence_share(reason))}"
            for reason in settings.reasons
            if reason not in DSC_REASONS
        ],
        "fixed_points": [
            f"{reason_label(key) if key != 'bye' else OUTCOME_WORDS[Outcome.BYE]} "
            f"{format_amount(points)}"
            for key, points in settings.fixed_points
        ],
        "absence_limit_reasons": [reason_label(reason) for reason in listed]
        if listed is not None
        else gettext("every reason but team match"),
    }
    rows = []
    for name, field in KeizerForm.base_fields.items():
        value = values[name]
        if isinstance(value, list):
            shown = "; ".join(value) or "—"
        elif isinstance(field, forms.ChoiceField):
            shown = dict(field.choices).get(value, value)
        elif isinstance(field, forms.BooleanField):
            shown = gettext("yes") if value else gettext("no")
        elif value is None or value == "":
            shown = "—"
        elif isinstance(value, Fraction):
            shown = format_amount(value)
        else:
            shown = str(value)
        rows.append((str(field.label), str(shown)))
    return rows
