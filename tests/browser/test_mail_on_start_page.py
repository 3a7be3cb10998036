"""An e-mail that may have arrived (issue 35: the mail server kept it and never answered), on
the arbiter's start page in a real browser at phone and desktop width: what it means, and the
two choices."""

import pytest
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect

from operations import outbox
from operations.models import OutgoingMail
from tests.browser.helpers import ARBITER, fits_the_screen, screenshot
from tests.smtp import HANG_UP, smtp_server

__all__ = ["smtp_server"]

pytestmark = pytest.mark.browser

MAYBE_DELIVERED = "E-mails die mogelijk zijn aangekomen"


def test_the_arbiter_sees_a_mail_that_may_have_arrived_and_leaves_it_as_sent(
    demo, smtp_server, live_server, page, width
):
    smtp_server.mailbox.after_data["jan@example.org"] = HANG_UP
    mail.send_mail("DSC: indeling ronde 14", "Bord 3", None, ["jan@example.org"])
    for _ in range(10):  # the demo's own mail goes out first
        outbox.deliver(timezone.now())
        if not OutgoingMail.objects.filter(state="waiting").exists():
            break

    page.goto(f"{live_server.url}/beheer/")
    page.get_by_label("Gebruikersnaam").fill(ARBITER[0])
    page.get_by_label("Wachtwoord").fill(ARBITER[1])
    with page.expect_navigation():
        page.get_by_role("button", name="Inloggen").click()

    card = page.get_by_role("article", name=MAYBE_DELIVERED)
    expect(card).to_contain_text(
        "Elke e-mail is helemaal verstuurd, maar de mailserver heeft hem niet bevestigd"
    )
    expect(card).to_contain_text("Verstuur hem alleen opnieuw als het lid hem niet kreeg")
    expect(card).to_contain_text("jan@example.org: DSC: indeling ronde 14")
    expect(card).to_contain_text("ReplyLost: no reply after the whole message was sent")
    expect(card.get_by_role("button", name="Opnieuw versturen", exact=True)).to_be_visible()
    leave = card.get_by_role("button", name="Niet opnieuw versturen", exact=True)
    expect(leave).to_be_visible()
    fits_the_screen(page)
    card.scroll_into_view_if_needed()
    screenshot(page, "arbiter-mail-maybe-delivered", width)

    leave.click()
    expect(page.locator("ul.messagelist")).to_contain_text(
        "De e-mail aan jan@example.org wordt niet opnieuw verstuurd."
    )
    expect(page.get_by_role("article", name=MAYBE_DELIVERED)).to_have_count(0)
    assert set(smtp_server.mailbox.copies().values()) == {1}  # each message once
