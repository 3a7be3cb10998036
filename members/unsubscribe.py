"""The one-click address that turns one kind of e-mail off for one member (RFC 8058), carried
in the `List-Unsubscribe` header and the footer of every e-mail the member can turn off
(`operations.letters`).

Signed (Django's `signing`) for the member, the choice (`services.MAIL_CHOICES`) and the address
it was sent to (`links.fingerprint`); it does not expire, since an old e-mail's link should still
work, and it does only this one harmless thing. Like the other links it stops working once the
member's address changes (`links.Outdated`): mail no longer goes to that mailbox, and whoever
reads it cannot turn off what now goes to the new one. The page (`account_views.unsubscribe`)
asks on GET and acts on POST, the mail program's one-click POST included, which carries no CSRF
token and needs no login.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.core import signing

from base.links import link
from members.links import Outdated, fingerprint, sent_to_current_address
from members.models import Member
from members.services import MAIL_CHOICES

SALT = "members.unsubscribe"


def address(member: Member, choice: str) -> str:
    assert choice in MAIL_CHOICES, choice
    code = signing.dumps([member.pk, choice, fingerprint(member.email)], salt=SALT)
    return link("members:unsubscribe") + "?" + urlencode({"code": code})


def read(code: str) -> tuple[Member, str] | None:
    """The member and the choice, or None for a code that is not ours (or a member gone).
    Raises `links.Outdated` for a link sent to an address the member no longer has."""
    try:
        member_id, choice, *sent_to = signing.loads(code, salt=SALT)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if choice not in MAIL_CHOICES:
        return None
    member = Member.objects.filter(pk=member_id).first()
    if member is None:
        return None
    if not sent_to_current_address(member, sent_to, code, SALT):
        raise Outdated
    return member, choice
