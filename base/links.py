"""The site's own addresses where no request is at hand (an e-mail, a calendar feed)."""

from django.conf import settings
from django.urls import reverse


def link(name: str, *args) -> str:
    """The site's full address of a page: `SITE_URL` and the URL name, never written out."""
    return settings.SITE_URL.rstrip("/") + reverse(name, args=args)
