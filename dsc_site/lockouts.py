"""Login throttling with django-axes: the policy is in settings (AXES_*); this module holds what
the site adds to it.

- `account_name`: the account a failure counts against, however its name or address was typed.
- the address a lockout is counted against is `base.clients.client_ip` (X-Forwarded-For only
  as far as TRUSTED_PROXIES says proxies of our own wrote it), as for the fair-use limits.
- `locked_out_response`: the Dutch page a locked-out person sees, on both login pages.
- `PasswordResetConfirmView`: choosing a new password by e-mail (`members.accounts.reset_tokens`:
  3 days, dead once the member's address changes) lifts the account's lockouts.
- `LockoutAdmin`: the arbiter sees the lockouts in /beheer/ and lifts one.
"""

from __future__ import annotations

from axes.models import AccessAttempt
from axes.utils import reset
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth import views as auth_views
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop, ngettext

from members import mail
from members.accounts import account_for, activate, reset_tokens

# axes' own names for its model, as the admin shows them; translated in our catalogue.
AXES_NAMES = (gettext_noop("access attempt"), gettext_noop("access attempts"))


def account_name(request, credentials) -> str | None:
    """The username of the account meant (`members.accounts.account_for`), so that `JAN`,
    `jan` and Jan's address share one count; else what was typed, in lower case and cut to
    what the lockout table holds (255 characters)."""
    typed = (credentials or {}).get("username")
    if typed is None:
        typed = getattr(request, "POST", {}).get("username")
    if typed is None:
        return None
    account = account_for(typed)
    return account.get_username() if account else typed.strip().lower()[:255]


def locked_out_response(request, response, credentials):
    """The page after too many failures, for the site's and the admin's login alike."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    context = {"failure_limit": settings.AXES_FAILURE_LIMIT, "minutes": minutes}
    return render(
        request,
        "registration/locked_out.html",
        context,
        status=settings.AXES_HTTP_RESPONSE_CODE,
    )


def lift(username: str) -> int:
    """Lift every lockout of an account; the number of records removed."""
    return reset(username=username)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's own view with the site's tokens; a password chosen through the e-mailed link
    lifts the lockouts, makes an invited member's account active and logs the member in at
    once, as the invitation does (issue 37: the link in their own mailbox proved who they are;
    typing the new password again on the login page proved nothing more)."""

    token_generator = reset_tokens
    post_reset_login = True
    post_reset_login_backend = "members.backends.MemberLoginBackend"
    success_url = "/"

    def get_context_data(self, **kwargs):
        return super().get_context_data(**kwargs, days=mail.days(mail.reset_lifetime()))

    def form_valid(self, form):
        response = super().form_valid(form)
        activate(form.user, timezone.now())
        lift(form.user.get_username())
        messages.success(self.request, _("Your new password is saved and you are logged in."))
        return response


@admin.register(AccessAttempt)
class LockoutAdmin(admin.ModelAdmin):
    """Failed logins per account and address; the arbiter lifts a lockout with an action."""

    list_display = ["account", "address", "failures", "last_attempt", "state"]
    list_display_links = None
    search_fields = ["username", "ip_address"]
    actions = ["lift_lockouts"]

    @admin.display(description=_("Account"), ordering="username")
    def account(self, attempt):
        return attempt.username

    @admin.display(description=_("Address"), ordering="ip_address")
    def address(self, attempt):
        return attempt.ip_address

    @admin.display(description=_("Failed attempts"), ordering="failures_since_start")
    def failures(self, attempt):
        return attempt.failures_since_start

    @admin.display(description=_("Last attempt"), ordering="-attempt_time")
    def last_attempt(self, attempt):
        return attempt.attempt_time

    @admin.display(description=_("State"))
    def state(self, attempt):
        until = attempt.attempt_time + settings.AXES_COOLOFF_TIME
        if attempt.failures_since_start >= settings.AXES_FAILURE_LIMIT and until > timezone.now():
            local = timezone.localtime(until)
            return _("Locked out until %(time)s") % {"time": local.strftime("%H:%M")}
        return _("Not locked out")

    @admin.action(description=_("Lift the lockout"), permissions=["delete"])
    def lift_lockouts(self, request, queryset):
        _total, per_model = queryset.delete()
        count = per_model.get(AccessAttempt._meta.label, 0)
        self.message_user(
            request,
            ngettext("%(count)d lockout lifted.", "%(count)d lockouts lifted.", count)
            % {"count": count},
            messages.SUCCESS,
        )

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
