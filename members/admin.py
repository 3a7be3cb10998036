from django.contrib import admin

from members.models import Member


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    list_display = ("name", "knsb_number", "rating", "rating_is_estimate", "is_active")
    list_filter = ("is_active", "rating_is_estimate")
    search_fields = ("name", "knsb_number", "email")
