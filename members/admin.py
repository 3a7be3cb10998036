from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from members.models import Member


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    list_display = ("name", "knsb_number", "rating_shown", "is_active")
    list_filter = ("is_active",)
    search_fields = ("name", "knsb_number", "email")

    def get_queryset(self, request):
        return super().get_queryset(request).with_ratings()

    @admin.display(description=_("rating"))
    def rating_shown(self, member: Member) -> str:
        return str(member.rating) if member.rating else "—"
