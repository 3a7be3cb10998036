"""A throw-away DKIM key for the tests and the mail benchmark (one helper for both)."""

from __future__ import annotations

import base64
import subprocess
from pathlib import Path


def key_pair(folder: Path, name: str = "dkim") -> tuple[str, bytes]:
    """A 2048-bit private key file and the DNS record (TXT) that publishes its public half."""
    private = folder / f"{name}.pem"
    subprocess.run(
        ["openssl", "genrsa", "-out", str(private), "2048"], check=True, capture_output=True
    )
    public = subprocess.run(
        ["openssl", "rsa", "-in", str(private), "-pubout", "-outform", "DER"],
        check=True,
        capture_output=True,
    ).stdout
    return str(private), b"v=DKIM1; k=rsa; p=" + base64.b64encode(public)
