from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from competition.admin import start_page

admin.site.site_header = _("DSC competition management")
admin.site.site_title = _("DSC management")

urlpatterns = [
    # The admin's index is the arbiter's start page: this week first, then the usual list.
    path("beheer/", admin.site.admin_view(start_page)),
    path("beheer/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("competition.urls")),
    path("", include("members.urls")),
    path("", include("absences.urls")),
]
