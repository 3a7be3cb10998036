"""Who a request comes from: the client's address, for the login lockouts (django-axes) and the
fair-use limits (`base.fair_use`) alike."""

from __future__ import annotations

import ipaddress

from django.conf import settings


def client_ip(request) -> str | None:
    """The client's address: REMOTE_ADDR, or behind TRUSTED_PROXIES proxies of our own the entry
    the outermost of them appended to X-Forwarded-For. Entries before it are the client's word
    and never trusted; a header that is too short or not an address falls back to REMOTE_ADDR."""
    proxies = settings.TRUSTED_PROXIES
    forwarded = [
        entry.strip()
        for entry in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if entry.strip()
    ]
    if proxies and len(forwarded) >= proxies:
        candidate = forwarded[-proxies]
        try:
            return str(ipaddress.ip_address(candidate))
        except ValueError:
            pass
    return request.META.get("REMOTE_ADDR")
