"""The admin's history pages in Dutch, for every model that keeps its history
(django-simple-history): `HistoryAdmin` is the model admin to build on, and the templates are
ours too (templates/simple_history/)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models
from django.http import Http404
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from simple_history.admin import SimpleHistoryAdmin
from simple_history.models import DeletedObject
from simple_history.template_utils import HistoricalRecordContextHelper

from base.admin_labels import LabelledDatesAdmin
from base.input_checks import LARGEST_KEY


class DutchHistoryContext(HistoricalRecordContextHelper):
    """The values of a history page's changes as a person reads them: labels instead of
    codes, local times, yes/no, and "—" for nothing (django-simple-history shows an empty
    foreign key as "Deleted speler (pk=None)")."""

    def prepare_delta_change_value(self, change, value):
        field = self.model._meta.get_field(change.field)
        if value is None or value == "" or (isinstance(value, DeletedObject) and value.pk is None):
            return "—"
        if isinstance(value, DeletedObject):
            return _("deleted %(thing)s (number %(pk)s)") % {
                "thing": value.model._meta.verbose_name,
                "pk": value.pk,
            }
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        if isinstance(value, datetime):
            return formats.date_format(timezone.localtime(value), "DATETIME_FORMAT")
        labels = getattr(self.model, "HISTORY_LABELS", {})  # words a model gives its codes
        if change.field in labels:
            return labels[change.field](value)
        if field.choices and not isinstance(field, models.ForeignKey):
            return dict(field.flatchoices).get(value, value)
        return super().prepare_delta_change_value(change, value)


class HistoryAdmin(LabelledDatesAdmin, SimpleHistoryAdmin):
    """SimpleHistoryAdmin with Dutch titles and change values. Reverting to an old version is
    off unless `revert_allowed`: games, absences and rounds are written through
    `competition.services` only, and the history's form would save them past it (and past the
    rankings). Its date-and-time inputs are named (base/admin_labels.py)."""

    revert_allowed = False

    def revert_disabled(self, request, obj=None):
        return not self.revert_allowed or super().revert_disabled(request, obj)

    def history_view(self, request, object_id, extra_context=None):
        self.known_key(object_id)
        return super().history_view(request, object_id, extra_context)

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        self.known_key(object_id)
        if request.method == "POST" and self.revert_disabled(request):
            raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context)

    def known_key(self, object_id: str) -> None:
        """A history page's address names a key of the model, or there is no such page (the
        history package would ask the database with whatever the address holds)."""
        try:
            key = self.model._meta.pk.to_python(unquote(object_id))
        except ValidationError:
            raise Http404 from None
        if isinstance(key, int) and not -LARGEST_KEY <= key <= LARGEST_KEY:
            raise Http404

    def get_historical_record_context_helper(self, request, historical_record):
        return DutchHistoryContext(self.model, historical_record)

    def history_view_title(self, request, obj):
        return _("History of %(object)s") % {"object": obj}

    def history_form_view_title(self, request, obj):
        return _("%(object)s as it was") % {"object": obj}
