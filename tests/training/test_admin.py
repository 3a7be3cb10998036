"""Writing articles in the admin: who may, the form in Dutch, the preview, the history."""

from datetime import date, datetime

import pytest
import time_machine
from django.contrib.auth.models import Group, User

from tests.factories import make_arbiter
from tests.moments import AMSTERDAM
from training.models import Article

NOW = datetime(2026, 11, 12, 12, tzinfo=AMSTERDAM)
ADD = "/beheer/training/article/add/"
CHANGE_LIST = "/beheer/training/article/"
MARKDOWN = "## Wat je meeneemt\n\n- een pen\n- je **notatiebiljet**\n"


def board_member(username="secretaris"):
    """A board member as production has them: staff, in the group Bestuur (migration 0002)."""
    user = User.objects.create_user(username, password="bestuur-password", is_staff=True)
    user.groups.add(Group.objects.get(name="Bestuur"))
    return user


def new_article(**changes):
    return {
        "title": "Het notatiebiljet",
        "slug": "het-notatiebiljet",
        "summary": "Wat je noteert, en wanneer je mag stoppen.",
        "body": MARKDOWN,
        "author": "Marije de Boer",
        "published_on": "12-11-2026",
        **changes,
    }


@pytest.fixture
def board_client(client, db):
    client.force_login(board_member())
    return client


@time_machine.travel(NOW, tick=False)
@pytest.mark.parametrize("writer", ["board member", "arbiter"])
def test_the_board_and_the_arbiter_write_an_article_that_visitors_then_read(client, db, writer):
    user = board_member() if writer == "board member" else make_arbiter()
    client.force_login(user)
    response = client.post(ADD, new_article())
    assert response.status_code == 302, response.content.decode()
    article = Article.objects.get(slug="het-notatiebiljet")
    assert article.published_on == date(2026, 11, 12)
    assert article.history.get().history_user == user  # who wrote it, in the history
    client.logout()
    page = client.get("/training/het-notatiebiljet/").content.decode()
    assert "<h2>Wat je meeneemt</h2>" in page
    assert "<li>je <strong>notatiebiljet</strong></li>" in page


def test_a_member_or_other_staff_may_not_write_articles(client, db):
    member = User.objects.create_user("jan", password="jan-password")
    client.force_login(member)
    assert client.get(ADD).status_code == 302  # to the admin's login: not staff
    staff = User.objects.create_user("penningmeester", password="x", is_staff=True)
    client.force_login(staff)
    assert client.get(ADD).status_code == 403
    assert client.post(ADD, new_article()).status_code == 403
    assert not Article.objects.filter(slug="het-notatiebiljet").exists()
    for user in (member, staff):
        assert not user.has_perm("training.add_article")
        assert not user.has_perm("training.change_article")


def test_the_demo_has_a_board_member_and_an_arbiter_who_may_write(demo):
    for username in ("bestuur", "wedstrijdleider"):
        user = User.objects.get(username=username)
        assert user.is_staff
        assert user.has_perms(["training.add_article", "training.change_article"])
    assert not User.objects.get(username="jan").has_perm("training.add_article")
    # The board member sees nothing else of the management pages.
    assert not User.objects.get(username="bestuur").has_perm("competition.view_round")
    # The draw article, published on the season's first club evening (Thursday 3 September).
    draw = Article.objects.get(slug="schaakregels-remise")
    assert draw.title == "Schaakregels: Remise" and draw.published_on == date(2026, 9, 3)


def test_the_form_and_the_list_speak_dutch(board_client):
    form = board_client.get(ADD).content.decode()
    for label in ("Titel", "Adres", "Inleiding", "Tekst", "Auteur", "Gepubliceerd op"):
        assert f">{label}:</label>" in form
    assert "Markdown: ## kopje, - opsomming" in form
    assert "Leeg: een concept, alleen te zien in het beheer." in form
    assert "Artikel toevoegen" in form
    listing = board_client.get(CHANGE_LIST).content.decode()
    for header in ("Titel", "Gepubliceerd op", "Bijgewerkt op", "Voorbeeld"):
        assert f">{header}</a>" in listing or f"<span>{header}</span>" in listing, header
    assert "Schaakregels: Remise" in listing


