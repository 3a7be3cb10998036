"""A throw-away DKIM key for the tests and the mail benchmark (one helper for both)."""

from __future__ import annotations

import base64
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa


def key_pair(folder: Path, name: str = "dkim") -> tuple[str, bytes]:
    """A 2048-bit private key file and the DNS record (TXT) that publishes its public half: the
    files `openssl genrsa` and `openssl rsa -pubout -outform DER` make (the README's recipe), in
    process (50 ms of CPU a key, where the two openssl runs took 300)."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = folder / f"{name}.pem"
    private.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    public = key.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return str(private), b"v=DKIM1; k=rsa; p=" + base64.b64encode(public)
