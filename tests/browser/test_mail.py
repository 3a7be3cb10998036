"""What people do with the site's e-mail, in the browser at phone and desktop width: a member
turns off one kind of e-mail from the link in it, without logging in; the arbiter sees an
e-mail that did not arrive on the start page and sends it again."""

from urllib.parse import urlsplit

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from members import unsubscribe
from members.models import Member
from operations.models import OutgoingMail
from tests.browser.helpers import ARBITER, fits_the_screen, log_in, screenshot

pytestmark = pytest.mark.browser


def test_a_member_turns_off_the_pairing_mail_from_its_link_without_logging_in(
    demo, live_server, page, width
):
    jan = Member.objects.get(name="Jan de Zeeuw")
    address = urlsplit(unsubscribe.address(jan, "mail_pairing"))
    page.goto(f"{live_server.url}{address.path}?{address.query}")
    expect(page.locator("h1")).to_have_text("E-mails uitzetten")
    assert (
        "Jan de Zeeuw: wil je deze e-mails niet meer krijgen: De indeling?"
        in page.locator("main").inner_text()
    )
    assert Member.objects.get(pk=jan.pk).mail_pairing  # opening the link changes nothing
    screenshot(page, "mail-unsubscribe-ask", width)
    page.get_by_role("button", name="Uitzetten").click()
    expect(page.get_by_role("status")).to_have_text(
        "Klaar: deze e-mails krijg je niet meer: De indeling."
    )
    fits_the_screen(page)
    screenshot(page, "mail-unsubscribe-done", width)
    jan.refresh_from_db()
    assert (jan.mail_pairing, jan.mail_confirmations) == (False, True)


def test_a_member_without_an_account_turns_the_mail_on_again_on_the_same_page(
    demo, live_server, page, width
):
    """No profile to go to without an account (issue 37): the page itself turns it back on."""
    member = Member.objects.filter(user__isnull=True).exclude(email="").order_by("name").first()
    address = urlsplit(unsubscribe.address(member, "mail_ranking"))
    page.goto(f"{live_server.url}{address.path}?{address.query}")
    page.get_by_role("button", name="Uitzetten").click()
    expect(page.get_by_role("link", name="Mijn profiel")).to_have_count(0)
    page.get_by_role("button", name="Weer aanzetten").click()
    expect(page.get_by_role("status")).to_have_text(
        "Klaar: deze e-mails krijg je weer: De nieuwe ranglijst."
    )
    fits_the_screen(page)
    screenshot(page, "mail-unsubscribe-on-again", width)
    member.refresh_from_db()
    assert member.mail_ranking is True


def test_the_arbiter_sends_an_email_that_did_not_arrive_again(demo, live_server, page, width):
    now = timezone.now()
    row = OutgoingMail.objects.create(
        created_at=now,
        next_try_at=now,
        kind="pairing",
        recipient="jan@example.org",
        subject="DSC: je indeling voor ronde 13",
        message={},
        state=OutgoingMail.State.FAILED,
        tries=1,
        last_error="SMTPRecipientsRefused: {'jan@example.org': (550, b'No such user here')}",
    )
    log_in(page, live_server.url, ARBITER, "/beheer/")
    failed = page.locator(".week-mail-failed")
    expect(failed.get_by_role("heading")).to_have_text("E-mails die niet aankwamen")
    assert "jan@example.org: DSC: je indeling voor ronde 13" in failed.inner_text()
    assert "No such user here" in failed.inner_text()
    fits_the_screen(page)
    screenshot(page, "arbiter-mail-failed", width, full_page=True)
    failed.get_by_role("button", name="Opnieuw versturen").click()
    expect(page.locator(".messagelist")).to_contain_text(
        "De e-mail aan jan@example.org gaat opnieuw weg bij de volgende ronde van de worker."
    )
    expect(page.locator(".week-mail-failed")).to_have_count(0)
    row.refresh_from_db()
    assert row.state == OutgoingMail.State.WAITING
