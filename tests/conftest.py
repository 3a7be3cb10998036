"""Fixtures named after the people and things of the club."""

import os

import pytest
from django.contrib.auth.models import User
from django.core.cache import caches

from club.models import forget as forget_the_club
from competition import services
from competition.models import Round
from tests import hypothesis_profiles  # registers and loads the profile
from tests.demo import DemoRows
from tests.factories import make_arbiter, make_played_competition, worked_example_season
from tests.moments import EVENING_4, at
from tests.shared_files import shared_folder


def pytest_sessionfinish(session, exitstatus):
    """Where every tool is installed and the database is PostgreSQL (.ci/run sets
    DSC_NO_SKIPS), a test skipped for a missing tool (Chromium, axe-core, vnu, Caddy, ...) is a
    missing install step: the run fails instead of passing with it left out."""
    if not os.environ.get("DSC_NO_SKIPS") or exitstatus != 0:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if skipped:
        reasons = sorted({str(report.longrepr[-1]) for report in skipped})
        reporter.write_line(f"{len(skipped)} skipped where nothing may be: {'; '.join(reasons)}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_report_header():
    return f"hypothesis profile: {hypothesis_profiles.PROFILE} (HYPOTHESIS_PROFILE; CI runs 'ci')"


# The tests that take longest (measured with --durations under stress-ng): each group starts
# with them, so that no worker of pytest-xdist spends the run's last minute alone on one.
LONGEST_FIRST = (
    "tests/dsc_site/test_fuzz.py",
    "tests/competition/test_published_record.py",
    "tests/dsc_site/test_sqlite_sharing.py",
    "tests/dsc_site/test_valid_html.py",
    "tests/dsc_site/test_proxy_stack.py",
    "tests/dsc_site/test_image_tree.py",
    "tests/browser/test_every_page.py",
    "tests/browser/test_security.py",
    "tests/browser/test_rapid_evening.py",
)


def pytest_collection_modifyitems(items):
    """Browser tests run last: Playwright's sync API leaves an event loop in the main thread
    for the rest of the session, where Django refuses synchronous database work. Within each
    group the longest tests come first."""
    items.sort(
        key=lambda item: ("browser" in item.keywords, not item.nodeid.startswith(LONGEST_FIRST))
    )


@pytest.fixture(autouse=True)
def fresh_error_reports():
    """Each test starts with no error reported (operations.reports counts across a process) and
    no fair-use counts (base.fair_use)."""
    caches["reports"].clear()
    caches["limits"].clear()
    forget_the_club()  # the club's row as this test's database has it, not the last test's


@pytest.fixture(scope="session")
def demo_rows(tmp_path_factory):
    """The demo season's rows, built by the first test of the run that asks (see tests/demo.py):
    under pytest-xdist in the folder that every worker's own temporary folder sits in."""
    return DemoRows(shared_folder(tmp_path_factory))


@pytest.fixture
def demo(db, demo_rows):
    """The demo season as `load_demo` stores it on Sunday 22 November 2026."""
    demo_rows.load()


@pytest.fixture
def arbiter(db):
    return make_arbiter()


@pytest.fixture
def arbiter_client(client, arbiter):
    client.force_login(arbiter)
    return client


@pytest.fixture
def example_competition(db):
    """The seed's worked example (10 players, 3 rounds) stored as a played competition."""
    competition, participant = make_played_competition(worked_example_season())
    competition.participant = participant  # engine id -> primary key, for the tests
    return competition


@pytest.fixture
def round_4(example_competition):
    """The worked example's next club evening, not paired yet (published Friday 20:00)."""
    return Round.objects.create(
        competition=example_competition, number=4, date=EVENING_4, publish_at=at(20)
    )


@pytest.fixture
def paired_round_4(round_4):
    """Round 4 with the engine's draft pairing, not published."""
    services.make_pairing(round_4)
    round_4.refresh_from_db()
    return round_4


@pytest.fixture
def published_round_4(paired_round_4):
    """Round 4 paired and published on the Friday before its evening (20:00)."""
    services.publish(paired_round_4, at(20))
    paired_round_4.refresh_from_db()
    return paired_round_4


@pytest.fixture
def jansen(example_competition):
    """Jansen, a member of the worked example with an account; everyone has an e-mail."""
    member = example_competition.participants.get(member__name="Jansen").member
    member.email = "jansen@example.org"
    member.user = User.objects.create_user("jansen", password="jansen-password")
    member.save()
    for participant in example_competition.participants.select_related("member"):
        if not participant.member.email:
            participant.member.email = f"{participant.member.name.replace(' ', '')}@example.org"
            participant.member.save()
    return member


@pytest.fixture
def jansen_client(client, jansen):
    client.force_login(jansen.user)
    return client
