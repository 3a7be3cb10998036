"""A model field for exact fractions, stored as text in lowest terms ("143/2")."""

from __future__ import annotations

import contextlib
from fractions import Fraction

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from competition.keizer.season_file import SeasonFileError, parse_fraction


def to_fraction(value) -> Fraction:
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    try:
        return parse_fraction(str(value).strip(), "")
    except SeasonFileError:
        raise ValidationError(
            _("Enter a whole number or a fraction such as 2/3."), code="invalid"
        ) from None


class FractionFormField(forms.CharField):
    def to_python(self, value):
        value = super().to_python(value)
        return None if value in self.empty_values else to_fraction(value)

    def prepare_value(self, value):
        return str(value) if isinstance(value, Fraction) else value


class _FractionAttribute:
    """Keeps the model attribute a Fraction whatever was assigned ("1/3", 2, Fraction)."""

    def __init__(self, name: str):
        self.name = name

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return instance.__dict__.get(self.name)

    def __set__(self, instance, value):
        if value is not None and value != "":
            with contextlib.suppress(ValidationError):  # keep bad text; full_clean() reports it
                value = to_fraction(value)
        instance.__dict__[self.name] = value


class FractionField(models.CharField):
    description = "An exact fraction"

    def contribute_to_class(self, cls, name, private_only=False):
        super().contribute_to_class(cls, name, private_only)
        setattr(cls, self.attname, _FractionAttribute(self.attname))

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("max_length", 32)
        super().__init__(*args, **kwargs)
        # CharField's length check would measure the Fraction; the text is at most 25 chars
        # (the engine's bounds: 10 digits over 3).
        self.validators[:] = [v for v in self.validators if not isinstance(v, MaxLengthValidator)]

    def from_db_value(self, value, expression, connection):
        return None if value is None else to_fraction(value)

    def to_python(self, value):
        return None if value is None or value == "" else to_fraction(value)

    def get_prep_value(self, value):
        return None if value is None else str(to_fraction(value))

    def value_to_string(self, obj):
        return self.get_prep_value(self.value_from_object(obj))

    def formfield(self, **kwargs):
        # No max_length on the form field: its validator would measure the Fraction it made.
        return super().formfield(**{"form_class": FractionFormField, **kwargs, "max_length": None})


def not_negative(value: Fraction) -> None:
    if value is not None and value < 0:
        raise ValidationError(_("Must not be negative."), code="negative")
