from django.contrib import admin
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy as _

from club.models import Club


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    """The club's one row: changed, never added or deleted (the data migration made it)."""

    fieldsets = (
        (
            None,
            {
                "fields": (
                    *("name", "short_name", "place"),
                    *("sender_name", "sender_address", "arbiter_address"),
                )
            },
        ),
        (
            _("The club's week"),
            {
                "fields": (
                    "deadline_weekday",
                    "deadline_time",
                    "publication_time",
                    "play_time",
                    "results_final_time",
                )
            },
        ),
    )

    def changelist_view(self, request, extra_context=None):
        return redirect("arbiter:club")  # the arbiter's page, with the preview of a change

    def change_view(self, request, object_id, form_url="", extra_context=None):
        return redirect("arbiter:club")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
