"""A member's way in and their account: the invitation's page (choose a password), on the
profile the new password and the new e-mail address, and the one-click page that turns one kind
of e-mail off."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse, reverse_lazy
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from members import accounts, links, services
from members import unsubscribe as unsubscribe_links
from members.forms import AddressForm, MailChoiceForm
from members.models import Member


class InvitationView(auth_views.PasswordResetConfirmView):
    """The invitation's link: choose a password, and be logged in at once. Django's own page of
    a new password, with the invitation's tokens: the link works once, for 14 days, and not
    after a newer invitation or a change of the member's address."""

    token_generator = accounts.invitation_tokens
    template_name = "members/invitation.html"
    post_reset_login = True
    post_reset_login_backend = "members.backends.MemberLoginBackend"
    success_url = "/afmelden/"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["account"] = self.user
        context["days"] = accounts.INVITATION_LIFETIME.days
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


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's own: the current password, then the new one twice; the session stays."""

    template_name = "members/password_change.html"
    success_url = reverse_lazy("members:profile")

    def form_valid(self, form):
        messages.success(self.request, _("Your new password is saved."))
        return super().form_valid(form)


@login_required
@require_POST
def ask_for_new_address(request: HttpRequest) -> HttpResponse:
    member = get_object_or_404(Member, user=request.user)
    form = AddressForm(request.POST)
    if form.is_valid():
        address = form.cleaned_data["email"]
        try:
            accounts.ask_for_new_address(member, address, timezone.now())
        except accounts.AddressRefused as refused:
            messages.error(request, str(refused))
        else:
            messages.success(
                request,
                _(
                    "We sent a link to %(address)s: follow it to confirm. Until then your "
                    "e-mails go to %(old)s."
                )
                % {"address": address, "old": member.email or "—"},
            )
    else:
        messages.error(request, " ".join(form.errors["email"]))
    return redirect(reverse("members:profile") + "#e-mail")


@never_cache
def confirm_address(request: HttpRequest) -> HttpResponse:
    """The new address's link: GET shows what it does (a mail scanner changes nothing), the
    button confirms it; no login is needed (the link is the proof)."""
    code = request.GET.get("code", "")
    context = {}
    try:
        member, new_address = accounts.address_change(code)
        if request.method == "POST":
            member = accounts.change_address(code)
            context["done"] = True
    except accounts.AddressRefused as refused:
        context["problem"] = str(refused)
    else:
        context.update(member=member, new_address=new_address)
    response = render(
        request,
        "members/confirm_address.html",
        context,
        status=400 if "problem" in context else 200,
    )
    return response


@require_http_methods(["GET", "HEAD", "POST"])
@csrf_exempt  # the mail program's one-click POST (RFC 8058) has no token; the code is the proof
@never_cache
@links.refuse_outdated(instead="members:profile")
def unsubscribe(request: HttpRequest) -> HttpResponse:
    """One kind of e-mail off for the member the link was made for: GET asks (a link checker
    changes nothing), POST does it, without a login."""
    found = unsubscribe_links.read(request.GET.get("code", ""))
    if found is None:
        return render(request, "members/unsubscribe.html", {"problem": True}, status=400)
    member, choice = found
    # The page's own button turns the e-mails on again: a member without an account has no
    # profile to do it on (issue 37). Anything else posted (RFC 8058's one click) turns off.
    again = request.POST.get("again") == "on"
    if request.method == "POST":
        services.turn_off_mail(member, choice, on=again)
    return render(
        request,
        "members/unsubscribe.html",
        {
            "member": member,
            "what": MailChoiceForm.label_of(choice),  # as the profile names it
            "done": request.method == "POST" and not again,
            "on_again": request.method == "POST" and again,
        },
    )
