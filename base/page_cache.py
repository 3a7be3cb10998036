"""Public pages rendered once per change and then served from a cache that every web process
shares (the "pages" cache: a folder of files in production).

Only visitors are served from it: a request without a session or a pending message, which
is a page a logged-in member or the arbiter never sees (their own row, drafts). Only views
marked `@public_page` are stored, and only answers that set no cookie.

A stored page is found under the pages' version, the minute and the address. The version
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

A page is stored with its gzip copy, which a browser that accepts gzip is given (a phone loads
15 KiB of standings instead of 170): compressed once per change, not once per request, and
given to the very visitor whose request rendered it as well.
"""

from __future__ import annotations

import gzip
import hashlib
import re
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable
from functools import cache, wraps
from typing import NamedTuple
from urllib.parse import urlencode

from django.apps import apps
from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import caches
from django.core.signals import setting_changed
from django.db.backends.signals import connection_created
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.cache import patch_vary_headers

PAGES = "pages"  # the cache alias in settings.CACHES
# The query parameters a public page reads: the season picker's. A public page that comes to
# read another must add it here (tests/base/test_page_cache.py asks every public page with
# others and expects the same bytes).
READ_PARAMETERS = ("seizoen",)
FORMAT = 2  # of a stored page (class Page): a new one never reads an old one
VERSION_KEY = "version"
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
# The table a statement writes: INSERT [OR IGNORE] INTO t, UPDATE t, DELETE FROM t, TRUNCATE t.
WRITTEN_TABLE = re.compile(
    r"\s*(?:insert(?:\s+or\s+\w+)?\s+into|replace\s+into|update|delete\s+from|truncate(?:\s+table)?)"
    r'\s+"?([^"\s(]+)',
    re.IGNORECASE,
)


def public_page(view: Callable) -> Callable:
    """A page a visitor may be given from the cache (it must read nothing but the database,
    the clock and the address)."""

    @wraps(view)
    def marked(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        response.public_page = True
        return response

    return marked


def changed(**kwargs) -> None:
    """Every stored page is old from now on."""
    caches[PAGES].set(VERSION_KEY, uuid.uuid4().hex, None)


def version() -> str:
    cache = caches[PAGES]
    current = cache.get(VERSION_KEY)
    if current is None:  # first use, or dropped from the cache: a new one matches nothing old
        current = uuid.uuid4().hex
        cache.set(VERSION_KEY, current, None)
    return current


def is_visitor(request: HttpRequest) -> bool:
    cookies = request.COOKIES
    return settings.SESSION_COOKIE_NAME not in cookies and CookieStorage.cookie_name not in cookies


class Page(NamedTuple):
    """A stored answer: its headers, its body, and the body gzipped."""

    headers: dict[str, str]
    content: bytes
    gzipped: bytes

    def response(self, request: HttpRequest) -> HttpResponse:
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            body, encoding = self.gzipped, {"Content-Encoding": "gzip"}
        else:
            body, encoding = self.content, {}
        return HttpResponse(
            body, headers={**self.headers, **encoding, "Content-Length": str(len(body))}
        )


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
        self.cache = caches[PAGES]
        self.recent = Recent()

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method != "GET" or not is_visitor(request):
            return self.get_response(request)
        key = self.key(request)
        page = self.recent.get(key)
        if page is None:
            page = self.cache.get(key)
            if page is not None:
                self.recent.put(key, Page(*page))
        if page is not None:
            return Page(*page).response(request)
        response = self.get_response(request)
        if self.may_store(request, response):
            patch_vary_headers(response, ["Accept-Encoding"])
            gzipped = gzip.compress(response.content, compresslevel=6)  # 9 costs twice as much
            page = Page(dict(response.items()), response.content, gzipped)
            self.cache.set(key, tuple(page))
            self.recent.put(key, page)
            return page.response(request)  # the first visitor after a change gets it gzipped too
        return response

    @staticmethod
    def key(request: HttpRequest) -> str:
        minute = int(timezone.now().timestamp() // 60)
        # Only the query parameters a public page reads are part of the address: a junk query
        # string finds the page stored without it, and stores none of its own.
        query = urlencode(
            [(name, request.GET[name]) for name in READ_PARAMETERS if name in request.GET]
        )
        path = f"{request.path}?{query}" if query else request.path
        # get_host() checks ALLOWED_HOSTS: a foreign host is refused before anything is served.
        address = f"{request.scheme}://{request.get_host()}{path}"
        digest = hashlib.sha256(address.encode()).hexdigest()
        return f"page{FORMAT}:{version()}:{minute}:{digest}"

    @staticmethod
    def may_store(request: HttpRequest, response: HttpResponse) -> bool:
        return (
            getattr(response, "public_page", False)
            and response.status_code == 200
            and not response.streaming
            and not response.cookies
            and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")  # a form's token is personal
        )


def watch_writes(sender, connection, **kwargs) -> None:
    """Every database connection reports the writes that change pages (connection_created)."""
    if _report_writes not in connection.execute_wrappers:
        connection.execute_wrappers.append(_report_writes)


def _report_writes(execute, sql, params, many, context):
    result = execute(sql, params, many, context)
    if changes_pages(sql):
        changed()
        connection = context["connection"]
        if connection.in_atomic_block and not any(
            callback is changed for _, callback, _ in connection.run_on_commit
        ):
            connection.on_commit(changed)
    return result


def changes_pages(sql: str) -> bool:
    """Whether a statement writes a model the pages show (a write it cannot read, too)."""
    written = WRITTEN_TABLE.match(sql)
    if written is None:
        return sql.lstrip()[:8].lower().startswith(("insert", "update", "delete", "truncate"))
    return written[1] not in unseen_tables()


@cache
def unseen_tables() -> frozenset[str]:
    return tables_of(UNSEEN_MODELS)


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
    connection_created.connect(watch_writes, dispatch_uid="page_cache.watch_writes")
    setting_changed.connect(changed, dispatch_uid="page_cache.setting_changed")
