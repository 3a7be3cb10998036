"""The club's logo (issue 40, point 1): a small PNG, JPEG or SVG file kept in the club's row,
told apart by its first bytes (never by its name), and served at /logo/ beside the club's
name in the menu. An SVG is shown through <img>, where its scripts do not run, and served
with a policy that runs none when it is opened on its own."""

from __future__ import annotations

import hashlib

from django.db import transaction
from django.utils.translation import gettext as _

from club.models import Club, current, forget

MAX_BYTES = 200_000  # a logo is a few kB; a photo is refused


def kind_of(data: bytes) -> str | None:
    """The media type of `data` by its first bytes, or None for anything but a logo."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    head = data[:4096].lstrip().lower()
    if head.startswith((b"<svg", b"<?xml", b"<!--")) and b"<svg" in head:
        return "image/svg+xml"
    return None


def problem(data: bytes) -> str | None:
    """Why `data` cannot be the club's logo (in Dutch, for the club's page), or None."""
    if len(data) > MAX_BYTES or kind_of(data) is None:
        return _("A logo is a PNG, JPEG or SVG file of at most %(size)s kB.") % {
            "size": MAX_BYTES // 1000
        }
    return None


@transaction.atomic
def set_logo(data: bytes) -> None:
    """The club's logo becomes `data` (checked with `problem` first); empty bytes remove it."""
    Club.objects.filter(pk=current().pk).update(
        logo=data,
        logo_type=kind_of(data) or "",
        logo_digest=hashlib.sha256(data).hexdigest()[:12] if data else "",
    )
    forget()
