"""The one-click address that turns one kind of e-mail off for one member (RFC 8058), carried
in the `List-Unsubscribe` header and the footer of every e-mail the member can turn off
(`operations.letters`).

Signed (Django's `signing`) for the member and the choice (`services.MAIL_CHOICES`); it does
not expire, since an old e-mail's link should still work, and it does only this one harmless
thing. The page (`account_views.unsubscribe`) asks on GET and acts on POST, the mail program's
one-click POST included, which carries no CSRF token and needs no login.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.core import signing

from base.links import link
from members.models import Member
from members.services import MAIL_CHOICES

SALT = "members.unsubscribe"


def address(member: Member, choice: str) -> str:
    assert choice in MAIL_CHOICES, choice
    code = signing.dumps([member.pk, choice], salt=SALT)
    return link("members:unsubscribe") + "?" + urlencode({"code": code})


def read(code: str) -> tuple[Member, str] | None:
    """The member and the choice, or None for a code that is not ours (or a member gone)."""
    try:
        member_id, choice = signing.loads(code, salt=SALT)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if choice not in MAIL_CHOICES:
        return None
    member = Member.objects.filter(pk=member_id).first()
    return (member, choice) if member else None
