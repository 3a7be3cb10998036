from django.contrib import admin

from absences.models import NoShowCancellation, Registration


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    """The log: read-only. Changes go through /afmelden/ (for anyone, by the arbiter)."""

    list_display = ("round", "member", "action", "outcome", "reported_at", "made_at", "made_by")
    list_filter = ("round__competition", "action", "outcome")
    list_select_related = ("round__competition__season", "member", "made_by")
    search_fields = ("member__name",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(NoShowCancellation)
class NoShowCancellationAdmin(admin.ModelAdmin):
    list_display = ("participant", "after_round", "made_at")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
