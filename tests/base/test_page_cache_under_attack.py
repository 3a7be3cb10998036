"""The page cache cannot be switched off (issue 35, finding 4), shown as it was found: a client
with eight connections at once, through the live server, sending junk and forged cookies, a
made-up session, and HEAD requests. Before, each such request rendered the
standings afresh (25 a second instead of 2,137; other visitors' median went from 1.3 ms to
79). Now none of them renders a page: every one is given the stored copy."""

import threading
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import pytest
import time_machine
from django.test.signals import template_rendered

HOSTILE = [
    ("GET", "messages=junk"),
    ("GET", "messages=e30:1tXabc:forged-signature"),
    ("GET", "sessionid=kz1q8y0m2w7c3v5b9n4x6l0p2r8t5e3a"),
    ("GET", "sessionid=kz1q8y0m2w7c3v5b9n4x6l0p2r8t5e3a; csrftoken=" + "x" * 32),
    ("GET", "sessionid=x; messages=y; taal=fr"),
    ("HEAD", ""),
    ("HEAD", "messages=junk"),
]


@pytest.fixture
def renders():
    """The standings pages rendered meanwhile, in any thread of the live server."""
    rendered, lock = [], threading.Lock()

    def count(sender, template, **kwargs):
        if template.name == "competition/standings.html":
            with lock:
                rendered.append(template.name)

    template_rendered.connect(count)
    yield rendered
    template_rendered.disconnect(count)


def ask(url: str, method: str, cookie: str) -> tuple[int, bytes]:
    request = urllib.request.Request(
        url, method=method, headers={"Cookie": cookie} if cookie else {}
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        return answer.status, answer.read()


@pytest.mark.django_db(transaction=True)
def test_eight_hostile_connections_render_no_page(example_competition, live_server, renders):
    url = f"{live_server.url}/ranglijst/"
    start_of_a_minute = datetime.now(UTC).replace(second=0, microsecond=0)
    with time_machine.travel(start_of_a_minute, tick=False):
        status, visitors_page = ask(url, "GET", "")  # the first visitor: rendered and stored
        assert status == 200 and len(renders) == 1
        with ThreadPoolExecutor(max_workers=8) as hostile:
            answers = list(hostile.map(lambda n: ask(url, *HOSTILE[n % len(HOSTILE)]), range(140)))
    assert len(renders) == 1, f"{len(renders) - 1} pages rendered for hostile requests"
    assert {status for status, _body in answers} == {200}
    for number, (_status, body) in enumerate(answers):
        method, _cookie = HOSTILE[number % len(HOSTILE)]
        assert body == (b"" if method == "HEAD" else visitors_page)
