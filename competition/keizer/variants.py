"""Other clubs' Keizer: the presets named after the programs they come from
(`shared/spec/keizer-variants.md`, docs/keizer.md "Variants").

A preset is a settings object of the season file, read by the same code as a file's own
settings (`season_file`): the keys a file gives beside a `profile` replace the preset's, and of
the keys that hold a table (shares, absence fractions, fixed points) each entry given replaces
that entry.
"""

from __future__ import annotations

PRESETS: dict[str, dict] = {
    "dsc": {},
    "keizerforclubs": {
        "top_value": "ratio:3",
        "bye_fraction": "1/2",
        "absence_fractions": {
            "excused": "7/20",
            "unexcused": "1/20",
            "late": "1/20",
            "team": "7/10",
        },
        "revaluation": "cascade",
        "tiebreak": "ranking0",
        "withdrawn_opponent_fraction": "3/4",
        "repeat_gap": 5,  # its GameRepeat 4: four rounds between, so again from j + 5
    },
    "sharly-chess": {
        "top_value": "N-1+(N-1)//2",
        "bye_fraction": "1/3",
        "absence_fractions": {
            "excused": "1/3",
            "unexcused": 0,
            "half_bye": "1/3",
            "full_bye": "1/3",
            "rest": "1/3",
            "zero_bye": 0,
        },
        "revaluation": "cascade",
        "late_join": "handicap",
        "rounds_per_period": None,
        "tiebreak": "ranking0",
    },
    "chesspairing": {
        "top_value": "N",
        "bye_fraction": "1/2",
        "absence_fractions": {
            "excused": "7/20",
            "unexcused": "7/20",
            "team": "7/10",
            "half_bye": "1/2",
            "zero_bye": 0,
        },
        "absence_limit": 5,
        "absence_limit_reasons": ["excused", "unexcused"],
        "revaluation": "fixed_point",
        "fixed_point_start": "ranking0",
        "on_cycle": "average",
        "max_passes": 20,
        "late_join": "handicap",
        "late_join_handicap": 0,
        "rounding": "half_per_item",
        "ranking0_totals": "zero",
        "tiebreak": "ranking0",
        "withdrawn_opponent_fraction": 0,
        "repeat_gap": 3,
        "colours": "swiss",
    },
}

# The keys that hold a table: a file's entries replace the preset's one by one.
TABLES = ("game_shares", "forfeit_shares", "absence_fractions", "fixed_points")
# The older keys of three absence fractions, each the same as an entry of absence_fractions.
OLDER_ABSENCE_KEYS = {
    "excused_fraction": "excused",
    "team_fraction": "team",
    "auto_absence_fraction": "auto",
}
# The values of the settings that are a choice of words, the first being DSC's.
CHOICES = {
    "revaluation": ("dsc", "cascade", "fixed_point", "frozen"),
    "fixed_point_start": ("previous", "ranking0"),
    "on_cycle": ("first_repeat", "average"),
    "rounding": ("exact", "half_per_item"),
    "ranking0_totals": ("own_value", "zero"),
    "late_join": ("insert", "handicap"),
    "tiebreak": ("previous", "ranking0"),
    "colours": ("dsc", "swiss"),
}
# The rules of the field's size N a top value may follow besides a number.
TOP_VALUE_RULES = ("N", "N-1+(N-1)//2")
RATIO_PREFIX = "ratio:"


def with_preset(settings: dict, preset: dict) -> dict:
    """The settings object `settings` with the preset's keys it does not give, and of each
    table, the preset's entries it does not give."""
    merged = {**preset, **settings}
    for key in TABLES:
        if key in preset and isinstance(settings.get(key), dict):
            merged[key] = {**preset[key], **settings[key]}
    return merged
