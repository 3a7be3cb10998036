from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from dsc_site.lockouts import PasswordResetConfirmView

admin.site.site_header = _("DSC competition management")
admin.site.site_title = _("DSC management")
admin.site.index_template = "admin/start_page.html"  # this week first (arbiter.week)

urlpatterns = [
    # The arbiter's application, before the admin: its start page is the admin's index.
    path("beheer/", include("arbiter.urls")),
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
