"""DKIM: when the club sets a private key (`DKIM_PRIVATE_KEY_FILE`, with `DKIM_SELECTOR` and
`DKIM_DOMAIN`), every message the worker delivers is signed (dkimpy), so that receiving servers
can check it came from the club's domain. The README says which DNS records go with the key.

The signature covers the exact bytes that are sent: the message is serialised once, signed, and
those bytes are what every mail backend reads (`as_bytes`), so no later re-folding of a header
can break it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import dkim
from django.conf import settings
from django.core.mail import EmailMultiAlternatives

# The headers the signature covers, where present: DKIM's recommended set, and the one-click
# unsubscribe, which mail providers only honour when it is signed (RFC 8058, section 4).
SIGNED_HEADERS = (*dkim.DKIM.SHOULD, b"list-unsubscribe-post")


@cache
def _private_key(path: str) -> bytes:
    return Path(path).read_bytes()


def sign(data: bytes) -> bytes:
    """The DKIM-Signature header line (with its CRLF) for a message's bytes."""
    present = {
        line.split(b":", 1)[0].strip().lower()
        for line in data.split(b"\r\n\r\n", 1)[0].split(b"\r\n")
        if line[:1] not in (b" ", b"\t") and b":" in line
    }
    return dkim.sign(
        data,
        settings.DKIM_SELECTOR.encode(),
        settings.DKIM_DOMAIN.encode(),
        _private_key(settings.DKIM_PRIVATE_KEY_FILE),
        canonicalize=(b"relaxed", b"relaxed"),
        include_headers=[name for name in SIGNED_HEADERS if name in present],
    )


class SignedMIME:
    """A message's MIME object with its signature in front; everything else is the object's."""

    def __init__(self, mime):
        self._mime = mime
        data = mime.as_bytes(linesep="\r\n")
        self._data = sign(data) + data

    def as_bytes(self, unixfrom: bool = False, linesep: str = "\n") -> bytes:
        return self._data.replace(b"\r\n", linesep.encode())

    def as_string(self, unixfrom: bool = False, linesep: str = "\n") -> str:
        return self.as_bytes(linesep=linesep).decode("ascii", "replace")

    def __getattr__(self, name):
        return getattr(self._mime, name)


class OutgoingMessage(EmailMultiAlternatives):
    """The message as the worker delivers it: signed when the club has a DKIM key. Built and
    signed once, on the first `message()`: the worker builds it before sending (a header that
    cannot be written fails that message only), and the backend then sends those same bytes
    instead of building and signing it again. Its parts are not to change after that."""

    _built = None

    def message(self):
        if self._built is None:
            mime = super().message()
            self._built = SignedMIME(mime) if settings.DKIM_PRIVATE_KEY_FILE else mime
        return self._built
