"""`make run` serves from one SQLite file with the worker beside it: the arbiter's saves never
answer 500 "database is locked" while the worker writes (issue 24, finding 11). The real
processes: gunicorn's workers and the worker's loop on one file with the demo season, the
member admin used over HTTP by three arbiters' browsers at once."""

import http.cookiejar
import re
import sqlite3
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from tests.browser.helpers import ARBITER
from tests.processes import STARTUP, manage, production_env, web_process, worker_process

__all__ = ["production_env"]  # the fixture: a migrated SQLite file of the test's own

SAVES = 40  # one per member of the demo: each is renamed once


def logged_in(port: int):
    """An arbiter's browser (cookies of its own) logged in to /beheer/: its form poster."""
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    base = f"http://127.0.0.1:{port}"

    def post(path: str, fields: dict) -> int:
        page = opener.open(base + path, timeout=STARTUP).read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
        data = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": token}).encode()
        request = urllib.request.Request(base + path, data, headers={"Referer": base + path})
        try:
            with opener.open(request, timeout=STARTUP) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    username, password = ARBITER  # the demo's arbiter
    post("/beheer/login/?next=/beheer/", {"username": username, "password": password})
    return post


def read(env: dict, sql: str) -> list[tuple]:
    """Rows of the site's SQLite file, read straight from the file (no process of the site's
    own to start: each costs a second of Django's start-up)."""
    with sqlite3.connect(env["DATABASE_URL"].removeprefix("sqlite:///")) as database:
        return database.execute(sql).fetchall()


def test_admin_saves_beside_the_workers_loop_never_answer_500(production_env):
    env = {**production_env, "DEBUG": "true"}  # as `make run` (cookies over plain http)
    # The demo: a season for the worker's passes to read, and its arbiter's account.
    assert manage(env, "load_demo").returncode == 0
    members = [pk for (pk,) in read(env, "SELECT id FROM members_member ORDER BY id")]

    with worker_process(env, interval=0.01), web_process(env) as port:
        arbiters = [logged_in(port) for _ in range(3)]

        def save(number: int) -> int:
            """A member's page saved as the arbiter does: read, validated, written."""
            return arbiters[number % len(arbiters)](
                f"/beheer/members/member/{members[number % len(members)]}/change/",
                {
                    "name": f"Lid {number}",
                    "email": f"lid{number}@example.org",
                    "is_active": "on",
                    "sex": "",
                    "estimated_rating": str(1000 + number),
                },
            )

        with ThreadPoolExecutor(max_workers=len(arbiters)) as pool:
            statuses = list(pool.map(save, range(SAVES)))
    assert statuses == [200] * SAVES  # each save led back to the list, which answered
    renamed = read(env, "SELECT count(*) FROM members_member WHERE name LIKE 'Lid %'")
    assert renamed == [(len(members),)]
