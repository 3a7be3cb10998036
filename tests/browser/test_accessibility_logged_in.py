"""Issue 27: a member's pages and the arbiter's main pages (the start page, a round, its
results, ranking 0, a newcomer, two of the admin's lists) break no WCAG 2.2 A/AA rule of
axe-core, at phone and desktop width. Found and fixed: the results page's 20 inputs had no
label a screen reader reads, a member's own row's name was 4.06:1 on its yellow, the admin's
breadcrumbs and invitation links were told apart by colour alone, its filters were small
targets. The rest of the admin's pages are still to be added."""

import pytest

from competition.models import Competition, Round
from tests.browser.accessibility import AXE, MISSING, violations
from tests.browser.helpers import ARBITER, MEMBER, log_in

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not AXE.exists(), reason=MISSING)]


def test_a_members_and_the_arbiters_pages_break_no_wcag_rule(demo, live_server, page, width):
    found = {}
    log_in(page, live_server.url, MEMBER, "/")
    for path in ["/", "/ranglijst/", "/afmelden/", "/profiel/"]:
        page.goto(f"{live_server.url}{path}")
        if broken := violations(page):
            found[f"member {path}"] = broken
    page.context.clear_cookies()
    log_in(page, live_server.url, ARBITER, "/beheer/")
    round_ = Round.objects.filter(published_at__isnull=False).order_by("-number").first()
    competition = Competition.objects.order_by("pk").first()
    for path in [
        "/beheer/",
        f"/beheer/ronde/{round_.pk}/",
        f"/beheer/ronde/{round_.pk}/uitslagen/",
        f"/beheer/competitie/{competition.pk}/ranglijst-0/",
        f"/beheer/competitie/{competition.pk}/nieuwe-speler/",
        "/beheer/competition/round/",
        "/beheer/members/member/",
    ]:
        page.goto(f"{live_server.url}{path}")
        if broken := violations(page):
            found[f"arbiter {path}"] = broken
    assert found == {}, "\n".join(f"{p}: {line}" for p, lines in found.items() for line in lines)
