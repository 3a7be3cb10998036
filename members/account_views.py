"""A member's way in and their account: the invitation's page (choose a password), and on the
profile the new password and the new e-mail address."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.utils import timezone
from django.utils.translation import gettext as _

from members import accounts


class InvitationView(auth_views.PasswordResetConfirmView):
    """The invitation's link: choose a password, and be logged in at once. Django's own page of
    a new password, with the invitation's tokens: the link works once, for 14 days, and not
    after a newer invitation."""

    token_generator = accounts.invitation_tokens
    template_name = "members/invitation.html"
    post_reset_login = True
    post_reset_login_backend = "members.backends.MemberLoginBackend"
    success_url = "/afmelden/"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["account"] = self.user
        return context

    def form_valid(self, form):
        response = super().form_valid(form)
        accounts.activate(form.user, timezone.now())
        messages.success(
            self.request,
            _(
                "Welcome! Your password is saved and you are logged in. Here you cancel for a "
                "club evening."
            ),
        )
        return response
