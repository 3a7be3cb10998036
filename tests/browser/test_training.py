"""The training corner in a real browser, at phone and desktop width: a visitor reads the draw
article from the menu; a board member writes an article in Markdown, previews the draft
(visitors get a 404) and publishes it."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import WIDTHS, fits_the_screen, open_menu, screenshot

pytestmark = pytest.mark.browser
BOARD_MEMBER = ("bestuur", "dsc-bestuur-2026")
MARKDOWN = """## Wat je meeneemt

Een pen, en je **notatiebiljet**:

- noteer elke zet, ook die van je tegenstander;
- onder de 5 minuten zonder increment mag je stoppen.

<script>alert('niet doen')</script>
"""


def test_a_visitor_opens_training_from_the_menu_and_reads_the_draw_article(
    demo, live_server, page, width
):
    page.goto(f"{live_server.url}/")
    open_menu(page, width)
    page.get_by_role("link", name="Training", exact=True).click()
    expect(page.locator("h1")).to_have_text("Training")
    expect(page.locator('nav a[aria-current="page"]')).to_have_text("Training")
    entry = page.locator("article.article-summary", has_text="Schaakregels: Remise")
    expect(entry).to_contain_text("Remise overeenkomen, remise claimen of een remisestelling")
    fits_the_screen(page)
    screenshot(page, "training-list", width)

    entry.get_by_role("link", name="Schaakregels: Remise").click()
    expect(page.locator("h1")).to_have_text("Schaakregels: Remise")
    heading = page.get_by_role("heading", name="Remise overeenkomen (art. 9.1.2)", level=2)
    expect(heading).to_be_visible()
    ways = page.locator(".article-body ul").first.get_by_role("listitem")
    expect(ways).to_have_text(
        [
            "Remise overeenkomen (art. 9.1.2);",
            "Remise claimen (art. 9.2 t/m 9.5);",
            "Een remisestelling bereiken (art. 5.2 en 9.6).",
        ]
    )
    screenshot(page, "training-article", width)
    steps = page.get_by_role("heading", name="driemaal dezelfde stelling (art. 9.2)")
    steps.scroll_into_view_if_needed()
    step_5 = page.get_by_role("listitem").filter(has_text="Zet dan pas de klok stil.")
    expect(step_5).to_be_visible()
    fits_the_screen(page)
    # Lines a reader can follow: at most about 70 characters on a wide screen, the text from
    # edge to edge (less the margins) on a phone, never smaller than the phone's 16 px.
    body = page.locator(".article-body")
    size = float(body.evaluate("element => getComputedStyle(element).fontSize")[:-2])
    assert size >= 16
    characters_per_line = body.bounding_box()["width"] / (size * 0.5)  # ~0.5 em a character
    if width == "desktop":
        assert characters_per_line <= 80
    else:
        assert body.bounding_box()["width"] >= WIDTHS["phone"]["width"] - 40
    screenshot(page, "training-article-steps", width)


def test_a_board_member_writes_an_article_in_markdown_and_publishes_it(
    demo, live_server, page, width, browser
):
    visitor = browser.new_page(viewport=WIDTHS[width])
    page.goto(f"{live_server.url}/beheer/")
    page.get_by_label("Gebruikersnaam").fill(BOARD_MEMBER[0])
    page.get_by_label("Wachtwoord").fill(BOARD_MEMBER[1])
    page.get_by_role("button", name="Inloggen").click()
    page.get_by_role("link", name="Artikelen").click()
    expect(page.get_by_role("link", name="Schaakregels: Remise")).to_be_visible()
    page.get_by_role("link", name="Artikel toevoegen").click()
    expect(page.get_by_label("Auteur")).to_have_value("Marije de Boer")

    page.get_by_label("Titel").press_sequentially("Het notatiebiljet")
    expect(page.get_by_label("Adres")).to_have_value("het-notatiebiljet")  # made from the title
    page.get_by_label("Inleiding").fill("Wat je noteert, en wanneer je mag stoppen.")
    page.get_by_label("Tekst").fill(MARKDOWN)
    screenshot(page, "training-admin-add", width, full_page=True)
    page.get_by_role("button", name="Opslaan", exact=True).click()

    # Saved as a draft: in the list as such, readable in the preview, a 404 for visitors.
    row = page.locator("#result_list tr", has_text="Het notatiebiljet")
    expect(row).to_contain_text("Concept")
    row.get_by_role("link", name="Voorbeeld").click()
    expect(page.get_by_role("status")).to_contain_text(
        "Voorbeeld. Dit artikel is een concept: bezoekers zien het niet."
    )
    expect(page.get_by_role("heading", name="Wat je meeneemt", level=2)).to_be_visible()
    expect(page.locator(".article-body li").first).to_have_text(
        "noteer elke zet, ook die van je tegenstander;"
    )
    expect(page.locator(".article-body")).to_contain_text("<script>alert('niet doen')</script>")
    screenshot(page, "training-preview", width)
    response = visitor.goto(f"{live_server.url}/training/het-notatiebiljet/")
    assert response.status == 404
    expect(visitor.locator("h1")).to_have_text("Pagina niet gevonden")
    visitor.goto(f"{live_server.url}/training/")
    expect(visitor.locator("main")).not_to_contain_text("Het notatiebiljet")

    # Published from today (typed: the admin's "Vandaag" shortcut reads the browser's clock,
    # which the tests cannot move to the demo's Sunday).
    page.get_by_role("link", name="Terug naar het artikel in het beheer").click()
    expect(page.get_by_role("link", name="Vandaag")).to_be_visible()
    page.get_by_label("Gepubliceerd op").fill("22-11-2026")
    page.get_by_role("button", name="Opslaan", exact=True).click()
    expect(page.locator("#result_list tr", has_text="Het notatiebiljet")).to_contain_text(
        "22 november 2026"
    )

    visitor.goto(f"{live_server.url}/training/")
    entries = visitor.locator("article.article-summary h2")
    expect(entries).to_have_text(["Het notatiebiljet", "Schaakregels: Remise"])
    visitor.get_by_role("link", name="Het notatiebiljet").click()
    expect(visitor.get_by_role("heading", name="Wat je meeneemt", level=2)).to_be_visible()
    expect(visitor.locator(".article-body strong")).to_have_text("notatiebiljet")
    byline = visitor.locator(".article-byline")
    expect(byline).to_have_text("22 november 2026 · door Marije de Boer")
    assert visitor.locator(".article-body script").count() == 0
    screenshot(visitor, "training-new-article", width)
    visitor.close()
