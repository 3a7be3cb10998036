"""`make run` serves from one SQLite file with the worker beside it: the arbiter's saves never
answer 500 "database is locked" while the worker writes (issue 24, finding 11). The real
processes: gunicorn's workers and the worker's loop on one file with the demo season, the
member admin used over HTTP by three arbiters' browsers at once."""

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from tests.processes import STARTUP, manage, production_env, web_process, worker_process

__all__ = ["production_env"]  # the fixture: a migrated SQLite file of the test's own

SAVES = 40  # one per member of the demo: each is renamed once
PASSWORD = "wl-password-2026"


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

    post("/beheer/login/?next=/beheer/", {"username": "wl", "password": PASSWORD})
    return post


def shell(env: dict, code: str) -> str:
    """The last line a piece of Python prints in a shell of the site's own."""
    done = manage(env, "shell", "-c", code)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_admin_saves_beside_the_workers_loop_never_answer_500(production_env):
    env = {**production_env, "DEBUG": "true"}  # as `make run` (cookies over plain http)
    made = manage(
        {**env, "DJANGO_SUPERUSER_PASSWORD": PASSWORD},
        *("createsuperuser", "--noinput", "--username", "wl", "--email", "wl@example.org"),
    )
    assert made.returncode == 0, made.stderr
    assert manage(env, "load_demo").returncode == 0  # the worker's passes have a season to read
    members = shell(
        env,
        "from members.models import Member; print(*Member.objects.values_list('pk', flat=True))",
    ).split()

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
    renamed = "Member.objects.filter(name__startswith='Lid ').count()"
    assert shell(env, f"from members.models import Member; print({renamed})") == str(len(members))
