"""What-if for a club on one wifi (issue 35, finding 10), through the live server: ten members
behind one address open what-if at once. Before, nine got 429 ("one at a time") and those
refusals used up the minute's allowance of the others (21 of the next 40 answered). Now the
same question asked at once waits for its one answer, two different questions are answered
at once (the page asks the others again a second later), and a refusal because two are being
answered costs nothing of the minute.

The computation is held until every request has arrived (never a fixed wait): a request is
seen arriving where it waits for another's answer, where it is computed, or in its refusal."""

import threading
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlencode

import pytest
import time_machine

from base import fair_use, page_cache
from competition import what_if
from competition.keizer.season import Result as R
from tests.demo import DEMO_NOW
from tests.waiting import wait_until

MEMBERS = 10
RESULTS = [R.WHITE_WINS.value, R.DRAW.value, R.BLACK_WINS.value]


@pytest.fixture
def club_evening(transactional_db, demo, live_server, monkeypatch):
    """The demo on its Sunday, with what-if's computation held until released; what arrived
    where, counted."""
    seen = {"computed": 0, "waiting": 0}
    lock, release = threading.Lock(), threading.Event()

    def count(what):
        with lock:
            seen[what] += 1

    real_answer, real_wait = what_if.answer, page_cache.wait_for_render

    def held_answer(question, results):
        count("computed")
        assert release.wait(60)
        return real_answer(question, results)

    def counted_wait(*args):
        count("waiting")
        return real_wait(*args)

    monkeypatch.setattr(what_if, "answer", held_answer)
    monkeypatch.setattr(page_cache, "wait_for_render", counted_wait)
    with time_machine.travel(DEMO_NOW, tick=False):
        yield live_server.url, seen, release
    release.set()


def ask(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=90) as answer:
            answer.read()
            return answer.status
    except urllib.error.HTTPError as refused:
        return refused.code


def question(number: int) -> str:
    """A question of its own (81 of them): boards 1 to 4 chosen, the rest drawn ("leeg")."""
    boards = {f"bord-{board + 1}": RESULTS[(number // 3**board) % 3] for board in range(4)}
    return urlencode({"ronde": "13", "leeg": R.DRAW.value, **boards})


def test_ten_members_opening_the_same_question_at_once_are_all_answered(club_evening):
    url, seen, release = club_evening
    address = f"{url}/wat-als/?{question(0)}"
    with ThreadPoolExecutor(max_workers=MEMBERS) as members:
        answers = [members.submit(ask, address) for _ in range(MEMBERS)]
        wait_until(
            lambda: seen == {"computed": 1, "waiting": MEMBERS - 1}, "everyone to have arrived"
        )
        release.set()
        statuses = [answer.result() for answer in answers]
    assert statuses == [200] * MEMBERS
    assert seen["computed"] == 1  # one answer, for all ten


def test_different_questions_at_once_two_answered_and_the_refusals_cost_nothing(
    club_evening, monkeypatch
):
    url, seen, release = club_evening
    refused = []
    real_too_many = fair_use.too_many

    def counted_refusal(request, wait):
        refused.append(wait)
        return real_too_many(request, wait)

    monkeypatch.setattr(fair_use, "too_many", counted_refusal)
    (limit,) = [rule for rule in fair_use.LIMITS if rule.name == "what-if"]
    with ThreadPoolExecutor(max_workers=MEMBERS) as members:
        answers = [members.submit(ask, f"{url}/wat-als/?{question(n)}") for n in range(MEMBERS)]
        wait_until(
            lambda: seen["computed"] == limit.at_once and len(refused) == MEMBERS - limit.at_once,
            "two computing and the others refused",
        )
        release.set()
        statuses = sorted(answer.result() for answer in answers)
    assert statuses == [200] * limit.at_once + [429] * (MEMBERS - limit.at_once)
    assert refused == [1] * (MEMBERS - limit.at_once)  # "ask again in a moment"

    # The rest of the minute: what was answered counts, the busy refusals do not.
    later = [ask(f"{url}/wat-als/?{question(MEMBERS + n)}") for n in range(limit.requests)]
    assert later.count(200) == limit.requests - limit.at_once
    assert later[-limit.at_once :] == [429] * limit.at_once
