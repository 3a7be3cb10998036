"""Public pages rendered once per change and then served from a cache that every web process
shares (the "pages" cache: a folder of files in production).

A visitor gets the one copy every visitor gets: a request without a live login is a visitor,
whatever cookies it sends (none, junk, a made-up or expired session, the session of someone who
logged out, a message cookie that is forged, old or shown already), and a HEAD request is
answered from the same copy; on a miss the page is rendered as for a visitor without cookies, so
it is stored. A logged-in member, or the arbiter, gets a copy of their own (their own row
marked, their next game, the menu with their name; the arbiter's drafts), stored under the same
version and minute and their session: the cookies that make them who they are (the session's
and the form token's), hashed, are part of its key, so nobody who does not hold those cookies
can be given it, and a copy is never shared between two sessions. Whether the session is a live
login is remembered in this cache (asked of the session store when it is not: one query by its
key), and forgotten at logout, so logging out ends the copies at once; a password change or a
deactivated account writes the account, which makes every logged-in copy old
(`PERSONAL_MODELS`: their own report of a result, their account), and the next render finds the
login gone and forgets it. A message the site signed in the last
ten minutes and not shown yet is rendered afresh, once. Only views marked `@public_page` are
stored, and only answers that set no cookie but the reader's own as they sent it (a member's
session and form token, renewed when their copy is rendered, at most once a minute; the stored
copy carries no cookie).

A stored page is found under the pages' version, the minute and the address: its path and the
query parameters the page reads (`public_page(reads=...)`; by default only the season picker's),
so a junk query string finds the page stored without it, and an answer that depends on a
question (what-if's chosen results) is stored once per question. The version
changes with every write to a model a page may show: every model but `UNSEEN_MODELS`, whatever
wrote it (a service, the admin, the worker, a command, a bulk update). The write is caught where
its SQL is sent, by the table it writes: at once, and again when the transaction commits, so a
page rendered from data that was about to change is never found again. Nothing calls this
module to say "pages changed" except what writes behind the database connection's back (a
restore). The minute covers what changes with the clock alone (a deadline passing, results
becoming final at 23:30): every rule's time is a whole minute.

Each process also keeps its last few pages decoded (`Recent`): the shared cache pickles and
compresses every entry, which for a 280 KiB page costs half of a cached answer. The copy is
found under the same key, so the version is still read from the shared cache on every request
and a change made by another process makes it old at once.

A page is stored as its gzip copy, which a browser that accepts gzip is given (a phone loads
15 KiB of standings instead of 170): compressed once per change, not once per request, and
given to the very visitor whose request rendered it as well. Only that copy is stored: the
file cache compresses every entry again, which for the page's text cost as much as its gzip
on every first render after a change; a process unzips the text when it reads the page (a
fraction of a millisecond, for a browser that does not accept gzip).
"""

from __future__ import annotations

import gzip
import hashlib
import re
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping
from functools import cache, lru_cache, partial, wraps
from importlib import import_module
from typing import NamedTuple
from urllib.parse import unquote_plus

from django.apps import apps
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.signals import user_logged_out
from django.contrib.messages.storage.cookie import CookieStorage
from django.core import signing
from django.core.cache import caches
from django.core.signals import setting_changed
from django.db import DatabaseError
from django.db.backends.signals import connection_created
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve
from django.utils import timezone
from django.utils.cache import patch_vary_headers

