"""The keyboard's first stop on every public page is "Naar de inhoud": visible when it has the
focus, and Enter puts the focus on the page's content, past the menu (phone and desktop)."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import screenshot

pytestmark = pytest.mark.browser


def test_the_skip_link_takes_the_keyboard_past_the_menu(demo, live_server, page, width):
    page.goto(f"{live_server.url}/ranglijst/")
    skip = page.get_by_role("link", name="Naar de inhoud")
    assert not skip.is_visible() or skip.bounding_box()["width"] <= 1  # hidden until focused
    page.keyboard.press("Tab")
    expect(skip).to_be_focused()
    box = skip.bounding_box()
    assert box["width"] > 50 and 0 <= box["y"] < 100  # shown at the top
    screenshot(page, "skip-link", width)
    page.keyboard.press("Enter")
    expect(page.locator("main#inhoud")).to_be_focused()
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.closest('main') !== null")
    assert focused  # the next stop is in the content, not the menu


def test_the_accessibility_statement_is_reached_from_every_page(demo, live_server, page, width):
    page.goto(f"{live_server.url}/indeling/")
    page.get_by_role("link", name="Toegankelijkheid").click()
    expect(page.locator("h1")).to_have_text("Toegankelijkheid")
    expect(page.get_by_role("heading", name="Wat nog niet goed werkt")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    screenshot(page, "accessibility-statement", width, full_page=True)
