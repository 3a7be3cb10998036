"""The admin's bulk deletion ("Geselecteerde … verwijderen"), with the rows it may not delete
refused first.

Django's own action lists everything the selected rows would take with them before it asks or
refuses: for the rounds of a season under way, every game, absence and ranking, each named (a
game's name costs four queries), only to end with "no permission". The refusal is known from the
rows themselves (`ModelAdmin.has_delete_permission(request, obj)`: a published round, a
competition under way), so it is said at once on the list, and nothing is deleted. Rows that may
be deleted go on to Django's confirmation page as before.
"""

from django.contrib import admin, messages
from django.contrib.admin.actions import delete_selected as djangos_delete_selected
from django.utils.translation import ngettext

SHOWN = 3  # refused rows named in the message; the rest are counted


@admin.action(permissions=["delete"], description=djangos_delete_selected.short_description)
def delete_selected(modeladmin, request, queryset):
    refused = [row for row in queryset if not modeladmin.has_delete_permission(request, row)]
    if not refused:
        return djangos_delete_selected(modeladmin, request, queryset)
    names = ", ".join(str(row) for row in refused[:SHOWN])
    if len(refused) > SHOWN:
        names += ngettext(" and %(count)d more", " and %(count)d more", len(refused) - SHOWN) % {
            "count": len(refused) - SHOWN
        }
    modeladmin.message_user(
        request,
        ngettext(
            "Nothing was deleted: %(names)s may not be deleted (what is paired or published "
            "stays).",
            "Nothing was deleted: %(names)s may not be deleted (what is paired or published "
            "stays).",
            len(refused),
        )
        % {"names": names},
        messages.ERROR,
    )
    return None


def connect() -> None:
    """Replace Django's action on every admin list (`AdminSite.add_action` under its name)."""
    admin.site.add_action(delete_selected, "delete_selected")
