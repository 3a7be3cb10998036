"""Public pages from the shared cache (base/page_cache.py): a visitor's page is rendered once
per change, every kind of change shows at once, and nobody is given another person's copy."""

import gzip
from datetime import UTC, date, datetime, timedelta
from fractions import Fraction

import pytest
import time_machine
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import caches
from django.db import connection, transaction
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import path, reverse
from django.utils import timezone

from base import page_cache
from clubweek import worker
from competition import lineup, seasons, services
from members.models import Member
from operations import backups
from operations.models import OutgoingMail
from tests.moments import at

STANDINGS = reverse("competition:standings")
PAIRING = reverse("competition:pairing")


def from_cache(client: Client, url: str) -> str:
    """The page, which must come from the cache: the database is asked nothing, but for a
    logged-in reader the one question whether their session is a live login."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    asked = [query["sql"] for query in queries.captured_queries]
    if settings.SESSION_COOKIE_NAME in client.cookies and asked:
        session, *asked = asked
        assert session.startswith('SELECT "django_session"'), session
    assert not asked, f"{url} was rendered again"
    return response.content.decode()


def cached(client: Client, url: str) -> str:
    """The page as a visitor sees it, rendered and stored (proved by a second request)."""
    page = client.get(url).content.decode()
    assert from_cache(client, url) == page
    return page


@pytest.fixture(autouse=True)
def one_minute():
    """A stored page is kept for its minute: the clock stands still at the start of one, so a
    slow first render never crosses into the next (a test may still travel on its own)."""
    now = datetime.now(UTC).replace(second=0, microsecond=0)
    with time_machine.travel(now, tick=False):
        yield


@pytest.fixture
def visitor():
    return Client()


def test_a_visitors_page_is_rendered_once_and_keeps_the_security_headers(
    visitor, example_competition
):
    for url in (STANDINGS, PAIRING, reverse("competition:home"), reverse("competition:prizes")):
        cached(visitor, url)
    response = visitor.get(STANDINGS)
    assert "default-src 'self'" in response["Content-Security-Policy"]
    assert response["Permissions-Policy"]
    assert response["Content-Type"] == "text/html; charset=utf-8"


def test_entered_results_show_at_once(visitor, paired_round_4):
    with time_machine.travel(at(21), tick=False):
        services.publish(paired_round_4, at(21))
        assert "Ranglijst 3, na ronde 3." in cached(visitor, STANDINGS)
        services.enter_results(paired_round_4, {g.pk: "1-0" for g in paired_round_4.games.all()})
        assert "Ranglijst 4, na ronde 4." in visitor.get(STANDINGS).content.decode()


def test_a_pairing_the_arbiter_publishes_shows_at_once(visitor, paired_round_4):
    with time_machine.travel(at(12), tick=False):
        assert "Indeling van ronde 4" not in cached(visitor, PAIRING)
        services.publish(paired_round_4, at(12))
        assert "Indeling van ronde 4" in visitor.get(PAIRING).content.decode()


def test_the_workers_publication_at_eight_shows_at_once(visitor, paired_round_4):
    with time_machine.travel(at(20), tick=False):
        assert "Indeling van ronde 4" not in cached(visitor, PAIRING)
        worker.run_pass(at(20))
        assert "Indeling van ronde 4" in visitor.get(PAIRING).content.decode()


def test_a_cancellation_after_publication_shows_at_once(visitor, paired_round_4):
    with time_machine.travel(at(21), tick=False):
        services.publish(paired_round_4, at(21))
        game = paired_round_4.games.select_related("white__member").first()
        assert "reglementair" not in cached(visitor, PAIRING)
        services.record_forfeit(paired_round_4, game.white)
        assert "reglementair" in visitor.get(PAIRING).content.decode()


def test_a_newcomer_shows_at_once(visitor, example_competition):
    cached(visitor, STANDINGS)
    newcomer = Member.objects.create(name="Nieuwkomer Nelis")
    lineup.add_newcomer(example_competition, newcomer, 4, Fraction(40), at(12))
    assert "Nieuwkomer Nelis" in visitor.get(STANDINGS).content.decode()


def test_a_new_season_and_a_closed_one_show_at_once(visitor, example_competition):
    assert "2027-2028" not in cached(visitor, STANDINGS)
    seasons.create_season("2027-2028", seasons.proposed_dates(date(2027, 9, 2)))
    assert "2027-2028" in cached(visitor, STANDINGS)
    prizes = reverse("competition:prizes")
    assert "Voorlopig" in cached(visitor, prizes)
    seasons.close_season(example_competition.season, timezone.now())
    assert "Voorlopig" not in visitor.get(prizes).content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_change_made_in_a_transaction_makes_the_pages_old_again_at_its_commit(
    example_competition,
):
    """Another web process may render the old page while the change is not committed (it
    cannot see it yet) and store it under the new version: the commit makes that one old."""
    member_ids = list(example_competition.participants.values_list("member_id", flat=True))
    with transaction.atomic():
        Member.objects.filter(pk=member_ids[0]).update(name="Hernoemd")
        Member.objects.filter(pk=member_ids[1]).update(name="Ook hernoemd")
        during = page_cache.version()
        # Once per transaction, however many statements it sends.
        assert [callback for _, callback, _ in connection.run_on_commit] == [page_cache.changed]
    assert page_cache.version() != during


def stored_version() -> str:
    """The version as stored, read without telling the module a page may use it."""
    return caches[page_cache.PAGES].get(page_cache.VERSION_KEY)


@pytest.mark.django_db(transaction=True)
def test_a_transactions_writes_make_the_pages_old_once_unless_a_page_read_the_version(
    example_competition,
):
    """A saved result writes seven statements: one new version at once and one at the commit
    do what one for each did, unless this process read the version in between (a page it
    rendered then may show the writes so far: a test's transaction never commits)."""
    member_ids = list(example_competition.participants.values_list("member_id", flat=True))
    before = page_cache.version()
    with transaction.atomic():
        Member.objects.filter(pk=member_ids[0]).update(name="Eerste")
        first = stored_version()
        assert first != before  # at once
        Member.objects.filter(pk=member_ids[1]).update(name="Tweede")
        Member.objects.filter(pk=member_ids[2]).update(name="Derde")
        assert stored_version() == first  # the commit will make these old
        read = page_cache.version()  # a page rendered here, stored under this version
        Member.objects.filter(pk=member_ids[3]).update(name="Vierde")
        assert stored_version() != read
    assert stored_version() not in (before, first, read)  # and again at the commit


def test_a_change_after_a_page_in_the_same_transaction_shows_at_once(visitor, example_competition):
    """The tests' own transactions never commit: each change after a stored page shows."""
    member = example_competition.participants.select_related("member").first().member
    for name in ("Eerste Naam", "Tweede Naam", "Derde Naam"):
        Member.objects.filter(pk=member.pk).update(name=name)
        assert name in cached(visitor, STANDINGS)


def test_the_clock_alone_makes_results_final_at_half_past_eleven(visitor, paired_round_4):
    evening = paired_round_4.date
    with time_machine.travel(at(21), tick=False):
        services.publish(paired_round_4, at(21))
        services.enter_results(paired_round_4, {g.pk: "1-0" for g in paired_round_4.games.all()})
    with time_machine.travel(at(23, 29, 59, day=evening), tick=False):
        assert "voorlopig" in cached(visitor, STANDINGS).lower()
    with time_machine.travel(at(23, 30, day=evening), tick=False):
        assert "voorlopig" not in visitor.get(STANDINGS).content.decode().lower()


def test_a_member_never_gets_the_visitors_copy_nor_a_visitor_theirs(
    visitor, jansen_client, example_competition
):
    cached(visitor, STANDINGS)
    assert "Uitloggen" in jansen_client.get(STANDINGS).content.decode()
    assert "Uitloggen" in jansen_client.get(STANDINGS).content.decode()
    assert "Uitloggen" not in from_cache(visitor, STANDINGS)


def test_only_marked_pages_are_stored(visitor, example_competition):
    login = reverse("login")
    # The login form's token is masked anew on every render: two answers differ.
    assert visitor.get(login).content != visitor.get(login).content


def a_message(text: str) -> str:
    """A messages cookie as the site writes it after a form (signed, with its time)."""
    storage = CookieStorage(RequestFactory().get("/"))
    return storage._encode([Message(constants.SUCCESS, text)])


def test_a_visitor_with_a_message_waiting_gets_a_fresh_page_once(visitor, example_competition):
    cached(visitor, STANDINGS)
    waiting = a_message("Je afmelding is opgeslagen.")
    visitor.cookies["messages"] = waiting
    assert "Je afmelding is opgeslagen." in visitor.get(STANDINGS).content.decode()
    assert visitor.cookies["messages"].value == ""  # shown: the browser drops it
    replay = Client()  # the same cookie again (kept, or copied by someone else)
    replay.cookies["messages"] = waiting
    assert "Je afmelding is opgeslagen." not in from_cache(replay, STANDINGS)


@pytest.mark.parametrize(
    "cookie", ["waiting", "e30:1tX:junk", "", "a" * 4000], ids=["junk", "forged", "empty", "long"]
)
def test_a_visitor_with_a_junk_message_cookie_gets_the_stored_page(
    visitor, example_competition, cookie
):
    """Issue 35, finding 4: any `messages` cookie made every page render afresh."""
    page = cached(visitor, STANDINGS)
    hostile = Client()
    hostile.cookies["messages"] = cookie
    assert from_cache(hostile, STANDINGS) == page


def test_a_message_older_than_ten_minutes_is_not_shown_again(visitor, example_competition):
    with time_machine.travel(at(12), tick=False):
        waiting = a_message("Oud bericht")
    with time_machine.travel(at(12, 11), tick=False):
        page = cached(visitor, STANDINGS)
        visitor.cookies["messages"] = waiting
        assert from_cache(visitor, STANDINGS) == page


def test_a_foreign_host_is_refused_even_for_a_stored_page(visitor, example_competition, settings):
    settings.ALLOWED_HOSTS = ["testserver"]  # the test's own hosts, not the environment's
    cached(visitor, STANDINGS)
    assert visitor.get(STANDINGS, HTTP_HOST="evil.example").status_code == 400


def test_writes_no_page_shows_leave_the_pages_as_they_are(visitor, example_competition, arbiter):
    cached(visitor, STANDINGS)
    Client().force_login(arbiter)  # a session row is written
    from_cache(visitor, STANDINGS)


@pytest.mark.parametrize(
    ("sql", "changes"),
    [
        ('INSERT INTO "competition_game" ("round_id") VALUES (%s)', True),
        ('  update "members_member" SET "name" = %s', True),
        ('DELETE FROM "competition_absence" WHERE "id" = %s', True),
        ('TRUNCATE "competition_round" CASCADE', True),
        ('SELECT "competition_game"."id" FROM "competition_game"', False),
        ("SELECT ... FOR UPDATE", False),
        ('UPDATE "django_session" SET "expire_date" = %s', False),
        ('INSERT INTO "axes_accessattempt" ("username") VALUES (%s)', False),
        ('UPDATE "operations_workerheartbeat" SET "seen_at" = %s', False),
        ('INSERT INTO "competition_resultreport" ("game_id") VALUES (%s)', False),
        ('INSERT INTO "competition_historicalresultreport" ("id") VALUES (%s)', False),
        ('UPDATE "competition_game" SET "result" = %s', True),
        ('INSERT OR IGNORE INTO "competition_standing" ("total") VALUES (%s)', True),
        ('DELETE FROM "competition_game" WHERE "id" IN (SELECT "id" FROM "auth_user")', True),
        ('UPDATE "competition_round" SET "x" = (SELECT 1 FROM "django_session")', True),
        ('DELETE FROM "auth_user_groups" WHERE "user_id" = %s', False),
        ('INSERT INTO "auth_group_permissions" ("group_id") VALUES (%s)', False),
    ],
)
def test_which_statements_change_pages(sql, changes):
    """By the table the statement writes, not by the tables it mentions elsewhere."""
    assert page_cache.changes_pages(sql) is changes


def test_the_models_no_page_shows_are_named_by_label_and_a_wrong_one_is_refused():
    tables = page_cache.unseen_tables()
    assert {"competition_resultreport", "axes_accessattempt", "auth_user_groups"} <= tables
    assert not {"competition_game", "members_member", "training_article"} & tables
    with pytest.raises(LookupError):
        page_cache.tables_of(["competition.ResultReports"])


def test_a_restored_backup_makes_every_page_old(example_competition, monkeypatch, tmp_path):
    """restore_site replaces the database behind Django's back (sqlite3's backup, pg_restore):
    the restore says so itself."""
    monkeypatch.setattr(backups, "check_backup", lambda path, work: ({"engine": "sqlite"}, path))
    monkeypatch.setattr(backups, "_sqlite_restore", lambda database: None)
    before = page_cache.version()
    backups.restore_backup(tmp_path / "backup.tar.gz")
    assert page_cache.version() != before


def test_a_page_is_not_kept_past_its_minute(visitor, example_competition):
    with time_machine.travel(at(12), tick=False):
        cached(visitor, STANDINGS)
    with time_machine.travel(at(12) + timedelta(minutes=1), tick=False):
        with CaptureQueriesContext(connection) as queries:
            visitor.get(STANDINGS)
        assert queries.captured_queries


# /eigen/: a public page of the tests' own (`own_page` says what it answers).
ANSWERS = []


@page_cache.public_page
def own_view(request):
    return ANSWERS[-1](request)


urlpatterns = [path("eigen/", own_view)]


@pytest.fixture
def own_page(settings):
    """The page at /eigen/ answers what the test gives; the requests it rendered."""
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.ROOT_URLCONF = __name__
    rendered = []

    def answering(answer):
        def view(request):
            rendered.append(request)
            return answer(request)

        ANSWERS.append(view)
        return rendered

    yield answering
    ANSWERS.clear()


def test_a_page_that_sets_a_cookie_is_never_stored(own_page):
    """A cookie is somebody's (a language, a token): the next visitor must not be given it."""

    def answer(request):
        response = HttpResponse("page")
        response.set_cookie("keuze", "van-deze-bezoeker")
        return response

    rendered = own_page(answer)
    middleware = page_cache.PageCacheMiddleware(own_view)
    for _ in range(2):
        assert middleware(RequestFactory().get("/eigen/")).cookies["keuze"].value
    assert len(rendered) == 2


def test_a_marked_page_without_a_cookie_is_stored(own_page):
    """The same page without its cookie (the test above proves what it claims)."""
    rendered = own_page(lambda request: HttpResponse("page"))
    middleware = page_cache.PageCacheMiddleware(own_view)
    for _ in range(2):
        assert middleware(RequestFactory().get("/eigen/")).content == b"page"
    assert len(rendered) == 1


def test_a_browser_that_accepts_gzip_gets_the_stored_page_gzipped(visitor, example_competition):
    page = cached(visitor, STANDINGS)
    with CaptureQueriesContext(connection) as queries:
        response = visitor.get(STANDINGS, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert not queries.captured_queries
    assert response["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response["Vary"]
    assert (
        int(response["Content-Length"]) == len(response.content) < len(page) / 4
    )  # level 3: 4.7 times smaller
    assert gzip.decompress(response.content).decode() == page
    plain = visitor.get(STANDINGS)
    assert not plain.has_header("Content-Encoding")
    assert int(plain["Content-Length"]) == len(plain.content)
    assert "Accept-Encoding" in plain["Vary"]


def test_the_shared_cache_keeps_the_gzip_copy_alone(visitor, example_competition):
    """Issue 36: the file cache compresses every entry again, so the page's text stored beside
    its gzip copy cost as much as the gzip on every first render after a change. Only the copy
    is stored; a process that does not hold the page in its own memory (a new middleware)
    unzips it and gives the same bytes, to a browser that accepts gzip and to one that does
    not, without rendering it."""
    from django.core.cache import caches

    page = cached(visitor, STANDINGS)
    stored = list(caches[page_cache.PAGES]._cache.values())
    assert not any(page.encode() in entry for entry in stored)
    assert any(
        gzip.compress(page.encode(), compresslevel=page_cache.COMPRESSION) in entry
        for entry in stored
    )

    def render(request):
        raise AssertionError("the page was rendered again")

    plain = page_cache.PageCacheMiddleware(render)(RequestFactory().get(STANDINGS))
    assert plain.content.decode() == page
    assert not plain.has_header("Content-Encoding")
    zipped = page_cache.PageCacheMiddleware(render)(
        RequestFactory().get(STANDINGS, HTTP_ACCEPT_ENCODING="gzip")
    )
    assert zipped["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.content).decode() == page


def test_a_junk_query_string_neither_bypasses_nor_fills_the_cache(visitor, demo):
    """Issue 26: random query strings made every request a render (34 a second instead of
    1,232) and a 40 kB file each. Now only `seizoen` is part of the key: every public page
    asked with junk is the page stored without it, and the cache holds no more entries."""
    from django.core.cache import caches

    pages = [
        STANDINGS,
        PAIRING,
        reverse("competition:home"),
        reverse("competition:prizes"),
        reverse("competition:standings-csv", args=[1]),
        reverse("clubweek:club-calendar"),
    ]
    for url in pages:
        clean = cached(visitor, url)
        for junk in ("?x=1", "?utm_source=mail&fbclid=abc", "?seizoen_=1&ronde=3"):
            assert from_cache(visitor, url + junk) == clean, url + junk
    stored = len(caches[page_cache.PAGES]._cache)
    for number in range(50):
        from_cache(visitor, f"{STANDINGS}?r={number}")
    assert len(caches[page_cache.PAGES]._cache) == stored
    # The season picker's parameter is read, and keyed on.
    assert visitor.get(STANDINGS, {"seizoen": "1999-2000"}).status_code == 404


def test_the_first_visitor_after_a_change_gets_the_page_gzipped_too(visitor, example_competition):
    """Issue 27: the first request of each minute got /ranglijst/ uncompressed (151.6 KB
    instead of 17.7 KB); on a quiet club site that is most visits."""
    first = visitor.get(STANDINGS, HTTP_ACCEPT_ENCODING="gzip")
    assert first["Content-Encoding"] == "gzip"
    assert int(first["Content-Length"]) == len(first.content)
    assert gzip.decompress(first.content).decode() == from_cache(visitor, STANDINGS)


# --- A logged-in member's own copy (issue 28) -------------------------------------------------


def own_row(page: str) -> str:
    """The name in the row the page marks as the reader's own ("" when none is)."""
    start = page.find('class="own" aria-current="true"')
    if start < 0:
        return ""
    return page[start:].split('class="name-text"', 1)[1].split(">", 1)[1].split("<", 1)[0]


def member_client(example_competition, name: str, username: str) -> Client:
    member = example_competition.participants.get(member__name=name).member
    member.user = User.objects.create_user(username, password=f"{username}-password-123")
    member.save()
    return logged_in(member.user)


def logged_in(user) -> Client:
    """A member's browser after the login: the session's cookie and the form token's."""
    client = Client()
    client.force_login(user)
    client.get(reverse("absences:mine"))  # a page with a form: the token's cookie is set
    assert settings.CSRF_COOKIE_NAME in client.cookies
    return client


def test_a_members_page_is_rendered_once_and_is_theirs_alone(visitor, example_competition):
    jansen = member_client(example_competition, "Jansen", "jansen")
    pietersen = member_client(example_competition, "Pietersen", "pietersen")
    first = jansen.get(STANDINGS)
    assert first.cookies  # the render refreshes the session's cookie, for this member only
    page = first.content.decode()
    assert own_row(page) == "Jansen" and "Uitloggen" in page
    again = jansen.get(STANDINGS)  # from the cache: no query at all, and no cookie
    assert again.content.decode() == page and not again.cookies
    assert from_cache(jansen, STANDINGS) == page
    assert again["Cache-Control"] == "private, no-store"  # kept by no shared cache

    theirs = pietersen.get(STANDINGS).content.decode()  # another member: their own copy
    assert own_row(theirs) == "Pietersen"
    assert own_row(from_cache(pietersen, STANDINGS)) == "Pietersen"
    assert own_row(from_cache(jansen, STANDINGS)) == "Jansen"
    assert own_row(cached(visitor, STANDINGS)) == "" and "Uitloggen" not in cached(
        visitor, STANDINGS
    )


def test_a_second_session_of_the_same_member_gets_a_copy_of_its_own(example_competition):
    """The copy belongs to the session (its form token with it), not to the member: a session
    that logs out elsewhere never hands its page to the next."""
    jansen = member_client(example_competition, "Jansen", "jansen")
    cached(jansen, STANDINGS)
    other = logged_in(User.objects.get(username="jansen"))
    with CaptureQueriesContext(connection) as queries:
        other.get(STANDINGS)
    assert queries.captured_queries  # rendered for this session


def test_what_only_the_member_sees_makes_their_copy_old_and_not_the_visitors(
    visitor, example_competition
):
    jansen = member_client(example_competition, "Jansen", "jansen")
    cached(jansen, STANDINGS)
    cached(visitor, STANDINGS)
    with connection.cursor() as cursor:  # their own report of a result, or their account
        cursor.execute("UPDATE auth_user SET first_name = %s WHERE username = %s", ["J", "jansen"])
    with CaptureQueriesContext(connection) as queries:
        jansen.get(STANDINGS)
    assert queries.captured_queries  # rendered again
    from_cache(visitor, STANDINGS)  # the visitors' copy stays


def test_a_change_every_page_shows_makes_the_members_copy_old_too(example_competition):
    jansen = member_client(example_competition, "Jansen", "jansen")
    page = cached(jansen, STANDINGS)
    Member.objects.filter(name="Jansen").update(name="Jansen-de Vries")
    assert own_row(jansen.get(STANDINGS).content.decode()) == "Jansen-de Vries" != own_row(page)


@pytest.mark.parametrize(
    ("sql", "personal"),
    [
        ('INSERT INTO "competition_resultreport" ("game_id") VALUES (%s)', True),
        ('UPDATE "auth_user" SET "last_login" = %s', True),
        ('UPDATE "django_session" SET "expire_date" = %s', False),
        ('INSERT INTO "axes_accessattempt" ("username") VALUES (%s)', False),
        ('UPDATE "competition_game" SET "result" = %s', False),  # every copy: changes_pages
    ],
)
def test_which_statements_make_the_logged_in_copies_old(sql, personal):
    assert page_cache.changes_personal_pages(sql) is personal


# --- Cookies that are nobody's, HEAD, and sessions that ended (issue 35, findings 4 and 5) ---


@pytest.mark.parametrize(
    "cookies",
    [
        {"sessionid": "kz1q8y0m2w7c3v5b9n4x6l0p2r8t5e3a"},  # made up
        {"sessionid": "kort"},
        {"sessionid": "kz1q8y0m2w7c3v5b9n4x6l0p2r8t5e3a", "csrftoken": "x" * 32},
        {"csrftoken": "y" * 32, "taal": "fr", "messages": "junk"},
    ],
    ids=["made-up-session", "short-session", "session-and-token", "junk"],
)
def test_a_visitor_with_cookies_that_are_nobodys_gets_the_stored_page(
    visitor, example_competition, cookies
):
    """Issue 35, finding 4: a made-up sessionid made every page render afresh (its answer
    deleted the cookie, so it was never stored)."""
    standings, pairing = cached(visitor, STANDINGS), cached(visitor, PAIRING)
    hostile = Client()
    for name, value in cookies.items():
        hostile.cookies[name] = value
    assert from_cache(hostile, STANDINGS) == standings
    assert from_cache(hostile, PAIRING) == pairing


def test_a_visitor_with_junk_cookies_after_a_change_stores_the_page_for_the_next(
    visitor, example_competition
):
    """The first request after a change may be a hostile one: its render is the visitors'
    page (as if it sent no cookie) and is stored, so the next gets it from the cache."""
    hostile = Client()
    hostile.cookies["sessionid"] = "kz1q8y0m2w7c3v5b9n4x6l0p2r8t5e3a"
    hostile.cookies["messages"] = "junk"
    first = hostile.get(STANDINGS)
    assert first.status_code == 200 and not first.cookies
    assert from_cache(hostile, STANDINGS) == first.content.decode()
    assert from_cache(visitor, STANDINGS) == first.content.decode()


def test_a_head_request_is_answered_from_the_stored_page(visitor, example_competition):
    """Issue 35, finding 4: HEAD went past the cache; now it gets the stored page's headers,
    and a HEAD after a change stores the page for the GETs after it."""
    page = visitor.get(STANDINGS)
    with CaptureQueriesContext(connection) as queries:
        head = visitor.head(STANDINGS)
    assert not queries.captured_queries
    assert head.status_code == 200 and head.content == b""
    assert head["Content-Length"] == str(len(page.content))
    assert head["Content-Type"] == page["Content-Type"]
    Member.objects.filter(name="Jansen").update(name="Jansen-de Vries")  # a change
    assert visitor.head(STANDINGS).status_code == 200  # rendered and stored
    assert "Jansen-de Vries" in from_cache(visitor, STANDINGS)


def old_cookies(client: Client) -> Client:
    """Another browser with a copy of `client`'s cookies as they are now."""
    copy = Client()
    for name, morsel in client.cookies.items():
        copy.cookies[name] = morsel.value
    return copy


@pytest.mark.parametrize("url", [STANDINGS, reverse("competition:home")])
def test_logging_out_ends_the_sessions_stored_pages_at_once(visitor, example_competition, url):
    """Issue 35, finding 5: after logout the old cookies still got the member's cached page
    (name, next game, "Uitloggen") until the minute ran out."""
    jansen = member_client(example_competition, "Jansen", "jansen")
    assert "Uitloggen" in cached(jansen, url)
    kept = old_cookies(jansen)
    jansen.post(reverse("logout"))
    visitors = cached(visitor, url)
    page = from_cache(kept, url)
    assert "Uitloggen" not in page and page == visitors


def test_a_password_changed_elsewhere_ends_the_other_sessions_pages(example_competition):
    jansen = member_client(example_competition, "Jansen", "jansen")
    assert "Uitloggen" in cached(jansen, STANDINGS)
    other = logged_in(User.objects.get(username="jansen"))
    changed = other.post(
        reverse("members:password"),
        {
            "old_password": "jansen-password-123",
            "new_password1": "een-nieuw-wachtwoord-2026",
            "new_password2": "een-nieuw-wachtwoord-2026",
        },
    )
    assert changed.status_code == 302
    kept = old_cookies(jansen)  # the dead session's cookies, kept by someone
    assert "Uitloggen" not in jansen.get(STANDINGS).content.decode()
    assert "Uitloggen" not in jansen.get(STANDINGS).content.decode()
    assert from_cache(kept, STANDINGS) == cached(Client(), STANDINGS)  # forgotten: a visitor
    assert "Uitloggen" in other.get(STANDINGS).content.decode()  # the session that changed it


def test_a_deactivated_account_gets_no_stored_page_of_its_own(example_competition):
    jansen = member_client(example_competition, "Jansen", "jansen")
    assert "Uitloggen" in cached(jansen, STANDINGS)
    User.objects.filter(username="jansen").update(is_active=False)  # the admin, a command
    assert "Uitloggen" not in jansen.get(STANDINGS).content.decode()
    assert "Uitloggen" not in jansen.get(STANDINGS).content.decode()


# --- The arbiter's start page (issue 36) --------------------------------------------------------


def test_the_arbiters_start_page_is_their_own_copy_until_what_it_shows_changes(round_4, arbiter):
    """Stored once per change for the arbiter's session, like a member's copy; a cancellation
    (the week's data) and an e-mail that failed (the outbox) show at once, and a board
    member's session gets a page of its own."""
    START = reverse("admin:index")
    with time_machine.travel(at(12), tick=False):  # Friday: round 4 is this week's
        arbiter_session = logged_in(arbiter)
        page = cached(arbiter_session, START)
        assert "Ronde 4" in page and "<li>Jansen – " not in page

        jansen = round_4.competition.participants.get(member__name="Jansen")
        services.record_absence(round_4, jansen, "excused")
        assert "<li>Jansen – op tijd afgemeld</li>" in cached(arbiter_session, START)

        OutgoingMail.objects.create(
            created_at=at(11),
            next_try_at=at(11),
            kind="pairing",
            recipient="jansen@example.org",
            subject="DSC: je indeling voor ronde 4",
            message={},
            state=OutgoingMail.State.FAILED,
            tries=1,
            last_error="550 No such user here",
        )
        assert "jansen@example.org: DSC: je indeling voor ronde 4" in cached(arbiter_session, START)

        board = User.objects.create_user("bestuur", password="bestuur-password-123", is_staff=True)
        assert "Ronde 4" not in cached(logged_in(board), START)  # the usual list only
