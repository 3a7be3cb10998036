from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from competition.admin import start_page
from dsc_site.lockouts import PasswordResetConfirmView

admin.site.site_header = _("DSC competition management")
admin.site.site_title = _("DSC management")

urlpatterns = [
    # The admin's index is the arbiter's start page: this week first, then the usual list.
    path("beheer/", admin.site.admin_view(start_page)),
    path("beheer/", admin.site.urls),
    # Django's own, except that a new password by e-mail also lifts the account's lockouts.
    path(
        "accounts/reset/<uidb64>/<token>/",
        PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("competition.urls")),
    path("", include("members.urls")),
    path("", include("absences.urls")),
    path("", include("clubweek.urls")),
    path("", include("training.urls")),
]
