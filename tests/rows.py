"""Counting every table's rows: "nothing changed" in a test means these counts did not."""

from __future__ import annotations

from django.apps import apps


def row_counts() -> dict[str, int]:
    """The number of rows of every model of the site, by label."""
    return {model._meta.label: model._default_manager.count() for model in apps.get_models()}
