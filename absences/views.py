"""`/afmelden/`: a member's coming club evenings; cancel or register again. `/afmelden/link/`:
the same for one evening from an e-mail's link, without a password."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from absences import mail as absence_mail
from absences import previews, services
from absences.forms import CancellationForm, MemberChoiceForm
from absences.models import Registration
from club.models import current as current_club
from competition.models import Round
from competition.services import CompetitionError
from members import links
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
        "acting_for_member": bool(member_id),
        "member_choice": MemberChoiceForm(initial={"lid": member}) if arbiter else None,
    }
    if member is None:
        return render(request, "absences/cancellations.html", context)
    if closing := services.season_closing(now):
        # Nothing to cancel for: the page says so, offers no form, and a form sent from an
        # older page changes nothing (the services would refuse it too).
        context["closing"] = closing
        status = 409 if request.method == "POST" else 200
        return render(request, "absences/cancellations.html", context, status=status)
    evenings = services.coming_evenings(member, now)
    form = CancellationForm(request.POST or None, evenings=evenings, arbiter=arbiter, now=now)
    consequences = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        rounds = sorted(data["rounds"], key=lambda r: r.number)
        reported_at = data.get("reported_at") or now
        request_ = (member, rounds, data["action"], data["reason"], reported_at)
        if "confirm" in request.POST:
            shown = previews.previewed(request.POST.get("preview", ""), member, data)
            if shown is None:
                messages.warning(
                    request,
                    _("Your choice differs from what was shown: check what will happen now."),
                )
            else:
                try:
                    done = services.apply(*request_, request.user, arbiter, now, previewed=shown)
                except services.PlanChanged as changed:
                    messages.warning(request, changed.messages[0])
                    consequences = changed.consequences
                except CompetitionError as refused:  # nothing was changed
                    for message in refused.messages:
                        messages.error(request, message)
                    return redirect(request.get_full_path())
                else:
                    _tell(request, member, done, acting_for_member=bool(member_id))
                    return redirect(request.get_full_path())
        if consequences is None:
            consequences = services.plan(*request_, arbiter)
        context["preview"] = previews.sign(member, data, consequences)
        context.update(_preview_context(consequences))
        context["eligibility"] = previews.eligibility(
            member, consequences, data["action"], arbiter, for_member=bool(member_id)
        )
    context.update(evenings=evenings, form=form, consequences=consequences)
    return render(request, "absences/cancellations.html", context)


def _tell(request: HttpRequest, member: Member, done, acting_for_member: bool) -> None:
    """What was done, evening by evening: in the member's own words, or for the arbiter acting
    for a member naming the member ("Pieter Bakker is op tijd afgemeld voor ronde 14")."""
    for consequence in done:
        level = messages.SUCCESS if consequence.changes_anything else messages.INFO
        if acting_for_member and consequence.changes_anything:
            text = services.summary(member, consequence)
        else:
            words = consequence.for_arbiter if acting_for_member else consequence.message
            text = _("Round %(number)s: %(message)s") % {
                "number": consequence.round.number,
                "message": words,
            }
        messages.add_message(request, level, text)
    changed = any(consequence.changes_anything for consequence in done)
    if changed and absence_mail.confirms_by_mail(member):  # the e-mail that follows (issue 37)
        words = {"name": member.name, "address": member.email}
        if acting_for_member:
            text = _("%(name)s gets a confirmation by e-mail (%(address)s).") % words
        else:
            text = _("You get a confirmation by e-mail (%(address)s).") % words
        messages.info(request, text)


@never_cache
@links.refuse_outdated(instead="absences:mine")
def by_link(request: HttpRequest) -> HttpResponse:
    """ "Ik kan niet komen" / "Ik kom toch" from an e-mail, without a password
    (`members.links`): the same preview as the logged-in page and one Bevestigen, under the
    same rules, for the link's member and round only, until the evening begins."""
    now = timezone.now()
    found = links.read(request.GET.get("code", ""), (links.CANCEL, links.REGISTER))
    round_ = Round.objects.filter(pk=found.round_id).first() if found else None
    if found is None or round_ is None:
        return _link_page(request, {"problem": _("This link is not valid.")}, status=400)
    member = found.member
    context = {"member": member, "round": round_}
    if closing := round_.competition.season.closing():
        context["closing"] = closing
        return _link_page(request, context, status=410)
    if round_.games_started(now):
        context["problem"] = _(
            "This link no longer works: the games of round %(number)s have begun."
        ) % {"number": round_.number}
        return _link_page(request, context, status=410)
    action = (
        Registration.Action.CANCEL
        if found.purpose == links.CANCEL
        else Registration.Action.REGISTER
    )
    data = {"rounds": [round_], "action": action, "reason": Registration.Reason.REGULAR}
    request_ = (member, [round_], action, data["reason"], now)
    consequences = None
    if request.method == "POST":
        shown = previews.previewed(request.POST.get("preview", ""), member, data)
        if shown is None:
            context["changed"] = _("What happens has changed since the page was opened: check it.")
        else:
            try:
                consequences = services.apply(*request_, member.user, False, now, previewed=shown)
            except services.PlanChanged as changed:
                context["changed"] = changed.messages[0]
                consequences = changed.consequences
            except CompetitionError as refused:  # nothing was changed
                context["problem"] = " ".join(refused.messages)
                return _link_page(request, context, status=409)
            else:
                context.update(done=consequences, **_preview_context(consequences))
                return _link_page(request, context)
    if consequences is None:
        consequences = services.plan(*request_, False)
    context.update(
        consequences=consequences,
        preview=previews.sign(member, data, consequences),
        eligibility=previews.eligibility(member, consequences, action, False),
        **_preview_context(consequences),
    )
    return _link_page(request, context)


def _preview_context(consequences) -> dict:
    """What a preview's colours and buttons follow: a costly change in red, Bevestigen only
    when something changes, and the arbiter's address when only the arbiter can help."""
    ask = any(c.ask_arbiter for c in consequences)
    return {
        "costly": any(c.outcome in services.LATE_OUTCOMES for c in consequences),
        "changes": any(c.changes_anything for c in consequences),
        "ask_arbiter": ask,
        "arbiter_email": current_club().arbiter_address if ask else "",
    }


def _link_page(request: HttpRequest, context: dict, status: int = 200) -> HttpResponse:
    """The link's page (never stored: `never_cache` on the view; its address, with the code,
    goes to no other site: the site's `same-origin` referrer policy)."""
    return render(request, "absences/by_link.html", context, status=status)
