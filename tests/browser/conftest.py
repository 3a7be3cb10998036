"""Browser tests: Playwright drives Debian's Chromium (never `playwright install`)."""

import pytest
import time_machine
from playwright.sync_api import expect

from tests.browser.chromium import ARGS, LIGHTEST
from tests.browser.helpers import BOUND, NOW, SCREENSHOTS, WIDTHS

CHROMIUM = LIGHTEST

# Every wait for what a page shows (expect's retrying assertions, actions, navigations) gets the
# same generous bound: with both cores busy a page can take many seconds to appear. It only ends
# a broken run; a passing test waits as long as the page takes.
expect.set_options(timeout=BOUND)


# A browser flow is dozens of page loads (the policy sweep over 40 pages): with both cores busy
# it takes minutes, not the two that pyproject.toml gives a test before calling it a hang.
BROWSER_TEST_TIMEOUT = 300


def pytest_collection_modifyitems(items):
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(pytest.mark.timeout(BROWSER_TEST_TIMEOUT))
    if CHROMIUM is None:
        reason = (
            "Debian's Chromium is not installed (apt-get install chromium-headless-shell, or "
            "chromium); .ci/run installs it"
        )
        for item in items:
            if "browser" in item.keywords:
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": list(ARGS),
    }


@pytest.fixture
def context(context):
    """pytest-playwright's browser context, with the bound above for actions and navigations."""
    context.set_default_timeout(BOUND)
    context.set_default_navigation_timeout(BOUND)
    return context


@pytest.fixture
def allow_orm_beside_playwright(monkeypatch):
    """Playwright's sync API runs an event loop in the test thread; the ORM must still work
    there. Only for browser tests: the deploy check refuses this variable anywhere else."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def transactional_db(allow_orm_beside_playwright, transactional_db):
    """The same database fixture, ordered inside the variable above (its flush needs it)."""
    return transactional_db


@pytest.fixture
def demo(transactional_db, demo_rows):
    """The demo season, loaded as on Sunday 22 November 2026 with the clock running from there."""
    demo_rows.load()
    with time_machine.travel(NOW, tick=True):
        yield


@pytest.fixture(params=WIDTHS)
def width(request, page):
    """Each browser test runs at phone and at desktop width."""
    page.set_viewport_size(WIDTHS[request.param])
    SCREENSHOTS.mkdir(exist_ok=True)
    return request.param
