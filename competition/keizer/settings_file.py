"""The settings object of the season file: reading every key of DSC's rules and of the
variants (`shared/spec/keizer-variants.md`) with its preset, and writing it back. The one home
of each setting's check and meaning in the file; `season_file` reads the rest of the file."""

from __future__ import annotations

import re
from fractions import Fraction

from . import variants
from .season import DSC_REASONS, SETTING_NAMES, VARIANT_NAMES, Settings
from .season_file import (
    SeasonFileError,
    _expect,
    _key,
    _positive_int,
    _refuse_unknown_keys,
    _shown,
    _whole,
    fraction_text,
    parse_fraction,
)

# `typing` is imported for the type checker only: the command line does without its import.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_OPTIONAL_ROUND = "full_revaluation_from_round"  # a round number, or null for never


def settings_from_document(data: Any) -> Settings:
    """The settings object: a preset (`profile`) and the keys that replace the preset's."""
    _expect(data, dict, "settings", "must be an object")
    known = set(SETTING_NAMES) | set(VARIANT_NAMES)
    _refuse_unknown_keys(data, known, "settings")
    profile = data.get("profile", "dsc")
    if profile not in variants.PRESETS:
        names = ", ".join(variants.PRESETS)
        raise SeasonFileError("settings.profile", f"unknown profile {_shown(profile)} ({names})")
    data = variants.with_preset(_older_absence_keys(data), variants.PRESETS[profile])
    values: dict[str, Any] = {"profile": profile}
    if "top_value" in data:
        values["top_value"] = _top_value(data["top_value"])
    if "step" in data:
        values["step"] = _positive_int(data["step"], "settings.step")
    for name in ("rounds_per_period", _OPTIONAL_ROUND, "repeat_gap"):
        if name in data:
            values[name] = _optional_positive_int(data[name], f"settings.{name}")
    if "bye_fraction" in data:
        values["bye_fraction"] = _share(data["bye_fraction"], "settings.bye_fraction")
    for name, default in (("game_shares", GAME_SHARE_KEYS), ("forfeit_shares", FORFEIT_KEYS)):
        if name in data:
            values[name] = _shares(data[name], f"settings.{name}", default)
    absences = dict(Settings().absence_fractions)
    absences.update(excused=Settings().excused_fraction, team=Settings().team_fraction)
    absences.update(auto=Settings().auto_absence_fraction)
    if "absence_fractions" in data:
        where = "settings.absence_fractions"
        _expect(data["absence_fractions"], dict, where, "must be an object of reason to share")
        for reason, share in data["absence_fractions"].items():
            absences[_reason_name(reason, where)] = _share(share, _key(where, reason))
    values["excused_fraction"] = absences.pop("excused")
    values["team_fraction"] = absences.pop("team")
    values["auto_absence_fraction"] = absences.pop("auto")
    values["absence_fractions"] = tuple(sorted(absences.items()))
    reasons = {*DSC_REASONS, *absences}
    if "fixed_points" in data:
        where = "settings.fixed_points"
        _expect(
            data["fixed_points"], dict, where, 'must be an object of reason (or "bye") to points'
        )
        fixed = {}
        for reason, amount in data["fixed_points"].items():
            if reason != "bye" and reason not in reasons:
                raise SeasonFileError(_key(where, reason), f"unknown reason {_shown(reason)}")
            fixed[reason] = _share(amount, _key(where, reason))
        values["fixed_points"] = tuple(sorted(fixed.items()))
    if "absence_limit" in data:
        values["absence_limit"] = _whole(data["absence_limit"], "settings.absence_limit")
    if data.get("absence_limit_reasons") is not None:
        where = "settings.absence_limit_reasons"
        listed = data["absence_limit_reasons"]
        _expect(listed, list, where, "must be a list of reasons")
        for index, reason in enumerate(listed):
            if reason not in reasons:
                raise SeasonFileError(f"{where}[{index}]", f"unknown reason {_shown(reason)}")
        values["absence_limit_reasons"] = tuple(sorted(set(listed)))
    for name in ("own_value", "absence_decay"):
        if name in data:
            _expect(data[name], bool, f"settings.{name}", "must be true or false")
            values[name] = data[name]
    for name, choices in variants.CHOICES.items():
        if name in data:
            if data[name] not in choices:
                one_of = ", ".join(choices)
                raise SeasonFileError(
                    f"settings.{name}", f"unknown value {_shown(data[name])} (one of {one_of})"
                )
            values[name] = data[name]
    if "max_passes" in data:
        values["max_passes"] = _positive_int(data["max_passes"], "settings.max_passes")
    if "late_join_handicap" in data:
        values["late_join_handicap"] = _share(
            data["late_join_handicap"], "settings.late_join_handicap"
        )
    if data.get("withdrawn_opponent_fraction") is not None:
        values["withdrawn_opponent_fraction"] = _share(
            data["withdrawn_opponent_fraction"], "settings.withdrawn_opponent_fraction"
        )
    return Settings(**values)


