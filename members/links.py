"""Links that need no password, in the e-mails the site sends a member: "Ik kan niet komen",
"Ik kom toch" and "Uitslag doorgeven" for one round.

Each is signed (Django's `signing`) for one member, one round and one purpose; tampering, another
purpose or another member's code is refused. When it stops working is the round's business
(`absences.views`, `competition.result_entry`: the evening's start for cancelling, the results'
finality for a result). The code rides in the query string (`?code=`): the site's log lines
record the path only (gunicorn's access log too: gunicorn.conf.py), the pages that read one are
never cached (`Cache-Control: no-store`), and the site's referrer policy (`same-origin`) keeps
the address from other sites (`no-referrer` would make browsers send `Origin: null`, which the
CSRF check refuses). A link grants no login session and opens no other page.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.core import signing

from base.links import link
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


def code(member: Member, round_id: int, purpose: str) -> str:
    return signing.dumps([member.pk, round_id, purpose], salt=SALT)


def address(url_name: str, member: Member, round_id: int, purpose: str) -> str:
    """The full link for an e-mail: the page (`url_name`) with the signed code."""
    return link(url_name) + "?" + urlencode({"code": code(member, round_id, purpose)})


def read(value: str, purposes: tuple[str, ...]) -> MemberLink | None:
    """The link's member, round and purpose; None when it is not a code of ours for one of
    `purposes` (tampered, cut off, for another page) or its member is gone."""
    try:
        member_id, round_id, purpose = signing.loads(value, salt=SALT)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if purpose not in purposes or not isinstance(round_id, int):
        return None
    member = Member.objects.filter(pk=member_id, is_active=True).first()
    return MemberLink(member, round_id, purpose) if member else None
