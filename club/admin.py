from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from club.models import Club


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    """The club's one row: changed, never added or deleted (the data migration made it)."""

    fieldsets = (
        (
            None,
            {"fields": ("name", "short_name", "sender_name", "sender_address", "arbiter_address")},
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

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
