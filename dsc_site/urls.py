from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path

from club import views as club_views
from dsc_site.lockouts import PasswordResetConfirmView
from members.forms import MemberLoginForm, MemberPasswordResetForm

admin.site.index_template = "admin/start_page.html"  # this week first (arbiter.week)

urlpatterns = [
    # Browsers ask for /favicon.ico by themselves: the site's icon is a static file.
    path("favicon.ico", lambda request: redirect(static("favicon.svg"), permanent=True)),
    # The arbiter's application, before the admin: its start page is the admin's index.
    path("beheer/", include("arbiter.urls")),
    path("beheer/", admin.site.urls),
    # Django's own, except that the address is the member's (members.accounts) and a new
    # password by e-mail also lifts the account's lockouts.
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=MemberLoginForm),
        name="login",
    ),
    path(
        "accounts/password_reset/",
        auth_views.PasswordResetView.as_view(form_class=MemberPasswordResetForm),
        name="password_reset",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("logo/", club_views.logo, name="club-logo"),
    path("", include("competition.urls")),
    path("", include("members.urls")),
    path("", include("absences.urls")),
    path("", include("clubweek.urls")),
    path("", include("training.urls")),
]

handler500 = "dsc_site.errors.server_error"
