"""Inviting members (`members.accounts`): one member, a selection (the member list's action
"Uitnodigen" opens this page with `?leden=1,2,3`), or everyone with an address and no login yet;
always after a page that names who gets an e-mail, or who stops it."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from arbiter.pages import arbiter_page, render
from members import accounts
from members.models import Member

MEMBER_LIST = "admin:members_member_changelist"


@arbiter_page("members.change_member")
def invite(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    """GET: who would be invited; POST: invite them."""
    selection = request.POST.get("leden") or request.GET.get("leden") or ""
    chosen = chosen_members(selection)
    if pk is None and selection and not chosen:
        # A damaged selection names nobody: never read as "everyone without a login".
        messages.error(request, _("The selection names no member: nothing was sent."))
        return redirect(MEMBER_LIST)
    if pk is None and chosen is not None:
        members = chosen
        title = _("Invite the chosen members")
    elif pk is None:
        members = accounts.not_yet_in()
        title = _("Invite everyone without a login")
    else:
        members = [get_object_or_404(Member.objects.select_related("user"), pk=pk)]
        title = _("Invite %(name)s") % {"name": members[0].name}
    if request.method == "POST":
        invite_and_tell(request, members)
        return redirect(MEMBER_LIST)
    return render(
        request,
        "arbiter/invite.html",
        title,
        {
            "members": members,
            "chosen": request.GET.get("leden", ""),
            "problems": accounts.invitation_problems(members, timezone.now()),
            "members_states": [(member, accounts.state(member)) for member in members],
        },
    )


def chosen_members(numbers: str) -> list[Member] | None:
    """The members a selection names ("1,2,3"); None when it names none."""
    pks = [int(number) for number in numbers.split(",") if number.strip().isdigit()]
    if not pks:
        return None
    return list(Member.objects.filter(pk__in=pks).select_related("user").order_by("name"))


def invite_and_tell(request: HttpRequest, members: list[Member]) -> None:
    """Invite, and say what happened: the number of e-mails, or who stopped it (nothing sent)."""
    if not members:
        messages.info(request, _("Nobody to invite: every member with an address has a login."))
        return
    try:
        sent = accounts.invite(members, timezone.now())
    except accounts.InvitationRefused as refused:
        messages.error(request, _("Nothing was sent:") + " " + " ".join(refused.messages))
    else:
        messages.success(
            request,
            ngettext("%(count)d invitation sent.", "%(count)d invitations sent.", sent)
            % {"count": sent},
        )
