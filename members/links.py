"""Links that need no password, in the e-mails the site sends a member: "Ik kan niet komen", "Ik
kom toch" and "Uitslag doorgeven" for one round.

Each is signed (Django's `signing`) for one member, one round and one purpose, and for the
address it was sent to (`fingerprint`, a keyed hash: the code does not show the address);
tampering, another purpose or another member's code is refused ("Deze link klopt niet."), and a
link sent to an address the member no longer has raises `Outdated`, which the views turn into a
page that says what to do instead (`refuse_outdated`). A code from before the address was signed
in (made by an earlier version) works for 30 days after it was made, then counts as outdated.
When it stops working is the round's business (`absences.views`, `competition.result_entry`: the
evening's start for cancelling, the results' finality for a result). The code rides in the query
string (`?code=`): the site's log lines record the path only (gunicorn's access log too:
gunicorn.conf.py), the pages that read one are never cached (`Cache-Control: no-store`), and the
site's referrer policy (`same-origin`) keeps the address from other sites (`no-referrer` would
make browsers send `Origin: null`, which the CSRF check refuses). A link grants no login session
and opens no other page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import wraps
from urllib.parse import urlencode

from django.core import signing
from django.shortcuts import render
from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac

from base.links import link
from club.models import current as current_club
from members.models import Member

SALT = "members.links"
CANCEL = "afmelden"
REGISTER = "aanmelden"
RESULT = "uitslag"
PURPOSES = (CANCEL, REGISTER, RESULT)


@dataclass(frozen=True)
class MemberLink:
    member: Member
    round_id: int
    purpose: str


class Outdated(Exception):
    """A code of ours, sent to an address its member no longer has."""


def fingerprint(address: str) -> str:
    """The address a link was sent to, as a keyed hash (the same for any case: a change of
    case only is no change of mailbox)."""
    return salted_hmac("members.links.address", address.strip().lower()).hexdigest()[:16]


# Codes made before the address was part of them (e-mails of the weeks before the upgrade)
# keep working this long after they were made: this week's pairing e-mail's links and recent
# one-click unsubscribe links do not all break at once; after it they count as outdated.
UNBOUND_GRACE = timedelta(days=30)


def sent_to_current_address(member: Member, sent_to: list, value: str, salt: str) -> bool:
    """Whether a code was sent to the member's address as it is now: its signed fingerprint
    matches, or it carries none and was made within `UNBOUND_GRACE` (read from the code's own
    signed time)."""
    if len(sent_to) == 1:
        return constant_time_compare(str(sent_to[0]), fingerprint(member.email))
    if sent_to:
        return False
    try:
        signing.loads(value, salt=salt, max_age=UNBOUND_GRACE)
    except signing.SignatureExpired:
        return False
    return True


def code(member: Member, round_id: int, purpose: str) -> str:
    return signing.dumps([member.pk, round_id, purpose, fingerprint(member.email)], salt=SALT)


def address(url_name: str, member: Member, round_id: int, purpose: str) -> str:
    """The full link for an e-mail to the member's address: the page (`url_name`) with the
    signed code."""
    return link(url_name) + "?" + urlencode({"code": code(member, round_id, purpose)})


def read(value: str, purposes: tuple[str, ...]) -> MemberLink | None:
    """The link's member, round and purpose; None when it is not a code of ours for one of
    `purposes` (tampered, cut off, for another page) or its member is gone. Raises `Outdated`
    for a link sent to an address the member no longer has."""
    try:
        member_id, round_id, purpose, *sent_to = signing.loads(value, salt=SALT)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if purpose not in purposes or not isinstance(round_id, int):
        return None
    member = Member.objects.filter(pk=member_id, is_active=True).first()
    if member is None:
        return None
    if not sent_to_current_address(member, sent_to, value, SALT):
        raise Outdated
    return MemberLink(member, round_id, purpose)


def refuse_outdated(instead: str) -> Callable:
    """A view that reads a link: an outdated one answers the page that says so (410), with
    the login leading to `instead` (a URL name), the page that does the same with a password."""

    def decorator(view: Callable) -> Callable:
        @wraps(view)
        def answering(request, *args, **kwargs):
            try:
                return view(request, *args, **kwargs)
            except Outdated:
                context = {
                    "instead": reverse(instead),
                    "arbiter_email": current_club().arbiter_address,
                }
                return render(request, "members/link_outdated.html", context, status=410)

        return answering

    return decorator
