"""The season as the engine sees it: settings, players and played rounds.

Plain named tuples; `season_file` turns JSON into these and back. Nothing here computes
Keizer arithmetic.

The engine's records are named tuples (subclasses of `collections.namedtuple`, not dataclasses
nor `typing.NamedTuple`): the command line must start fast, and importing `dataclasses` (which
imports `inspect`, `ast`, `dis`, `tokenize`) and making the classes cost some 11 ms of a 40 ms
run. A field's type is in its class's docstring; copy a record changed with `record._replace()`.
"""

from __future__ import annotations

import enum
from collections import namedtuple
from fractions import Fraction

_new = tuple.__new__  # a named tuple made directly, without its keyword-handling `__new__`


class Result(enum.Enum):
    """A game's result as written in the season file (white's score first)."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    WHITE_WINS_BY_FORFEIT = "1-0F"
    BLACK_WINS_BY_FORFEIT = "0-1F"
    DOUBLE_FORFEIT = "0-0F"

    @property
    def is_forfeit(self) -> bool:
        """A forfeit is not a meeting: no colour, and the two may meet again in the period."""
        return self.value.endswith("F")

    @classmethod
    def by_default(cls, white_came: bool, black_came: bool) -> Result:
        """The forfeit result of a game one or both players did not come to: whoever came
        wins by default (vrijgesteld); when neither came, both lose."""
        if white_came and black_came:
            raise ValueError("both players came: the game has a real result")
        if white_came:
            return cls.WHITE_WINS_BY_FORFEIT
        if black_came:
            return cls.BLACK_WINS_BY_FORFEIT
        return cls.DOUBLE_FORFEIT


class Absence(enum.Enum):
    """Why a player who was not paired did not play."""

    EXCUSED = "excused"  # afgemeld: cancelled before the deadline
    TEAM = "team"  # KNSB/FSB team match on the club evening or the day after
    LATE = "late"  # cancelled after the deadline
    UNEXCUSED = "unexcused"  # did not show up and did not cancel
    AUTO = "auto"  # cancelled automatically after two no-shows in a row


def reason_text(reason: Absence | str) -> str:
    """The word of an absence reason: DSC's (`Absence`) or a club's own (a string)."""
    return reason.value if isinstance(reason, Absence) else reason


def absence_reason(word: str) -> Absence | str:
    """An absence reason from its word: DSC's as `Absence`, a club's own as the word itself
    (whether the competition knows it is for its settings to say: `Settings.reasons`)."""
    return _ABSENCES_BY_WORD.get(word, word)


_ABSENCES_BY_WORD = {absence.value: absence for absence in Absence}


class Settings(
    namedtuple(
        "Settings",
        "top_value step rounds_per_period full_revaluation_from_round"
        " bye_fraction excused_fraction team_fraction auto_absence_fraction"
        " profile own_value game_shares forfeit_shares absence_fractions fixed_points"
        " absence_limit absence_limit_reasons absence_decay revaluation fixed_point_start"
        " on_cycle max_passes rounding ranking0_totals late_join late_join_handicap tiebreak"
        " withdrawn_opponent_fraction repeat_gap colours",
        defaults=(
            50,
            1,
            7,
            10,
            Fraction(1),
            Fraction(1, 3),
            Fraction(2, 3),
            Fraction(1, 3),
            # The variants (shared/spec/keizer-variants.md); each default is DSC's rule.
            "dsc",
            True,
            (Fraction(1), Fraction(1, 2), Fraction(0)),
            (Fraction(1), Fraction(0), Fraction(0)),
            (("late", Fraction(0)), ("unexcused", Fraction(0))),
            (),
            0,
            None,
            False,
            "dsc",
            "previous",
            "first_repeat",
            100,
            "exact",
            "own_value",
            "insert",
            Fraction(0),
            "previous",
            None,
            None,
            "dsc",
        ),
    )
):
    """One competition's Keizer settings; the defaults are DSC's.

    The first eight are DSC's own (every competition of the site stores them in a column):
    top_value: int | str = 50, a number or a rule of the field's size N ("N",
        "N-1+(N-1)//2", "ratio:R"; `value_at`)
    step: int = 1
    rounds_per_period: int | None = 7, None: the whole season is one period
    full_revaluation_from_round: int | None = 10
    bye_fraction: Fraction = 1
    excused_fraction: Fraction = 1/3
    team_fraction: Fraction = 2/3
    auto_absence_fraction: Fraction = 1/3

    The variants of other clubs (keizer-variants.md gives each one's meaning):
    profile: str = "dsc", the preset the others were taken from (`variants.PRESETS`)
    own_value: bool = True, the player's own value counts in their total
    game_shares: (win, draw, loss) shares of the opponent's value = (1, 1/2, 0)
    forfeit_shares: (win, loss, double) shares of the opponent's value = (1, 0, 0)
    absence_fractions: ((reason, share of the own value), ...) for the reasons other than
        the three above (late, unexcused, and a club's own reasons), sorted by reason
    fixed_points: ((reason or "bye", points), ...) = (), points instead of a share
    absence_limit: int = 0 (none); absence_limit_reasons: tuple[str, ...] | None (None:
        every reason but team); absence_decay: bool = False
    revaluation: "dsc", "cascade", "fixed_point" or "frozen"; fixed_point_start: "previous"
        or "ranking0"; on_cycle: "first_repeat" or "average"; max_passes: int = 100
    rounding: "exact" or "half_per_item"; ranking0_totals: "own_value" or "zero"
    late_join: "insert" or "handicap"; late_join_handicap: Fraction = 0
    tiebreak: "previous" or "ranking0"; withdrawn_opponent_fraction: Fraction | None
    repeat_gap: int | None; colours: "dsc" or "swiss"
    """

    __slots__ = ()

    def period_of(self, round_number: int) -> int:
        """The 1-based period a 1-based round belongs to (1 for every round when the whole
        season is one period)."""
        if self.rounds_per_period is None:
            return 1
        return (round_number - 1) // self.rounds_per_period + 1

    def revalues_fully(self, after_round: int) -> bool:
        """Whether the ranking after this round is fully re-valued: valued with its own values,
        again and again until its order settles, instead of the previous ranking's."""
        if self.revaluation != "dsc":
            return self.revaluation == "fixed_point"
        return self.full_revaluation_from_round is not None and (
            after_round >= self.full_revaluation_from_round
        )

    def absence_share(self, reason: str) -> Fraction:
        """The share of the own value an absence for `reason` earns (before any limit)."""
        if reason == "excused":
            return self.excused_fraction
        if reason == "team":
            return self.team_fraction
        if reason == "auto":
            return self.auto_absence_fraction
        shares = dict(self.absence_fractions)
        if reason in shares:
            return shares[reason]
        if reason in DSC_REASONS:  # late and unexcused, unless the settings give them a share
            return Fraction(0)
        raise KeyError(reason)

    @property
    def reasons(self) -> tuple[str, ...]:
        """Every absence reason these settings know: DSC's five, then a club's own."""
        own = tuple(r for r, _ in self.absence_fractions if r not in DSC_REASONS)
        return DSC_REASONS + own

    def counts_towards_limit(self, reason: str) -> bool:
        if self.absence_limit_reasons is None:
            return reason != "team"
        return reason in self.absence_limit_reasons

    def fractions(self) -> list[Fraction]:
        """Every fraction of the settings: their denominators make the unit of exact sums."""
        found = [self.bye_fraction, self.excused_fraction, self.team_fraction]
        found += [self.auto_absence_fraction, self.late_join_handicap]
        found += [*self.game_shares, *self.forfeit_shares]
        found += [share for _, share in self.absence_fractions]
        found += [points for _, points in self.fixed_points]
        if self.withdrawn_opponent_fraction is not None:  # times a game's share
            games = (*self.game_shares, *self.forfeit_shares)
            found += [self.withdrawn_opponent_fraction * share for share in games]
        return found


# The absence reasons of DSC's rules, which every competition knows.
DSC_REASONS = ("excused", "team", "late", "unexcused", "auto")
# The settings every competition of the site keeps in a column of its own, in their order:
# everything that stores or shows them derives its list from these instead of naming them
# again. The variants' settings (`VARIANT_NAMES`) are kept together, as the season file writes
# them.
SETTING_NAMES: tuple[str, ...] = Settings._fields[:8]
VARIANT_NAMES: tuple[str, ...] = Settings._fields[8:]
# Of those, the settings that are a share of the player's own value (fractions).
SHARE_SETTINGS: tuple[str, ...] = tuple(
    name for name in SETTING_NAMES if isinstance(getattr(Settings(), name), Fraction)
)


class Player(
    namedtuple(
        "Player",
        "id name joined_round start_points withdrawn_after_round",
        defaults=(1, Fraction(0), None),
    )
):
    """id: str; name: str; joined_round: int = 1; start_points: Fraction = 0;
    withdrawn_after_round: int | None = None, the last round they play in (0: withdrawn
    before ranking 0)."""

    __slots__ = ()

    def has_joined(self, round_number: int) -> bool:
        return self.joined_round <= round_number

    def plays_in(self, round_number: int) -> bool:
        """Whether the player may take part in the round: joined, and not withdrawn before it.
        A player withdrawn from the start (0, KeizerForClubs' retired player) keeps their games:
        they count for their opponents alone."""
        after = self.withdrawn_after_round
        return self.joined_round <= round_number and (
            after is None or after == 0 or round_number <= after
        )

    def counts_in_ranking(self, k: int) -> bool:
        """Whether a withdrawn player still has a place in ranking k."""
        return self.withdrawn_after_round is None or k <= self.withdrawn_after_round


class Game(namedtuple("Game", "white black result")):
    """white: str; black: str (player ids); result: Result."""

    __slots__ = ()


class Round(namedtuple("Round", "games absent bye", defaults=((), None, None))):
    """games: tuple[Game, ...] = (); absent: dict[str, Absence] = {} (a fresh dict for each
    round); bye: str | None = None."""

    __slots__ = ()

    def __new__(
        cls, games: tuple[Game, ...] = (), absent: dict[str, Absence] | None = None, bye=None
    ) -> Round:
        return _new(cls, (games, {} if absent is None else absent, bye))


class PairRequest(namedtuple("PairRequest", "absent", defaults=(None,))):
    """Who is absent from the round to pair next (everyone else who has joined is present).

    absent: dict[str, Absence] = {} (a fresh dict for each request).
    """

    __slots__ = ()

    def __new__(cls, absent: dict[str, Absence] | None = None) -> PairRequest:
        return _new(cls, ({} if absent is None else absent,))


class Season(namedtuple("Season", "settings players rounds pair", defaults=((), None))):
    """settings: Settings; players: tuple[Player, ...]; rounds: tuple[Round, ...] = ();
    pair: PairRequest | None = None."""

    __slots__ = ()

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1
