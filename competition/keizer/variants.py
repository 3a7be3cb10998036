"""Other clubs' Keizer: the presets named after the programs they come from
(`shared/spec/keizer-variants.md`, docs/keizer.md "Variants").

A preset is a settings object of the season file, read by the same code as a file's own
settings (`season_file`): the keys a file gives beside a `profile` replace the preset's, and of
the keys that hold a table (shares, absence fractions, fixed points) each entry given replaces
that entry.
"""

from __future__ import annotations

from fractions import Fraction

from .season import DSC_REASONS

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


# -- the settings as one flat form (the arbiter's page): a value per field ---------------------

FORFEIT_FIELDS = ("forfeit_win", "forfeit_loss", "double_forfeit")
GAME_FIELDS = ("win", "draw", "loss")
TEXT_FIELDS = ("own_reasons", "fixed_points", "absence_limit_reasons")
# The settings that are one value each, in the flat form as in the file.
PLAIN_FIELDS = (
    "profile",
    "step",
    "own_value",
    "bye_fraction",
    "absence_limit",
    "absence_decay",
    "revaluation",
    "full_revaluation_from_round",
    "fixed_point_start",
    "on_cycle",
    "max_passes",
    "rounding",
    "ranking0_totals",
    "late_join",
    "late_join_handicap",
    "tiebreak",
    "withdrawn_opponent_fraction",
    "rounds_per_period",
    "repeat_gap",
    "colours",
)


# The flat form's fields by what they are about (the arbiter's page shows a group each).
FIELD_GROUPS = {
    "values": ("top_value", "step", "own_value", "ranking0_totals", "tiebreak"),
    "games": (*GAME_FIELDS, *FORFEIT_FIELDS, "withdrawn_opponent_fraction"),
    "absences": (
        *("bye_fraction", *DSC_REASONS, "own_reasons", "fixed_points"),
        *("absence_limit", "absence_limit_reasons", "absence_decay"),
    ),
    "revaluation": (
        *("revaluation", "full_revaluation_from_round", "fixed_point_start"),
        *("on_cycle", "max_passes", "rounding"),
    ),
    "late_join": ("late_join", "late_join_handicap"),
    "pairing": ("rounds_per_period", "repeat_gap", "colours"),
}


def flat(settings) -> dict:
    """The settings as one value per field: the tables spread out (a field per result and per
    DSC reason), a club's own reasons and the fixed points as lines `word = amount`."""
    values = {name: getattr(settings, name) for name in PLAIN_FIELDS}
    values["top_value"] = str(settings.top_value)
    values.update(zip(GAME_FIELDS, settings.game_shares, strict=True))
    values.update(zip(FORFEIT_FIELDS, settings.forfeit_shares, strict=True))
    values.update((reason, settings.absence_share(reason)) for reason in DSC_REASONS)
    own = [reason for reason in settings.reasons if reason not in DSC_REASONS]
    values["own_reasons"] = "\n".join(f"{r} = {settings.absence_share(r)}" for r in own)
    values["fixed_points"] = "\n".join(f"{key} = {points}" for key, points in settings.fixed_points)
    listed = settings.absence_limit_reasons
    values["absence_limit_reasons"] = ", ".join(listed) if listed is not None else ""
    return values


def from_flat(values: dict) -> dict:
    """The season file's settings object of a flat form's values (`flat`), for its reader to
    check: numbers stay numbers, fractions become text."""
    document = {
        name: str(values[name]) if isinstance(values[name], Fraction) else values[name]
        for name in PLAIN_FIELDS
    }
    top = str(values["top_value"]).strip()
    document["top_value"] = int(top) if top.isdigit() else top
    document["game_shares"] = {key: str(values[key]) for key in GAME_FIELDS}
    document["forfeit_shares"] = dict(
        zip(("win", "loss", "double"), (str(values[key]) for key in FORFEIT_FIELDS), strict=True)
    )
    absences = {reason: str(values[reason]) for reason in DSC_REASONS}
    document["absence_fractions"] = absences | dict(_lines(values["own_reasons"]))
    document["fixed_points"] = dict(_lines(values["fixed_points"]))
    listed = [word.strip() for word in values["absence_limit_reasons"].split(",")]
    document["absence_limit_reasons"] = [word for word in listed if word] or None
    return document


def _lines(text: str) -> list[tuple[str, str]]:
    """`word = amount` lines (a line without `=` gives an empty amount, which is refused)."""
    pairs = []
    for line in (text or "").splitlines():
        if line.strip():
            word, _is, amount = line.partition("=")
            pairs.append((word.strip(), amount.strip()))
    return pairs


def field_of(where: str) -> str | None:
    """The flat form's field of a place the season file's reader names
    ("settings.game_shares.win": "win"), or None for the form as a whole."""
    parts = where.removeprefix("settings.").replace("[", ".").replace("]", "").split(".")
    key, entry = parts[0], (parts[1].strip('"') if len(parts) > 1 else None)
    if key == "game_shares" and entry in GAME_FIELDS:
        return entry
    if key == "forfeit_shares" and entry is not None:
        return dict(zip(("win", "loss", "double"), FORFEIT_FIELDS, strict=True)).get(entry)
    if key in ("absence_fractions", "fixed_points") and entry is not None:
        return entry if entry in DSC_REASONS else TEXT_FIELDS[key == "fixed_points"]
    if key in (*PLAIN_FIELDS, *TEXT_FIELDS, "top_value"):
        return key
    return None
