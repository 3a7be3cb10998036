"""Fair use for strangers: the pages that cost the server real work on every request (what-if
computes standings; the CSV files, the calendar feeds and the password-reset form; a login,
which hashes a password) take a limited number of requests per client address
(`base.clients.client_ip`) per window, counted in a cache every web process shares (the
"limits" cache: files). Beyond the limit the client gets the site's own Dutch page with 429
and Retry-After, which costs next to nothing, so one client hammering a page cannot slow the
site down for the others. Only requests that cost work count: the middleware runs after the
page cache, so a page it answers (a CSV, a feed, a what-if asked before: the same question on
the same data) is neither counted nor refused.

The limits are generous for a person (a member clicking through what-if, a calendar program
asking every few minutes, the club's wifi where many members share one address) and tight for
a script. A request refused because the address has as many being answered as it may at once
is not counted against the window: only what is answered is. Logins count only when they fail
(`count_failed_login`), and once an address has failed too often its next login is refused
before the form is read, so before any password is hashed. Counting is approximate under
races (the file cache's increment is not atomic): a limit can let a few requests more through,
never fewer.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from django.contrib.auth.signals import user_login_failed
from django.core.cache import caches
from django.shortcuts import render

from base.clients import client_ip

LIMITS_CACHE = "limits"


@dataclass(frozen=True)
class Limit:
    name: str
    method: str
    path: re.Pattern
    requests: int
    seconds: int
    at_once: int = 0  # > 0: no more of these requests from one address at the same time
    failures_only: bool = False  # count only the failed ones (`count_failed_login`)


LIMITS = (
    # A new what-if question computes (0.05-0.3 s of CPU): two at a time per address, so a
    # club's wifi (many members behind one address) is answered while one client keeps at most
    # two of gunicorn's three web workers busy, whatever it sends in parallel (the third serves
    # everyone else); the page asks again a second later by itself. The same question asked
    # at once waits for the one answer (the page cache renders it once).
    Limit("what-if", "GET", re.compile(r"^/(?:rapid/)?wat-als/$"), 30, 60, at_once=2),
    Limit("csv", "GET", re.compile(r"\.csv$"), 30, 60),
    Limit("calendar", "GET", re.compile(r"\.ics$"), 60, 60),
    Limit("password-reset", "POST", re.compile(r"^/accounts/password_reset/$"), 5, 600),
    # Each login costs a password hash, an unknown name too (so that the time tells nothing):
    # 20 failed logins per address in ten minutes, then refused before any hash is computed.
    # django-axes locks one account out after five; this stops a flood of made-up names.
    Limit(
        "login",
        "POST",
        re.compile(r"^/(?:accounts|beheer)/login/$"),
        20,
        600,
        failures_only=True,
    ),
)


def limit_for(method: str, path: str) -> Limit | None:
    return next((rule for rule in LIMITS if rule.method == method and rule.path.search(path)), None)


def over_limit(limit: Limit, address: str, now: float, count: bool = True) -> int | None:
    """Counts this request (unless `count` is false); the seconds until the client may ask
    again when it is one too many, else None."""
    window = int(now // limit.seconds)
    key = f"fair:{limit.name}:{address}:{window}"
    cache = caches[LIMITS_CACHE]
    if not count:
        done = cache.get(key, 0)
    else:
        cache.add(key, 0, timeout=limit.seconds * 2)
        try:
            done = cache.incr(key)
        except ValueError:  # expired between add and incr: a new window
            cache.set(key, 1, timeout=limit.seconds * 2)
            done = 1
    if done <= limit.requests - (0 if count else 1):
        return None
    return max(1, int((window + 1) * limit.seconds - now))


def count_failed_login(sender, credentials=None, request=None, **kwargs) -> None:
    """A login failed (`user_login_failed`): it counts against its address's login limit,
    unless django-axes refused it before any password was checked (a locked-out account)."""
    if request is None or getattr(request, "axes_locked_out", False):
        return
    limit = limit_for("POST", request.path)
    if limit is not None and limit.failures_only:
        over_limit(limit, client_ip(request) or "-", time.time())


def connect() -> None:
    """Called once at start-up (base.apps)."""
    user_login_failed.connect(count_failed_login, dispatch_uid="fair_use.count_failed_login")


class FairUseMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = limit_for(request.method, request.path)
        if limit is None:
            return self.get_response(request)
        address = client_ip(request) or "-"
        if limit.failures_only:  # refused once there were too many, counted when one fails
            wait = over_limit(limit, address, time.time(), count=False)
            return too_many(request, wait) if wait is not None else self.get_response(request)
        if not limit.at_once:
            return self.counted(request, limit, address)
        slot = take_slot(limit, address)
        if slot is None:  # as many as it may are being answered: ask again in a moment,
            return too_many(request, 1)  # and this refusal costs nothing of the minute
        try:
            return self.counted(request, limit, address)
        finally:
            caches[LIMITS_CACHE].delete(slot)

    def counted(self, request, limit: Limit, address: str):
        wait = over_limit(limit, address, time.time())
        if wait is not None:
            return too_many(request, wait)
        return self.get_response(request)


def take_slot(limit: Limit, address: str) -> str | None:
    """One of the `at_once` places of this address, as its key in the limits cache; None when
    every one is taken."""
    cache = caches[LIMITS_CACHE]
    for number in range(limit.at_once):
        slot = f"fair-busy:{limit.name}:{address}:{number}"
        if cache.add(slot, 1, timeout=BUSY_EXPIRES):
            return slot
    return None


# A request marked busy is forgotten after this long even if its process died answering it.
BUSY_EXPIRES = 30


def too_many(request, wait: int):
    response = render(request, "429.html", {"minutes": -(-wait // 60)}, status=429)
    response["Retry-After"] = str(wait)
    response["Cache-Control"] = "no-store"
    return response
