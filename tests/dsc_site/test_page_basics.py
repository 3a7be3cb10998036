"""What every page gives everyone (issue 27, first steps): a skip link to the content, a meta
description (its own on the main public pages), and an icon at /favicon.ico (a 404 before)."""

import re

import pytest
from django.urls import reverse


def description(page: str) -> str:
    return re.search(r'<meta name="description" content="([^"]+)">', page)[1]


def test_every_page_starts_with_a_skip_link_to_the_content(client, example_competition):
    page = client.get(reverse("competition:standings")).content.decode()
    body = page.split("<body>", 1)[1].lstrip()
    assert body.startswith('<a class="visually-hidden-focusable skip-link" href="#inhoud">')
    assert "Naar de inhoud" in body.split("</a>", 1)[0]
    assert re.search(r'<main class="container mb-5[^"]*" id="inhoud" tabindex="-1">', page)


def test_the_main_public_pages_describe_themselves(client, example_competition):
    player = example_competition.participants.first()
    pages = {
        name: client.get(url).content.decode()
        for name, url in {
            "home": reverse("competition:home"),
            "standings": reverse("competition:standings"),
            "pairing": reverse("competition:pairing"),
            "player": reverse("competition:player", args=[player.pk]),
            "prizes": reverse("competition:prizes"),
        }.items()
    }
    described = {name: description(page) for name, page in pages.items()}
    assert len(set(described.values())) == len(described)  # each its own
    assert player.name in described["player"]
    assert all(len(text) >= 50 for text in described.values())


@pytest.mark.django_db
def test_the_favicon_is_there(client):
    answer = client.get("/favicon.ico")
    assert answer.status_code == 301
    icon = client.get(answer["Location"])
    assert icon.status_code == 200
    assert b"<svg" in b"".join(icon.streaming_content if icon.streaming else [icon.content])


def test_every_page_links_the_accessibility_statement_in_dutch(client, example_competition):
    page = client.get(reverse("competition:standings")).content.decode()
    assert '<a href="/toegankelijkheid/">Toegankelijkheid</a>' in page
    statement = client.get("/toegankelijkheid/").content.decode()
    assert "WCAG 2.2 niveau AA" in statement and "axe-core" in statement
    assert "Wat nog niet goed werkt" in statement
    assert 'href="mailto:wedstrijdleider@dscdrachten.nl"' in statement