PAGES = "pages"  # the cache alias in settings.CACHES
# Answers to questions (what-if's chosen results): a cache of their own, so that however many
# are asked they never push the pages out of theirs (a full file cache culls at random).
QUESTIONS = "questions"
Reads = Callable[[Mapping[str, str]], list[tuple[str, str]]]
# The query parameters every public page reads: the season picker's. A page that reads others
# names them (`public_page(reads=...)`); tests/base/test_page_cache.py asks every public page
# with others and expects the same bytes.
READ_PARAMETERS = ("seizoen",)
FORMAT = 3  # of a stored page (class Page): a new one never reads an old one
# gzip's level for a stored page: 3 compresses the 220 KiB standings to 22 KiB in 0.8 ms of
# CPU, 6 to 18.5 KiB in 2.0 ms (9: 17.3 KiB in 7.9 ms). Every change of the data renders the
# pages again, so the first visitor after a result pays it; the phone's 3.6 KiB more do not
# show (measured on the 150-player season, issue 36).
COMPRESSION = 3
VERSION_KEY = "version"
PERSONAL_VERSION_KEY = "personal-version"
# The models no public page shows, as app labels (every model of the app) or "app.Model":
# writing them leaves the pages as they are. Every other model is assumed to be shown, so a
# model added later makes pages old until it is listed here. Accounts are not members (a
# login's last_login is no news to a visitor); a player's own report of a result shows only to
# the two players and the arbiter (the result it stores, once both agree, is a write to the
# games); the worker's heartbeat and the backups are operations'.
UNSEEN_MODELS = (
    "sessions",
    "auth",
    "axes",
    "operations",
    "competition.ResultReport",
    "competition.HistoricalResultReport",
)
# What only the person it belongs to sees on a public page: writing it makes the logged-in
# copies old (not the visitors'), as writing any model the pages show makes every copy old.
# Operations (the worker's heartbeat, the backups, the outbox) show on the arbiter's start
# page alone: its copy goes old with them, a member's copy at most once a worker's pass.
PERSONAL_MODELS = (
    "auth",
    "competition.ResultReport",
    "competition.HistoricalResultReport",
    "operations",
)
# The table a statement writes: INSERT [OR IGNORE] INTO t, UPDATE t, DELETE FROM t, TRUNCATE t.
WRITTEN_TABLE = re.compile(
    r"\s*(?:insert(?:\s+or\s+\w+)?\s+into|replace\s+into|update|delete\s+from|truncate(?:\s+table)?)"
    r'\s+"?([^"\s(]+)',
    re.IGNORECASE,
)


def parameters(query_string: str) -> dict[str, str]:
    """A query's parameters by name, decoded as the view's `request.GET` decodes them, each
    with its last value as sent: still encoded, so two values that differ as sent are two
    keys. Django's QueryDict decodes every value, which for what-if's 75 boards cost more
    than the rest of a stored answer."""
    found = {}
    for part in query_string.split("&"):
        name, _, value = part.partition("=")
        if "%" in name or "+" in name:
            name = unquote_plus(name, errors="replace")
        found[name] = value
    return found


class Kind(NamedTuple):
    """How a public page is stored: what it reads of the query beside the season (the
    parameters it answers to, as (name, value) in one order whatever the address's), and in
    which cache."""

    reads: Reads
    cache: str = PAGES


def no_more(query: Mapping[str, str]) -> list[tuple[str, str]]:
    return []


NOT_STORED = Kind(no_more)  # an address that is no public page: nothing of it is stored


