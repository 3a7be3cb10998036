"""The training corner for visitors: the list, an article, and what a visitor never sees."""

import re
from datetime import date, datetime

import pytest
import time_machine
from django.urls import reverse

from tests.moments import AMSTERDAM
from training.models import Article

# Thursday 12 November 2026, noon.
NOW = datetime(2026, 11, 12, 12, tzinfo=AMSTERDAM)
LIST = "/training/"


def text(page: str) -> str:
    return re.sub(r"<[^>]+>", "", page)


def make_article(slug, published_on, title=None, body="Tekst.", **fields):
    return Article.objects.create(
        slug=slug,
        title=title or slug.replace("-", " ").capitalize(),
        summary=f"Over {slug}.",
        body=body,
        published_on=published_on,
        **fields,
    )


@pytest.fixture
def articles(db):
    Article.objects.all().delete()  # the migration's draw article is not part of these tests
    return {
        "older": make_article("de-klok", date(2026, 9, 3), author="Marije de Boer"),
        "newer": make_article("het-notatiebiljet", date(2026, 11, 12)),
        "draft": make_article("nog-niet-af", None),
        "tomorrow": make_article("morgen", date(2026, 11, 13)),
    }


@time_machine.travel(NOW, tick=False)
def test_a_visitor_sees_the_published_articles_newest_first(client, articles):
    page = client.get(LIST).content.decode()
    assert page.index("Het notatiebiljet") < page.index("De klok")
    assert "Over het-notatiebiljet." in page and "12 november 2026" in page
    assert "3 september 2026 · door Marije de Boer" in text(page)
    assert "Nog niet af" not in page and "Morgen" not in page
    assert f'href="{reverse("training:article", args=["de-klok"])}"' in page


@time_machine.travel(NOW, tick=False)
def test_a_draft_or_an_article_before_its_date_is_not_found(client, articles):
    assert client.get("/training/de-klok/").status_code == 200
    assert client.get("/training/het-notatiebiljet/").status_code == 200  # from today on
    assert client.get("/training/nog-niet-af/").status_code == 404
    assert client.get("/training/morgen/").status_code == 404
    with time_machine.travel(datetime(2026, 11, 13, 0, 1, tzinfo=AMSTERDAM), tick=False):
        assert client.get("/training/morgen/").status_code == 200  # local midnight has passed


@time_machine.travel(NOW, tick=False)
def test_a_logged_in_writer_gets_no_draft_on_the_site_either(arbiter_client, articles):
    assert arbiter_client.get("/training/nog-niet-af/").status_code == 404
    assert "Nog niet af" not in arbiter_client.get(LIST).content.decode()


@time_machine.travel(NOW, tick=False)
def test_the_article_page_shows_the_markdown_rendered_and_typed_html_as_text(client, articles):
    make_article(
        "opmaak",
        date(2026, 11, 1),
        title="Opmaak",
        body="## Kopje\n\n- punt een\n- punt twee\n\n<script>alert('x')</script>\n\n"
        "[klik](javascript:alert(1)) <img src=x onerror=alert(1)>",
    )
    page = client.get("/training/opmaak/").content.decode()
    assert "<h2>Kopje</h2>" in page
    assert "<li>punt een</li>" in page
    assert "&lt;script&gt;alert('x')&lt;/script&gt;" in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page and "<img" not in page
    assert "<script>alert" not in page
    assert 'href="javascript' not in page
    assert "<h1" in page and page.count("<h1") == 1


@time_machine.travel(NOW, tick=False)
def test_the_navigation_leads_to_training_and_marks_it_on_an_article(client, articles):
    home = client.get("/").content.decode()
    assert '<a class="nav-link" href="/training/">Training</a>' in home
    article = client.get("/training/de-klok/").content.decode()
    assert '<a class="nav-link active" aria-current="page" href="/training/">Training</a>' in (
        article
    )


@time_machine.travel(NOW, tick=False)
def test_a_visitor_sees_an_article_once_it_is_published_despite_the_page_cache(client, articles):
    assert "Nog niet af" not in client.get(LIST).content.decode()  # now in the page cache
    articles["draft"].published_on = date(2026, 11, 12)
    articles["draft"].save()
    assert "Nog niet af" in client.get(LIST).content.decode()
    assert client.get("/training/nog-niet-af/").status_code == 200


@time_machine.travel(NOW, tick=False)
def test_the_list_says_so_when_there_are_no_articles(client, db):
    Article.objects.all().delete()
    assert "Er staan nog geen artikelen." in client.get(LIST).content.decode()


def test_the_draw_article_is_on_the_site_of_a_fresh_database(client, db):
    """Migration 0003 stored it, published from the day it ran."""
    page = client.get(LIST).content.decode()
    assert "Schaakregels: Remise" in page
    article = client.get("/training/schaakregels-remise/").content.decode()
    assert "<h2>Remise overeenkomen (art. 9.1.2)</h2>" in article
    assert "<li>Remise claimen (art. 9.2 t/m 9.5);</li>" in article
