"""Frozen dataclass instances made in bulk.

A frozen dataclass's `__init__` writes each field through `object.__setattr__`, which costs more
than the rest of making a small object. Where the engine makes tens of thousands of them (the
games of a season file, the standings of its rankings) it fills the instance's `__dict__` in one
write instead: the same object in every respect (fields, equality, hash, repr, still frozen).
"""

from __future__ import annotations

_new = object.__new__
_set = object.__setattr__


def build(cls: type, fields: dict) -> object:
    """`cls(**fields)` for a frozen dataclass with no `__post_init__`; `fields` names every
    field."""
    instance = _new(cls)
    _set(instance, "__dict__", fields)
    return instance