def public_page(
    view: Callable | None = None, *, reads: Reads = no_more, cache: str = PAGES
) -> Callable:
    """A page a visitor may be given from the cache: it reads nothing but the database, the
    clock, the path, the season picker's parameter and what `reads` returns of the query."""
    if view is None:
        return partial(public_page, reads=reads, cache=cache)

    @wraps(view)
    def marked(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        response.public_page = True
        return response

    marked.page_kind = Kind(reads, cache)
    return marked


@lru_cache(maxsize=1024)
def kind_of(path: str) -> Kind:
    """How the page at `path` is stored (found once per path and process)."""
    try:
        view = resolve(path).func
    except Resolver404:
        return NOT_STORED
    return getattr(view, "page_kind", NOT_STORED)


def forget_kinds(*, setting: str, **kwargs) -> None:
    if setting == "ROOT_URLCONF":  # tests with views of their own
        kind_of.cache_clear()


def changed(**kwargs) -> None:
    """Every stored page is old from now on."""
    _unread.add(VERSION_KEY)
    caches[PAGES].set(VERSION_KEY, uuid.uuid4().hex, None)


def personal_changed() -> None:
    """Every logged-in person's stored page is old from now on."""
    _unread.add(PERSONAL_VERSION_KEY)
    caches[PAGES].set(PERSONAL_VERSION_KEY, uuid.uuid4().hex, None)


# The versions this process made anew and has not read since (`_now_and_at_commit`): no page
# it stored since can be under them.
_unread: set[str] = set()


def version(key: str = VERSION_KEY) -> str:
    _unread.discard(key)  # before reading: a page may be stored under what is read
    cache = caches[PAGES]
    current = cache.get(key)
    if current is None:  # first use, or dropped from the cache: a new one matches nothing old
        current = uuid.uuid4().hex
        cache.set(key, current, None)
    return current


def holder(request: HttpRequest) -> str:
    """Whose copy a request gets: "" for a visitor (no session, or none that is a live login),
    else a hash of the cookies that make the request someone's (the session, and the token the
    page's forms carry)."""
    cookies = request.COOKIES
    session = cookies.get(settings.SESSION_COOKIE_NAME)
    if not session or not logged_in(session):
        return ""
    token = cookies.get(settings.CSRF_COOKIE_NAME, "")
    return hashlib.sha256(f"{session}\0{token}".encode()).hexdigest()


# How long the pages' cache remembers that a session is a live login; asked again after it.
LOGIN_REMEMBERED = 3600


def logged_in(session_key: str) -> bool:
    """Whether the session is a live login: stored, not expired, with a user. Remembered in
    the pages' cache (one read, like the version's), else asked of the session store (one
    query by its key) and remembered when it is one; forgotten at logout (`forget_login`) and
    when a render finds the login gone (a password changed, an account made inactive). While
    the database is away an unremembered session is a visitor's (the visitors' pages go on)."""
    remembered = login_key(session_key)
    if caches[PAGES].get(remembered):
        return True
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    try:
        live = store.get(SESSION_KEY) is not None
    except DatabaseError:
        return False
    if live:
        caches[PAGES].set(remembered, True, LOGIN_REMEMBERED)
    return live


def login_key(session_key: str) -> str:
    return "login:" + hashlib.sha256(session_key.encode()).hexdigest()


def forget_login(sender=None, request=None, **kwargs) -> None:
    """The session of `request` is no live login any more (`user_logged_out`, sent before the
    session is flushed): its stored pages are nobody's from now on."""
    session = request.COOKIES.get(settings.SESSION_COOKIE_NAME) if request is not None else None
    if session:
        caches[PAGES].delete(login_key(session))


# A message waiting (after a form, a redirect) is shown on the next page, within seconds.
MESSAGE_MAX_AGE = 600


def message_waiting(request: HttpRequest) -> bool:
    """Whether the request brings a message to show: a messages cookie the site signed in the
    last ten minutes, the first time it comes. A forged, old or replayed one is not: the
    stored page is given instead (before, any `messages` cookie rendered every page afresh)."""
    value = request.COOKIES.get(CookieStorage.cookie_name)
    if not value:
        return False
    try:
        signing.get_cookie_signer(salt=CookieStorage.key_salt).unsign(
            value, max_age=MESSAGE_MAX_AGE
        )
    except signing.BadSignature:
        return False
    shown = "message-shown:" + hashlib.sha256(value.encode()).hexdigest()
    return caches[PAGES].add(shown, True, timeout=MESSAGE_MAX_AGE)


class Page(NamedTuple):
    """A stored answer: its headers, its body, and the body gzipped (a HEAD request gets the
    headers alone)."""

    headers: dict[str, str]
    content: bytes
    gzipped: bytes

    def stored(self) -> tuple[dict[str, str], bytes]:
        """What the shared cache keeps of it: the headers and the gzipped body."""
        return self.headers, self.gzipped

    @classmethod
    def from_stored(cls, stored: tuple[dict[str, str], bytes]) -> Page:
        headers, gzipped = stored
        return cls(headers, gzip.decompress(gzipped), gzipped)

    def response(self, request: HttpRequest) -> HttpResponse:
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            body, encoding = self.gzipped, {"Content-Encoding": "gzip"}
        else:
            body, encoding = self.content, {}
        headers = {**self.headers, **encoding, "Content-Length": str(len(body))}
        return HttpResponse(b"" if request.method == "HEAD" else body, headers=headers)


# A request waits this long at most for another to render the page it asks for (a render takes
# well under a second); a render that never ends (its process died) is forgotten after it.
RENDER_BOUND = 10
WAIT_STEP = 0.01


def wait_for_render(cache, key: str, rendering: str) -> Page | None:
    """The page another request is rendering, once it is stored; None when that render ended
    without storing one (an error, an answer for nobody else) or took longer than the bound:
    then the waiting request renders its own."""
    for _ in range(int(RENDER_BOUND / WAIT_STEP)):
        time.sleep(WAIT_STEP)
        page = cache.get(key)
        if page is not None:
            return Page.from_stored(page)
        if cache.get(rendering) is None:
            page = cache.get(key)
            return Page.from_stored(page) if page is not None else None
    return None


class Recent:
    """The last pages this process served, decoded, by key (a few MB at most)."""

    SIZE = 32

    def __init__(self):
        self.pages: OrderedDict[str, Page] = OrderedDict()
        self.lock = threading.Lock()  # the development server and the tests' live server thread

    def get(self, key: str) -> Page | None:
        with self.lock:
            page = self.pages.get(key)
            if page is not None:
                self.pages.move_to_end(key)
            return page

    def put(self, key: str, page: Page) -> None:
        with self.lock:
            self.pages[key] = page
            while len(self.pages) > self.SIZE:
                self.pages.popitem(last=False)


class PageCacheMiddleware:
    """Answers a visitor's GET from the cache before sessions and authentication run."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.recent = Recent()

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method not in ("GET", "HEAD"):
            return self.get_response(request)
        kind = kind_of(request.path_info)
        if kind is NOT_STORED or message_waiting(request):
            return self.get_response(request)
        whose = holder(request)
        if not whose:  # rendered as for a visitor who sends no cookie, so that it is stored
            request.COOKIES = {}
        key = self.key(request, kind, whose)
        cache = caches[kind.cache]
        page = self.recent.get(key)
        if page is None:
            stored = cache.get(key)
            if stored is not None:
                page = Page.from_stored(stored)
                self.recent.put(key, page)
        if page is not None:
            return page.response(request)
        # The same page asked while another request renders it waits for that one's answer:
        # a page is rendered once per change however many ask at once (the first visitors
        # after a result, ten members on the club's wifi opening what-if together).
        rendering = f"rendering:{key}"
        mine = cache.add(rendering, True, timeout=RENDER_BOUND)
        if not mine and (page := wait_for_render(cache, key, rendering)) is not None:
            self.recent.put(key, page)
            return page.response(request)
        try:
            response = self.get_response(request)
            user = getattr(request, "user", None)
            if whose and user is not None and not user.is_authenticated:  # gone after all
                forget_login(request=request)
                return response
            if self.may_store(request, response, whose):
                patch_vary_headers(response, ["Accept-Encoding"])
                gzipped = gzip.compress(response.content, compresslevel=COMPRESSION)
                page = Page(dict(response.items()), response.content, gzipped)
                cache.set(key, page.stored())
                self.recent.put(key, page)
                answer = page.response(request)  # the first visitor after a change: gzipped
                answer.cookies = response.cookies  # a member's renewed cookies, theirs alone
                return answer
            return response
        finally:
            if mine:
                cache.delete(rendering)

    @staticmethod
    def key(request: HttpRequest, kind: Kind, whose: str) -> str:
        minute = int(timezone.now().timestamp() // 60)
        # Only the query parameters a public page reads are part of the address: a junk query
        # string finds the page stored without it, and stores none of its own.
        query = parameters(request.META.get("QUERY_STRING", ""))
        read = [(name, query[name]) for name in READ_PARAMETERS if name in query]
        read += kind.reads(query)
        path = f"{request.path}?{read!r}" if read else request.path
        # get_host() checks ALLOWED_HOSTS: a foreign host is refused before anything is served.
        address = f"{request.scheme}://{request.get_host()}{path}"
        digest = hashlib.sha256(address.encode()).hexdigest()
        key = f"page{FORMAT}:{version()}:{minute}:{digest}"
        if whose:  # a logged-in copy: old when either version changes
            key = f"{key}:{version(PERSONAL_VERSION_KEY)}:{whose}"
        return key

    @staticmethod
    def may_store(request: HttpRequest, response: HttpResponse, whose: str) -> bool:
        return (
            getattr(response, "public_page", False)
            and response.status_code == 200
            and not response.streaming
            and only_refreshed_cookies(request, response, whose)
        )


def only_refreshed_cookies(request: HttpRequest, response: HttpResponse, whose: str) -> bool:
    """Whether the answer sets no cookie but the reader's own again, as they sent it: a
    member's session and form token, whose expiry every render renews. A visitor's page that
    sets any cookie (a form's first token, a language) is personal, and so is a new value."""
    if not whose:
        return not response.cookies
    own = (settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME)
    return all(
        name in own and morsel.value == request.COOKIES.get(name)
        for name, morsel in response.cookies.items()
    )


def watch_writes(sender, connection, **kwargs) -> None:
    """Every database connection reports the writes that change pages (connection_created)."""
    if _report_writes not in connection.execute_wrappers:
        connection.execute_wrappers.append(_report_writes)


def _report_writes(execute, sql, params, many, context):
    result = execute(sql, params, many, context)
    if changes_pages(sql):
        _now_and_at_commit(changed, context["connection"])
    elif changes_personal_pages(sql):
        _now_and_at_commit(personal_changed, context["connection"])
    return result


def _now_and_at_commit(make_old: Callable[[], None], connection) -> None:
    """Make the pages old at once, and in a transaction again when it commits. A later write of
    the same transaction (its commit to make them old is waiting) makes them old at once only
    if this process read the version since: it may have stored a page under it showing the
    transaction's writes so far (the tests' transactions never commit). Another process stores
    nothing the transaction wrote before it commits, and the commit makes old what it stores
    meanwhile. A saved result sends seven writes: one new version and one at the commit, not
    eight."""
    if not connection.in_atomic_block:
        make_old()
        return
    if not any(callback is make_old for _, callback, _ in connection.run_on_commit):
        make_old()
        connection.on_commit(make_old)
    elif _VERSION_OF[make_old] not in _unread:
        make_old()


_VERSION_OF = {changed: VERSION_KEY, personal_changed: PERSONAL_VERSION_KEY}


def changes_pages(sql: str) -> bool:
    """Whether a statement writes a model the pages show (a write it cannot read, too)."""
    written = WRITTEN_TABLE.match(sql)
    if written is None:
        return sql.lstrip()[:8].lower().startswith(("insert", "update", "delete", "truncate"))
    return written[1] not in unseen_tables()


def changes_personal_pages(sql: str) -> bool:
    """Whether a statement writes what only its owner sees on a public page."""
    written = WRITTEN_TABLE.match(sql)
    return written is not None and written[1] in personal_tables()


@cache
def unseen_tables() -> frozenset[str]:
    return tables_of(UNSEEN_MODELS)


@cache
def personal_tables() -> frozenset[str]:
    return tables_of(PERSONAL_MODELS)


def tables_of(labels) -> frozenset[str]:
    """The tables of these models (with their many-to-many tables); a label that names no
    installed app or model is an error (at start-up: `connect`), never silently nothing."""
    models = []
    for label in labels:
        if "." in label:
            models.append(apps.get_model(label))
        else:
            models += apps.get_app_config(label).get_models(include_auto_created=True)
    tables = {model._meta.db_table for model in models}
    tables |= {
        field.remote_field.through._meta.db_table
        for model in models
        for field in model._meta.local_many_to_many
    }
    return frozenset(tables)


def connect() -> None:
    """Called once at start-up (base.apps): a new process may run new code or settings."""
    unseen_tables()  # a wrong label stops the start
    personal_tables()
    connection_created.connect(watch_writes, dispatch_uid="page_cache.watch_writes")
    user_logged_out.connect(forget_login, dispatch_uid="page_cache.forget_login")
    setting_changed.connect(changed, dispatch_uid="page_cache.setting_changed")
    setting_changed.connect(forget_kinds, dispatch_uid="page_cache.forget_kinds")
