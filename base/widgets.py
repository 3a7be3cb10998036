"""A select written fast: the player selects of the arbiter's round pages, the member selects
of the admin's rows."""

from __future__ import annotations

import html

from django import forms
from django.utils.safestring import SafeData, mark_safe


class FastSelect(forms.Select):
    """Django's select of one value with its options written here instead of by a template
    each: the same HTML, but a round's page has some 45 selects of 40 players, and 1,800
    option templates took half of its time."""

    def render(self, name, value, attrs=None, renderer=None):
        choices = list(self.choices)
        if any(isinstance(label, (list, tuple)) for _value, label in choices):
            return super().render(name, value, attrs, renderer)  # groups: Django's own
        wanted = set(self.format_value(value))
        attributes = _attributes(self.build_attrs(self.attrs, attrs))
        parts = [f'<select name="{_text(name)}"{attributes}>']
        for option, label in choices:
            option = "" if option is None else option
            selected = bool(wanted) and str(option) in wanted
            if selected:
                wanted = set()  # only the first match, as `ChoiceWidget.optgroups`
            parts.append(
                f'\n  <option value="{_text(option)}"{" selected" if selected else ""}>'
                f"{_text(label)}</option>\n"
            )
        parts.append("\n</select>")
        return mark_safe("".join(parts))


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
