"""Browser tests: Playwright drives Debian's Chromium (never `playwright install`)."""

from pathlib import Path

import pytest
import time_machine

from tests.browser.helpers import NOW, SCREENSHOTS, WIDTHS

CHROMIUM = "/usr/bin/chromium"


def pytest_collection_modifyitems(items):
    if not Path(CHROMIUM).exists():
        reason = (
            "Debian's Chromium is not installed (apt-get install chromium); .ci/run installs it"
        )
        for item in items:
            if "browser" in item.keywords:
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


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
