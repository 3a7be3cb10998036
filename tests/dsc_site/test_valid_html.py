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

from competition.models import Competition, Participant, Round
from tests.browser.helpers import ARBITER, MEMBER
from tests.pages import PUBLIC_PAGES

VNU = (
    Path(__file__).resolve().parents[2] / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
)
JAVA = shutil.which("java")

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


def test_the_sites_own_pages_are_valid_html(demo, tmp_path):
    player = Participant.objects.filter(member__isnull=False).order_by("pk").first()
    visitor, member, arbiter = Client(), as_user(MEMBER), as_user(ARBITER)
    round_ = Round.objects.filter(published_at__isnull=False).order_by("-number").first()
    competition = Competition.objects.order_by("pk").first()
    asked = [("visitor", visitor, path) for path in [*PUBLIC_PAGES, f"/spelers/{player.pk}/"]]
    asked += [("member", member, path) for path in ["/ranglijst/", "/afmelden/", "/profiel/"]]
    asked += [
        ("arbiter", arbiter, path)
        for path in [
            f"/beheer/ronde/{round_.pk}/uitslagen/",
            f"/beheer/competitie/{competition.pk}/ranglijst-0/",
            f"/beheer/competitie/{competition.pk}/nieuwe-speler/",
        ]
    ]
    pages = {}
    for role, client, path in asked:
        response = client.get(path)
        assert response.status_code == 200, path
        pages[f"{role} {path}"] = response.content.decode()
    errors = errors_of(pages, tmp_path)
    assert errors == [], "\n".join(errors)
