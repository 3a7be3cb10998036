"""DKIM: when the club sets a private key (`DKIM_PRIVATE_KEY_FILE`, with `DKIM_SELECTOR` and
`DKIM_DOMAIN`), every message the worker delivers is signed, so that receiving servers can check
it came from the club's domain. The README says which DNS records go with the key.

The signature covers the exact bytes that are sent: the message is serialised once, signed, and
those bytes are what every mail backend reads (`as_bytes`), so no later re-folding of a header
can break it.

The DKIM-Signature header is dkimpy's, byte for byte (`dkim.sign` with relaxed/relaxed and the
same headers: tests/operations/test_dkim.py compares them), with dkimpy's own canonicalisation
(its public `CanonicalizationPolicy`); only the RSA signature is made by `cryptography`
(OpenSSL), some 0.3 ms a message instead of dkimpy's pure-Python 7 ms (issue 36).
"""

from __future__ import annotations

import base64
import hashlib
import re
import time
from functools import cache
from pathlib import Path

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from dkim import DKIM
from dkim.canonicalization import CanonicalizationPolicy

# The headers the signature covers, where present: DKIM's recommended set, and the one-click
# unsubscribe, which mail providers only honour when it is signed (RFC 8058, section 4).
SIGNED_HEADERS = (*DKIM.SHOULD, b"list-unsubscribe-post")

CRLF = b"\r\n"
RELAXED = CanonicalizationPolicy.from_c_value(b"relaxed/relaxed")
HEADER_NAME = b"DKIM-Signature"
_FIELD = re.compile(rb"([\x21-\x7e]+?):")  # a header field's name (RFC 5322, 2.2)


@cache
def _private_key(path: str) -> rsa.RSAPrivateKey:
    key = serialization.load_pem_private_key(Path(path).read_bytes(), password=None)
    if not isinstance(key, rsa.RSAPrivateKey):
        raise ValueError(f"{path}: the DKIM key is not an RSA key")
    return key


def sign(data: bytes) -> bytes:
    """The DKIM-Signature header line (with its CRLF) for a message's bytes, with the club's
    key."""
    return dkim_signature(
        data,
        settings.DKIM_SELECTOR.encode(),
        settings.DKIM_DOMAIN.encode(),
        _private_key(settings.DKIM_PRIVATE_KEY_FILE),
    )


def dkim_signature(data: bytes, selector: bytes, domain: bytes, key: rsa.RSAPrivateKey) -> bytes:
    """The DKIM-Signature header line (with its CRLF) that `dkim.sign(data, selector, domain,
    <key's PEM>, canonicalize=(b"relaxed", b"relaxed"), include_headers=<SIGNED_HEADERS that are
    present>)` writes at this second: rsa-sha256, relaxed/relaxed (RFC 6376, 3.4.2 and 3.4.4)."""
    headers, body = _split(data)
    present = {name.lower() for name, _value in headers}
    include = [name for name in SIGNED_HEADERS if name in present]
    fields = [
        (b"v", b"1"),
        (b"a", b"rsa-sha256"),
        (b"c", b"relaxed/relaxed"),
        (b"d", domain),
        (b"i", b"@" + domain),
        (b"q", b"dns/txt"),
        (b"s", selector),
        (b"t", str(int(time.time())).encode("ascii")),
        (b"h", b" : ".join(include)),
        (b"bh", base64.b64encode(hashlib.sha256(RELAXED.canonicalize_body(body)).digest())),
    ]
    # The header as dkimpy hashes it (RFC 6376, 3.7): folded with a placeholder b= (60 zeros,
    # so that b= starts a line of its own), whose value is then left out.
    unsigned = _fold(_tags([*fields, (b"b", b"0" * 60)]), len(HEADER_NAME)).rstrip(b"0\r\n ")
    hashed = [
        name + b":" + value
        for name, value in _select(RELAXED.canonicalize_headers(headers), include)
    ]
    [(name, value)] = RELAXED.canonicalize_headers([(HEADER_NAME, b" " + unsigned)])
    hashed.append(name + b":" + value.rstrip())
    signature = key.sign(b"".join(hashed), padding.PKCS1v15(), hashes.SHA256())
    fields.append((b"b", base64.b64encode(signature)))
    return HEADER_NAME + b": " + _fold(_tags(fields) + CRLF, len(HEADER_NAME))


def _split(data: bytes) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """A message's header fields (name, value with its CRLF; a folded value keeps its folds) and
    its body, with CRLF line ends (a bare LF counts as one, as dkimpy reads it)."""
    lines = re.split(rb"\r?\n", data)
    headers: list[list[bytes]] = []
    for number, line in enumerate(lines):
        if not line:
            return [(name, value) for name, value in headers], CRLF.join(lines[number + 1 :])
        if line[:1] in (b" ", b"\t"):
            headers[-1][1] += line + CRLF
            continue
        field = _FIELD.match(line)
        if field is None:
            raise ValueError(f"not a header field: {line[:80]!r}")
        headers.append([field.group(1), line[field.end() :] + CRLF])
    return [(name, value) for name, value in headers], b""


def _select(headers: list[tuple[bytes, bytes]], include: list[bytes]) -> list[tuple[bytes, bytes]]:
    """The fields a signature with h=`include` covers, in that order: for each name its last
    instance not yet taken, from the bottom up (RFC 6376, 5.4.2); a name not present, none."""
    chosen, taken = [], {}
    for wanted in include:
        index = taken.get(wanted, len(headers))
        while index > 0:
            index -= 1
            if headers[index][0] == wanted:
                chosen.append(headers[index])
                break
        taken[wanted] = index
    return chosen


def _tags(fields: list[tuple[bytes, bytes]]) -> bytes:
    return b"; ".join(tag + b"=" + value for tag, value in fields)


def _fold(value: bytes, name_length: int) -> bytes:
    """`value` folded as dkimpy folds its header: lines of at most 72 characters (the first one
    shares them with the name), each broken at its last space, or at the limit when it has none;
    a trailing CRLF counts in the last line's length."""
    limit = 72 - name_length
    if len(value) <= limit or (value.endswith(CRLF) and len(value) <= limit + 2):
        return value
    folded = b""
    while len(value) > limit:
        space = value.rfind(b" ", 0, limit)
        if space == -1:
            folded += value[:limit] + CRLF + b" "
            value = value[limit:]
        else:
            folded += value[:space] + CRLF + b" "
            value = value[space + 1 :]
        limit = 71
    return folded + value


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
