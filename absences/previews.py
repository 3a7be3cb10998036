"""The preview a member confirms: the request as it was shown, signed, with the fingerprint of
what it would do. Bevestigen carries it back; anything else than that very request (another
selection, another reason, no preview at all, an old one) is shown again, never applied."""

from __future__ import annotations

from django.core import signing
from django.db.models import Max

from absences.models import Registration
from absences.services import Consequence, digest
from members.models import Member

SALT = "absences.preview"
MAX_AGE = 60 * 60  # a preview left open longer is shown again


def _request(member: Member, data: dict) -> dict:
    """The request, and the member's latest change to those evenings: a preview made before
    another change (an old tab, the back button) is not a preview of what is there now."""
    reported_at = data.get("reported_at")
    latest = Registration.objects.filter(member=member, round__in=data["rounds"]).aggregate(
        latest=Max("pk")
    )["latest"]
    return {
        "after": latest,
        "member": member.pk,
        "rounds": sorted(round_.pk for round_ in data["rounds"]),
        "action": data["action"],
        "reason": data["reason"],
        "reported_at": reported_at.isoformat() if reported_at else "",
    }


def sign(member: Member, data: dict, consequences: list[Consequence]) -> str:
    """The token for the preview of `data` (a valid CancellationForm's cleaned data)."""
    return signing.dumps({**_request(member, data), "digest": digest(consequences)}, salt=SALT)


def previewed(token: str, member: Member, data: dict) -> str | None:
    """The digest of the preview behind `token` if it previewed exactly this request."""
    try:
        shown = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.BadSignature:  # missing, forged or expired
        return None
    digest_ = shown.pop("digest", None)
    return digest_ if shown == _request(member, data) else None
