"""No visitor input answers 500 (issue 26, point 3): every address of the site (read from the
URL configuration itself, the admin's included) is asked with hostile values in its path, in
every query parameter the site reads and in every field of the forms the page itself shows,
anonymously, as a member and as the arbiter, on the demo season. Schemathesis-style: the
requests are derived from the site's own schema (its URLs and forms), not written by hand.

The count of answers 500 must be 0; a failure lists each address, role and value that gave one.
"""

from html.parser import HTMLParser
from urllib.parse import urlencode

import pytest
import time_machine

from tests.browser.helpers import ARBITER, MEMBER
from tests.demo import DEMO_NOW
from tests.pages import addresses, client_for, filled

# What an attacker, a broken link or a sleepy thumb sends.
HOSTILE = [
    "\x00",
    "x" * 300,
    "-1",
    "99999999999999999999",
    "0001-01-01",
    "a\u202eb\u200bc\nd",
    "' OR 1=1 --",
]
# Every query parameter the site's pages read (seizoen: the season picker; lid: the member the
# arbiter acts for; datum: the rapid evening; code: the links without a password; leden: the
# invitations), and the admin's (search, order, page, filter).
QUERY_PARAMETERS = ["seizoen", "lid", "datum", "code", "leden", "ronde", "q", "o", "p", "e"]
ROLES = {"visitor": None, "member": MEMBER, "arbiter": ARBITER}
# Django's own admin views (lists, change pages, redirects) are asked with fewer values and
# their forms only on the add pages, with those few values too: they are Django's, tested by
# Django; what is ours (our views and every value on each of them) gets them all. A NUL is
# refused by our own middleware before any view reads it (base/input_checks.py), which every
# one of our pages proves; the admin's views get the two values that reach its code: a query
# (search, filter) and a number past every limit (page, order, primary key).
DJANGOS_OWN = (
    "django.contrib.admin.",
    "django.views.generic.base",
    "django.contrib.contenttypes",
    "django.contrib.auth.admin",
    "arbiter.urls.moved",
)
A_FEW = ["' OR 1=1 --", "99999999999999999999"]
# Pages that read no query parameter and take long to make (the TRF export of a whole season,
# the admin's list of what a deletion would take with it): their path is asked, not their query.
NO_QUERY = ("beheer/competitie/<int:pk>/trf/", "/delete/")


class FormFields(HTMLParser):
    """The names of the fields of the forms on a page, and where each form posts."""

    def __init__(self):
        super().__init__()
        self.forms: list[tuple[str, set[str]]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and (attrs.get("method") or "").lower() == "post":
            self.forms.append((attrs.get("action") or "", set()))
        elif tag in ("input", "select", "textarea") and attrs.get("name") and self.forms:
            self.forms[-1][1].add(attrs["name"])


@pytest.mark.parametrize("role", list(ROLES))
def test_no_address_query_or_form_answers_500(demo, role):
    client = client_for(ROLES[role])
    failures = []
    posted = set()  # (where, fields): a form that many pages show is asked once

    def ask(method: str, path: str, data: dict | None = None, note: str = ""):
        response = client.get(path) if method == "GET" else client.post(path, data or {})
        if response.status_code >= 500:
            failures.append(f"{method} {path[:120]} {note!r}: {response.status_code}")
        return response

    with time_machine.travel(DEMO_NOW, tick=False):
        for route, view in addresses():
            if role != "arbiter" and route.startswith("beheer/") and route != "beheer/":
                continue  # refused before any input is read (login page, 403)
            djangos = view.startswith(DJANGOS_OWN)
            values = A_FEW if djangos else HOSTILE
            path = filled(route, None)
            page = ask("GET", path)
            for value in values:
                if not any(part in route for part in NO_QUERY):
                    query = urlencode({name: value for name in QUERY_PARAMETERS})
                    ask("GET", f"{path}?{query}", note=value)
            if "<" in route:
                # Each path once: a number's converter takes what is no number as the number
                # past every limit (tests/pages.py), so most values lead to the same path.
                hostile_paths = {}
                for value in values:
                    hostile_paths.setdefault(filled(route, value), value)
                for hostile_path, value in hostile_paths.items():
                    ask("GET", hostile_path, note=value)
            if page.status_code != 200 or "html" not in page.get("Content-Type", ""):
                continue
            if djangos and not route.endswith("/add/"):
                continue
            parser = FormFields()
            parser.feed(page.content.decode())
            for action, fields in parser.forms:
                target = action if action.startswith("/") else path
                if target.startswith("/accounts/logout") or "/delete/" in target:
                    continue  # logs out; deletes what the rest of the run asks about
                if (target, frozenset(fields)) in posted:
                    continue  # the same form on another page (the admin's logout button)
                posted.add((target, frozenset(fields)))
                for value in values:
                    data = {name: value for name in fields if name != "csrfmiddlewaretoken"}
                    ask("POST", target, data, note=value)
                    if ROLES[role] and not client.session.get("_auth_user_id"):
                        client = client_for(ROLES[role])  # a form logged the role out: log in again
    assert failures == []
