"""A select written fast: the player selects of the arbiter's round pages, the member selects
of the admin's rows."""

from __future__ import annotations

import html
from functools import cached_property

from django import forms
from django.utils.choices import BaseChoiceIterator
from django.utils.safestring import SafeData, mark_safe


class SharedChoices(BaseChoiceIterator):
    """Plain (value, label) choices made once and given to many fields of a page: Django
    takes them as they are instead of copying every choice for each field (`normalize_choices`),
    and `FastSelect` escapes their values and labels once for every select."""

    def __init__(self, choices):
        self.choices = list(choices)

    def __iter__(self):
        return iter(self.choices)

    def __len__(self) -> int:
        return len(self.choices)

    @cached_property
    def escaped(self) -> list[tuple[str, str, str]]:
        """(value as text, value escaped, label escaped) of each choice."""
        return [
            (str(option), _text(option), _text(label))
            for option, label in (("" if o is None else o, label) for o, label in self.choices)
        ]


class FastSelect(forms.Select):
    """Django's select of one value with its options written here instead of by a template
    each: the same HTML, but a round's page has some 45 selects of 40 players, and 1,800
    option templates took half of its time."""

    def render(self, name, value, attrs=None, renderer=None):
        if isinstance(self.choices, SharedChoices):
            escaped = self.choices.escaped
        else:
            choices = list(self.choices)
            if any(isinstance(label, (list, tuple)) for _value, label in choices):
                return super().render(name, value, attrs, renderer)  # groups: Django's own
            escaped = SharedChoices(choices).escaped
        wanted = set(self.format_value(value))
        attributes = _attributes(self.build_attrs(self.attrs, attrs))
        parts = [f'<select name="{_text(name)}"{attributes}>']
        for text, option, label in escaped:
            selected = bool(wanted) and text in wanted
            if selected:
                wanted = set()  # only the first match, as `ChoiceWidget.optgroups`
            parts.append(
                f'\n  <option value="{option}"{" selected" if selected else ""}>{label}</option>\n'
            )
        parts.append("\n</select>")
        return mark_safe("".join(parts))


class FastInput:
    """An input written here instead of by django/forms/widgets/input.html: the same HTML for
    the round page's rows (their keys and their "delete" boxes, some 40 a page)."""

    def render(self, name, value, attrs=None, renderer=None):
        widget = self.get_context(name, value, attrs)["widget"]
        written = "" if widget["value"] is None else f' value="{_text(widget["value"])}"'
        return mark_safe(
            f'<input type="{_text(widget["type"])}" name="{_text(widget["name"])}"{written}'
            f"{_attributes(widget['attrs'])}>"
        )


class FastHiddenInput(FastInput, forms.HiddenInput):
    pass


class FastCheckboxInput(FastInput, forms.CheckboxInput):
    pass


def _attributes(attrs: dict) -> str:
    """A widget's attributes as django/forms/widgets/attrs.html writes them."""
    return "".join(
        f" {_text(name)}" + ("" if value is True else f'="{_text(value)}"')
        for name, value in attrs.items()
        if value is not False
    )


def _text(value) -> str:
    """A value as a template writes it: the text, escaped unless it is safe already (Django's
    `escape` is `html.escape`, behind a wrapper that costs more than the escaping)."""
    return str(value) if isinstance(value, SafeData) else html.escape(str(value))
