"""Every kind of e-mail fits a phone (issue 37): the HTML part as stored and delivered
(tests/mail_samples.py), shown by Chromium at 360 px, is no wider than the screen; what the reader
follows are buttons or short words, not 150-character addresses (the text part keeps those)."""

import pytest

from operations.letters import Kind
from tests.browser.helpers import screenshot
from tests.mail_samples import one_of_each, smtp_server

__all__ = ["one_of_each", "smtp_server"]

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
SITE = "https://dsc.example.org"  # the footer's address of the site, short as it is


def html_of(arrived) -> str:
    return arrived.message.get_body(("html",)).get_content()


def links(page) -> list[tuple[str, str]]:
    """(visible text, address) of every web link in the shown e-mail."""
    return [
        (text.strip(), href)
        for text, href in page.eval_on_selector_all(
            "a[href^='http']", "links => links.map(a => [a.innerText, a.href])"
        )
    ]


@pytest.fixture
def phone(transactional_db, page):
    page.set_viewport_size(PHONE)
    return page


def test_every_kind_of_email_fits_a_phone_of_360_pixels(phone, one_of_each):
    for kind, arrived in sorted(one_of_each.items()):
        phone.set_content(html_of(arrived))
        screenshot(phone, f"mail-{kind}", 360, full_page=True)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], (kind, width)


def test_what_a_member_follows_is_a_few_words_not_an_address(phone, one_of_each):
    for kind, arrived in one_of_each.items():
        if kind == Kind.ERROR:  # a report to the administrators quotes the request as it came
            continue
        phone.set_content(html_of(arrived))
        for text, href in links(phone):
            if href.rstrip("/") == SITE:
                continue
            assert "://" not in text and len(text) <= 30, (kind, text)
            assert text, (kind, href)


def test_the_pairing_mail_offers_its_actions_as_buttons(phone, one_of_each):
    phone.set_content(html_of(one_of_each[Kind.PAIRING]))
    texts = [text for text, _href in links(phone)]
    assert "Ik kan niet komen" in texts
    assert "Uitslag doorgeven" in texts
    assert "Met één klik zet je ze uit" in texts  # the footer's one-click unsubscribe
    button = phone.get_by_role("link", name="Ik kan niet komen")
    box = button.bounding_box()
    assert box["height"] >= 40 and box["width"] < PHONE["width"]  # a finger's size, on screen
    text = one_of_each[Kind.PAIRING].message.get_body(("plain",)).get_content()
    assert "Ik kan niet komen: https://dsc.example.org/afmelden/link/?code=" in text
