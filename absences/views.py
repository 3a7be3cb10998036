"""`/afmelden/`: a member's coming club evenings; cancel or register again."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from absences import services
from absences.forms import CancellationForm, MemberChoiceForm
from competition.services import CompetitionError
from members.models import Member


def is_arbiter(request: HttpRequest) -> bool:
    return request.user.has_perm("absences.add_registration")


@login_required
def cancellations(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    arbiter = is_arbiter(request)
    member_id = request.GET.get("lid")
    if member_id:
        if not arbiter:
            raise PermissionDenied
        member = get_object_or_404(Member, pk=member_id if member_id.isdigit() else 0)
    else:
        member = Member.objects.filter(user=request.user).first()
    context = {
        "member": member,
        "arbiter": arbiter,
        "member_choice": MemberChoiceForm(initial={"lid": member}) if arbiter else None,
    }
    if member is None:
        return render(request, "absences/cancellations.html", context)
    evenings = services.coming_evenings(member, now)
    form = CancellationForm(request.POST or None, evenings=evenings, arbiter=arbiter, now=now)
    consequences = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        rounds = sorted(data["rounds"], key=lambda r: r.number)
        reported_at = data.get("reported_at") or now
        if "confirm" in request.POST:
            try:
                done = services.apply(
                    member,
                    rounds,
                    data["action"],
                    data["reason"],
                    reported_at,
                    request.user,
                    arbiter,
                    now,
                )
            except CompetitionError as refused:  # nothing was changed
                for message in refused.messages:
                    messages.error(request, message)
                return redirect(request.get_full_path())
            for consequence in done:
                level = messages.SUCCESS if consequence.changes_anything else messages.INFO
                messages.add_message(
                    request,
                    level,
                    _("Round %(number)s: %(message)s")
                    % {"number": consequence.round.number, "message": consequence.message},
                )
            return redirect(request.get_full_path())
        consequences = services.plan(
            member, rounds, data["action"], data["reason"], reported_at, arbiter
        )
    context.update(evenings=evenings, form=form, consequences=consequences)
    return render(request, "absences/cancellations.html", context)