def test_the_author_is_the_writer_unless_changed(client, db):
    user = board_member()
    user.first_name, user.last_name = "Marije", "de Boer"
    user.save()
    client.force_login(user)
    assert 'name="author" value="Marije de Boer"' in client.get(ADD).content.decode()


def test_a_bad_article_is_refused_in_dutch_and_nothing_is_stored(board_client):
    board_client.post(ADD, new_article())
    response = board_client.post(
        ADD, new_article(title="", summary="x" * 401, published_on="31-02-2026")
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Dit veld is verplicht." in page
    assert "Zorg dat deze waarde niet meer dan 400 tekens bevat (het zijn er nu 401)." in page
    assert "Voer een geldige datum in." in page
    assert "Er is al een artikel met dit adres." in page
    assert Article.objects.filter(slug="het-notatiebiljet").count() == 1


@time_machine.travel(NOW, tick=False)
def test_the_preview_shows_a_draft_as_a_visitor_will_read_it(board_client, client):
    board_client.post(ADD, new_article(published_on=""))
    draft = Article.objects.get(slug="het-notatiebiljet")
    preview = f"/beheer/training/article/{draft.pk}/voorbeeld/"
    page = board_client.get(preview).content.decode()
    assert "Voorbeeld. Dit artikel is een concept: bezoekers zien het niet." in page
    assert "<h2>Wat je meeneemt</h2>" in page
    assert f'href="/beheer/training/article/{draft.pk}/change/"' in page
    change = board_client.get(f"/beheer/training/article/{draft.pk}/change/").content.decode()
    assert f'href="{preview}"' in change
    assert 'href="/training/het-notatiebiljet/"' not in change  # no "view on site" for a draft
    # A plain member, or a visitor, gets no preview.
    client.force_login(User.objects.create_user("jan", password="jan-password"))
    assert client.get(preview).status_code == 302
    client.logout()
    assert client.get(preview).status_code == 302
    assert client.get("/training/het-notatiebiljet/").status_code == 404


@time_machine.travel(NOW, tick=False)
def test_a_published_article_links_to_its_page_and_its_preview_says_so(board_client):
    board_client.post(ADD, new_article())
    article = Article.objects.get(slug="het-notatiebiljet")
    change = board_client.get(f"/beheer/training/article/{article.pk}/change/").content.decode()
    assert "/training/het-notatiebiljet/" in change  # view on site, through the admin's redirect
    page = board_client.get(f"/beheer/training/article/{article.pk}/voorbeeld/").content.decode()
    assert "Voorbeeld. Dit artikel staat op de site." in page
    board_client.post(
        f"/beheer/training/article/{article.pk}/change/", new_article(published_on="20-11-2026")
    )
    page = board_client.get(f"/beheer/training/article/{article.pk}/voorbeeld/").content.decode()
    assert "Voorbeeld. Dit artikel verschijnt op 20 november 2026 op de site." in page
    assert "viewsitelink" in change  # published: "view on site"
    later = board_client.get(f"/beheer/training/article/{article.pk}/change/").content.decode()
    assert "viewsitelink" not in later  # dated later: its page is a 404 until then


def test_the_history_tells_who_changed_what_in_dutch(board_client):
    board_client.post(ADD, new_article())
    article = Article.objects.get(slug="het-notatiebiljet")
    board_client.post(
        f"/beheer/training/article/{article.pk}/change/", new_article(title="Noteren")
    )
    page = board_client.get(f"/beheer/training/article/{article.pk}/history/").content.decode()
    assert "Geschiedenis van Noteren" in page
    assert "secretaris" in page
    assert "Het notatiebiljet" in page and "Noteren" in page
