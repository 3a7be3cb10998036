"""Shared helpers for the engine tests (no database)."""

import json
from fractions import Fraction
from pathlib import Path

import pytest

from competition.keizer import season_file

DATA = Path(__file__).parent / "data"


def amount(text: str) -> Fraction:
    """'71½' → 143/2, as the seed writes amounts."""
    if text.endswith("½"):
        return Fraction(int(text[:-1] or 0)) + Fraction(1, 2)
    return Fraction(int(text))


@pytest.fixture
def worked_example_document() -> dict:
    return json.loads((DATA / "worked_example.json").read_text(encoding="utf-8"))


@pytest.fixture
def worked_example(worked_example_document):
    return season_file.from_document(worked_example_document)
