"""Issue 27: the public pages at phone and desktop width break no WCAG 2.2 A/AA rule of
axe-core, of any impact."""

import pytest

from competition.models import Participant
from tests.browser.accessibility import AXE, MISSING, violations
from tests.pages import PUBLIC_PAGES

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not AXE.exists(), reason=MISSING)]


def test_the_public_pages_break_no_wcag_rule(demo, live_server, page, width):
    player = Participant.objects.filter(member__isnull=False).order_by("pk").first()
    found = {}
    for path in [*PUBLIC_PAGES, f"/spelers/{player.pk}/"]:
        page.goto(f"{live_server.url}{path}")
        if broken := violations(page):
            found[path] = broken
    assert found == {}, "\n".join(
        f"{path}: {line}" for path, lines in found.items() for line in lines
    )
