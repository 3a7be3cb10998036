"""Every page of the demo and one e-mail of every kind, written to files: the before/after
comparison of issue 40 ("DSC stays exactly DSC" while the club becomes data). Not part of
`make test` (its name is not test_*.py); run it on the commit before a change and on the one
after, and compare:

    SNAPSHOT_DIR=/tmp/before .venv/bin/pytest tests/demo_snapshot.py -q -p no:cacheprovider
    SNAPSHOT_DIR=/tmp/after  .venv/bin/pytest tests/demo_snapshot.py -q -p no:cacheprovider
    diff -r /tmp/before /tmp/after

The pages are those every check visits (`tests/pages.py`: a visitor's, a member's, the
arbiter's, the admin's), on the demo at its own moment with the clock standing still. What
differs by itself from one run to the next is written as a placeholder: the CSRF tokens and
the CSP nonces in a page; the signed tokens in an e-mail's links (of an e-mail, the headers a
person reads and the decoded text parts are written).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import time_machine

from tests.browser.helpers import ARBITER, MEMBER
from tests.demo import DEMO_NOW
from tests.mail_samples import one_of_each, smtp_server
from tests.pages import SLOW_TO_VISIT, addresses, client_for, filled, pages_of

__all__ = ["one_of_each", "smtp_server"]

PAGE_NOISE = [
    (re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+'), r"\1<csrf>"),
    (re.compile(r'(nonce=")[^"]+'), r"\1<nonce>"),
    (re.compile(r'(<meta name="csrf-token" content=")[^"]+'), r"\1<csrf>"),
    (re.compile(r"kalender/[A-Za-z0-9_-]{30,}\.ics"), "kalender/<key>.ics"),  # a random key
]
MAIL_NOISE = [
    (re.compile(r"[A-Za-z0-9_-]{6,}(?::|%3A)[A-Za-z0-9_:%-]{20,}"), "<signed>"),  # signed tokens
    (re.compile(r"/[0-9A-Za-z]{1,3}/[0-9a-z]{5,}-[0-9a-f]{20,}/"), "/<uid>/<token>/"),
    (re.compile(r"kalender/[A-Za-z0-9_-]{30,}\.ics"), "kalender/<key>.ics"),
]
HEADERS = ("From", "To", "Reply-To", "Subject", "List-Unsubscribe", "List-Unsubscribe-Post")


def out(*parts: str) -> Path:
    folder = os.environ.get("SNAPSHOT_DIR")
    assert folder, "give SNAPSHOT_DIR, the folder to write the snapshot to"
    path = Path(folder).joinpath(*parts)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def clean(text: str, noise) -> str:
    for pattern, replacement in noise:
        text = pattern.sub(replacement, text)
    return text


@pytest.mark.parametrize(
    ("who", "account"), [("visitor", None), ("member", MEMBER), ("arbiter", ARBITER)]
)
def test_every_page_of_the_demo(demo, who, account):
    with time_machine.travel(DEMO_NOW, tick=False):
        paths = pages_of(account, admin=account == ARBITER, public=account != ARBITER)
        client = client_for(account)
        for path in paths:
            body = client.get(path).content.decode()
            name = re.sub(r"[^\w.-]+", "_", path.strip("/")) or "home"
            out("pages", who, f"{name}.html").write_text(clean(body, PAGE_NOISE), "utf-8")
    assert paths


@pytest.mark.parametrize(("who", "account"), [("member", MEMBER), ("arbiter", ARBITER)])
def test_every_download_of_the_demo(demo, who, account):
    """What the addresses answer that is not a page: the calendar, the TRF, the season file,
    the CSV files, the print kit's files."""
    written = 0
    with time_machine.travel(DEMO_NOW, tick=False):
        client = client_for(account)
        for route, _view in addresses():
            if route in SLOW_TO_VISIT:
                continue
            path = filled(route, None)
            response = client.get(path)
            kind = response.get("Content-Type", "")
            if response.status_code != 200 or "html" in kind or response.streaming:
                continue
            name = re.sub(r"[^\w.-]+", "_", path.strip("/"))
            body = clean(response.content.decode("utf-8", "replace"), PAGE_NOISE)
            out("downloads", who, name).write_text(body, "utf-8")
            written += 1
    assert written


def test_one_email_of_every_kind(one_of_each):
    """Each kind's headers a person reads and its text parts, decoded. Of the error report
    (Django's, with the server's times and memory addresses) the headers only."""
    for kind, arrived in sorted(one_of_each.items()):
        message = arrived.message
        lines = [f"{name}: {message[name]}" for name in HEADERS if message[name]]
        for part in message.walk() if kind != "error" else ():
            if part.get_content_maintype() == "text":
                lines += [f"--- {part.get_content_type()}", part.get_content()]
        out("mails", f"{kind}.txt").write_text(clean("\n".join(lines), MAIL_NOISE), "utf-8")
