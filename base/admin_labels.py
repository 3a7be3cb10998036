"""Names for the admin's inputs that a screen reader would otherwise announce as nothing but
"edit text" (WCAG 1.3.1, 4.1.2): the two halves of a date and time, and the cells of a tabular
inline, whose only label is their column's heading."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.widgets import AdminSplitDateTime
from django.db import models
from django.utils.text import capfirst, format_lazy
from django.utils.translation import gettext_lazy, gettext_noop

from base.widgets import FastSelect

# Django's own messages after a save in the admin, worded in our catalogue without an article:
# Django's Dutch puts "De" before every model's name ("De lid … is met succes toegevoegd"),
# wrong for het lid, het seizoen, het team, het artikel (issue 37). Django looks them up itself.
ADMIN_MESSAGES = (
    gettext_noop("The {name} “{obj}” was added successfully."),
    gettext_noop("You may edit it again below."),
    gettext_noop("The {name} “{obj}” was added successfully. You may add another {name} below."),
    gettext_noop("The {name} “{obj}” was changed successfully."),
    gettext_noop("The {name} “{obj}” was changed successfully. You may edit it again below."),
    gettext_noop("The {name} “{obj}” was changed successfully. You may add another {name} below."),
    gettext_noop("The %(name)s “%(obj)s” was deleted successfully."),
)


class LabelledSplitDateTime(AdminSplitDateTime):
    """The admin's date and time inputs, each named after its field ("Publiceren om: datum"):
    Django labels neither, since the field's label cannot point at two inputs."""

    def __init__(self, label, attrs=None):
        super().__init__(attrs)
        date, time = self.widgets
        date.attrs["aria-label"] = format_lazy("{}: {}", capfirst(label), gettext_lazy("date"))
        time.attrs["aria-label"] = format_lazy("{}: {}", capfirst(label), gettext_lazy("time"))


class LabelledDatesAdmin(admin.ModelAdmin):
    """A model admin whose date-and-time fields have named inputs (the change pages, and the
    history's pages of a version, which render the same form)."""

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if isinstance(db_field, models.DateTimeField) and db_field.editable:
            kwargs.setdefault("widget", LabelledSplitDateTime(db_field.verbose_name))
        return super().formfield_for_dbfield(db_field, request, **kwargs)


class LabelledTabularInline(admin.TabularInline):
    """A tabular inline whose inputs carry their column's name: a row of inputs under headings
    reads, to a screen reader, as inputs without names. Its foreign keys are plain selects
    (type a name's first letters to reach it), not select2's search boxes, which take no name
    from the select they replace."""

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        kwargs.setdefault("widget", FastSelect)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_formset(self, request, obj=None, **kwargs):
        rows = super().get_formset(request, obj, **kwargs)

        class LabelledRows(rows):
            def add_fields(self, form, index):
                super().add_fields(form, index)  # the formset's own: "delete", the order
                for field in form.fields.values():
                    # A foreign key's select sits inside the admin's wrapper (its + and
                    # pencil), whose own attributes are not the copy this form renders.
                    widget = getattr(field.widget, "widget", field.widget)
                    if not widget.is_hidden:  # a row's key, its parent's: nothing to read
                        widget.attrs.setdefault("aria-label", field.label)

        return LabelledRows
