"""What the browser tests share: the moment the demo is loaded at, the two widths, logging in."""

import re
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import expect

from tests.demo import DEMO_NOW

# How long a browser test waits for what it needs (a navigation, a heading, a URL), in ms.
BOUND = 60_000

NOW = DEMO_NOW  # a Sunday: round 13 is published, and played on Thursday
SCREENSHOTS = Path(__file__).parent / "screenshots"
WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}
ARBITER = ("wedstrijdleider", "dsc-demo-2026")
MEMBER = ("jan", "dsc-lid-2026")  # Jan de Zeeuw


def open_menu(page, width):
    """On a phone the menu is behind its button, which works once the page's script has run
    (it comes last in the page: a click while it still loads does nothing, and the page's
    heading can already be there), so it is pressed after that and waited for until open:
    the button says so at once, the menu once it has unfolded (a click on a link while it
    still unfolds can miss)."""
    if width == "phone":
        page.wait_for_load_state("domcontentloaded")
        button = page.get_by_role("button", name="Menu")
        button.click()
        expect(button).to_have_attribute("aria-expanded", "true")
        expect(page.locator("#menu")).to_have_class(re.compile(r"(^|\s)show(\s|$)"))


def log_in(page, url, account, next_path="/"):
    """Log in on the site's own login page and land on `next_path` (or the page that refuses):
    returns once the page the form leads to has loaded, however long a busy machine takes."""
    page.goto(f"{url}/accounts/login/?next={next_path}")
    page.get_by_label("Gebruikersnaam").fill(account[0])
    page.get_by_label("Wachtwoord").fill(account[1])
    with page.expect_navigation():
        page.get_by_role("button", name="Inloggen").click()


def laid_out(page):
    """Wait until the page and its stylesheets have loaded. A heading can be read as soon as the
    HTML is there; on a busy machine the CSS can still be on its way, and whatever is measured
    then (a width, a button's height) is the unstyled page's."""
    page.wait_for_load_state("load")


def fits_the_screen(page):
    """Nothing on the page sticks out sideways: the window never scrolls horizontally."""
    laid_out(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def screenshot(page, name, width, full_page=False):
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}-{width}.png"), full_page=full_page)


def local(address: str) -> str:
    """An e-mail's link (on SITE_URL) as a path and query, to open on the live server."""
    parts = urlsplit(address)
    return parts.path + (f"?{parts.query}" if parts.query else "")