GAME_SHARE_KEYS = ("win", "draw", "loss")
FORFEIT_KEYS = ("win", "loss", "double")
_REASON = re.compile(r"[a-z][a-z_]{0,29}")


def _older_absence_keys(data: dict) -> dict:
    """The settings with `excused_fraction`, `team_fraction` and `auto_absence_fraction` as
    entries of `absence_fractions` (refused when the file gives one entry twice, differently)."""
    older = [key for key in variants.OLDER_ABSENCE_KEYS if key in data]
    if not older:
        return data
    data = dict(data)
    table = data.get("absence_fractions", {})
    _expect(table, dict, "settings.absence_fractions", "must be an object of reason to share")
    table = dict(table)
    for key in older:
        reason = variants.OLDER_ABSENCE_KEYS[key]
        value = data.pop(key)
        share = parse_fraction(value, f"settings.{key}")
        if reason in table and parse_fraction(table[reason], "settings") != share:
            raise SeasonFileError(
                f"settings.{key}",
                f"differs from settings.absence_fractions.{reason}: give the share once",
            )
        table.setdefault(reason, value)
    data["absence_fractions"] = table
    return data


def _top_value(value: Any) -> int | str:
    where = "settings.top_value"
    if isinstance(value, str):
        if value in variants.TOP_VALUE_RULES:
            return value
        if value.startswith(variants.RATIO_PREFIX):
            ratio = parse_fraction(value.removeprefix(variants.RATIO_PREFIX), where)
            if ratio <= 1:
                raise SeasonFileError(where, "the ratio of first to last must be above 1")
            return f"{variants.RATIO_PREFIX}{ratio}"
        rules = ", ".join(f'"{rule}"' for rule in variants.TOP_VALUE_RULES)
        raise SeasonFileError(
            where, f'unknown rule {_shown(value)} (a number, {rules} or "ratio:R")'
        )
    return _positive_int(value, where)


def _optional_positive_int(value: Any, where: str) -> int | None:
    return None if value is None else _positive_int(value, where)


def _share(value: Any, where: str) -> Fraction:
    fraction = parse_fraction(value, where)
    if fraction < 0:
        raise SeasonFileError(where, "must not be negative")
    return fraction


def _shares(data: Any, where: str, keys: tuple[str, ...]) -> tuple[Fraction, ...]:
    """A table of shares by result: the keys given replace DSC's."""
    _expect(data, dict, where, f"must be an object with {', '.join(keys)}")
    _refuse_unknown_keys(data, set(keys), where)
    default = dict(zip(keys, getattr(Settings(), where.removeprefix("settings.")), strict=True))
    return tuple(
        _share(data[key], f"{where}.{key}") if key in data else default[key] for key in keys
    )


def _reason_name(reason: str, where: str) -> str:
    if not _REASON.fullmatch(reason):
        raise SeasonFileError(
            _key(where, reason),
            f"a reason is a lower-case word (letters and _), not {_shown(reason)}",
        )
    return reason


def settings_document(settings: Settings) -> dict[str, Any]:
    """The settings object: DSC's eight always, then the variants' that differ from DSC's
    (a DSC file is written as it was before there were variants)."""
    document = {
        name: fraction_text(value) if isinstance(value, Fraction) else value
        for name, value in zip(SETTING_NAMES, settings, strict=False)
    }
    dsc = Settings()
    for name in VARIANT_NAMES:
        value = getattr(settings, name)
        if value == getattr(dsc, name):
            continue
        if name in ("game_shares", "forfeit_shares"):
            keys = GAME_SHARE_KEYS if name == "game_shares" else FORFEIT_KEYS
            value = {key: fraction_text(share) for key, share in zip(keys, value, strict=True)}
        elif name in ("absence_fractions", "fixed_points"):
            value = {reason: fraction_text(share) for reason, share in value}
        elif name == "absence_limit_reasons":
            value = list(value)
        elif isinstance(value, Fraction):
            value = fraction_text(value)
        document[name] = value
    return document


def in_columns(settings: Settings) -> tuple[dict[str, Any], dict[str, Any]]:
    """The settings as a store of DSC's eight settings, one whole number or fraction each, can
    keep them: (those eight, with DSC's value where the store cannot hold the setting's: a top
    value that follows the field, a season that is one period), and the rest as the settings
    object writes it (the variants' that differ from DSC's, and those the eight could not
    hold). `settings_from_document({**settings_document(eight), **rest})` reads them back."""
    dsc = Settings()
    columns, rest = {}, {}
    for name in SETTING_NAMES:
        value = getattr(settings, name)
        if (name == "top_value" and isinstance(value, str)) or (
            name == "rounds_per_period" and value is None
        ):
            columns[name], rest[name] = getattr(dsc, name), value
        else:
            columns[name] = value
    document = settings_document(settings)
    rest.update((name, value) for name, value in document.items() if name in VARIANT_NAMES)
    return columns, rest
