"""Issue 27: the site's own pages are valid HTML by the Nu HTML Checker (vnu-jar from the npm
registry, pinned, installed by `make install`; Java runs it), checked in one run over a crawl
of the demo as a visitor, a member and the arbiter."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.browser.helpers import ARBITER, MEMBER
from tests.pages import client_for, members_own, pages_of

VNU = (
    Path(__file__).resolve().parents[2] / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
)
JAVA = shutil.which("java")
# One short run: Java's quick compiler only, and its simplest collector, take a third of the
# CPU time of its defaults on the ~100 pages (8.3 s to 3.1 s, the same messages); the checker
# asks for a thread stack of at least 512k, which the quick compiler's deeper frames need.
JAVA_OPTIONS = ["-Xss4m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]

pytestmark = pytest.mark.skipif(
    not VNU.exists() or JAVA is None,
    reason="the Nu HTML Checker needs `make install` (npm ci: vnu-jar) and Java",
)


def as_user(account) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=account[0]))
    return client


def errors_of(pages: dict[str, str], folder: Path) -> list[str]:
    files = {}
    for number, (name, html) in enumerate(pages.items()):
        path = folder / f"page{number}.html"
        path.write_text(html, encoding="utf-8")
        files[path.name] = name
    done = subprocess.run(
        [
            JAVA,
            *JAVA_OPTIONS,
            "-jar",
            str(VNU),
            "--errors-only",
            "--format",
            "json",
            *map(str, folder.glob("*.html")),
        ],
        capture_output=True,
        text=True,
    )
    messages = json.loads(done.stderr or '{"messages": []}')["messages"]
    return [
        f"{files.get(m.get('url', '').rsplit('/', 1)[-1], m.get('url'))} line "
        f"{m.get('lastLine')}: {m['message']}"
        for m in messages
    ]


def test_every_page_is_valid_html(demo, tmp_path):
    """Every page of the site (tests/pages.py) as a visitor, a member and the arbiter."""
    pages = {}
    for role, account, admin in [
        ("visitor", None, False),
        ("member", MEMBER, False),
        ("arbiter", ARBITER, True),
    ]:
        client = client_for(account)
        for path in pages_of(account, admin=admin, public=role != "arbiter"):
            if role != "member" or members_own(path):
                pages[f"{role} {path}"] = client.get(path).content.decode()
    assert len(pages) > 80
    errors = errors_of(pages, tmp_path)
    assert errors == [], "\n".join(errors)
