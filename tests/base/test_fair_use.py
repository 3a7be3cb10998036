"""Fair use for strangers (issue 26, point 4): the expensive pages take a limited number of
requests per client address; one too many gets the site's Dutch 429 page with Retry-After,
another address and the ordinary pages are untouched, and the next window is open again. What
the page cache answers costs nothing and is not counted: each request here that should count
comes after a change (`page_cache.changed`), as when results are being entered."""

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from base import fair_use, page_cache

WHAT_IF = reverse("competition:what-if")
MOMENT = 1_800_000_000  # the start of a window of every limit (a multiple of 600 s)


def client_from(address: str) -> Client:
    return Client(REMOTE_ADDR=address, raise_request_exception=False)


@pytest.mark.parametrize(
    ("limit_name", "method", "url"),
    [
        ("what-if", "GET", WHAT_IF),
        ("csv", "GET", "/ranglijst/1.csv"),
        ("calendar", "GET", "/kalender.ics"),
        ("password-reset", "POST", "/accounts/password_reset/"),
    ],
)
def test_one_request_too_many_gets_the_dutch_429_page_and_others_go_on(
    example_competition, limit_name, method, url
):
    (limit,) = [rule for rule in fair_use.LIMITS if rule.name == limit_name]
    hammer, other = client_from("198.51.100.7"), client_from("203.0.113.5")

    def ask(client):
        page_cache.changed()  # nothing stored: the request costs work, and counts
        if method == "GET":
            return client.get(url)
        return client.post(url, {"email": "iemand@example.org"})

    with time_machine.travel(MOMENT, tick=False):
        answers = [ask(hammer).status_code for _ in range(limit.requests)]
        assert 429 not in answers
        refused = ask(hammer)
        assert refused.status_code == 429
        assert int(refused["Retry-After"]) == limit.seconds
        assert "Een ogenblik, alstublieft" in refused.content.decode()
        assert ask(other).status_code != 429  # another address
        assert hammer.get(reverse("competition:standings")).status_code == 200  # other pages
    with time_machine.travel(MOMENT + limit.seconds, tick=False):
        assert ask(hammer).status_code != 429  # the next window


def test_behind_the_proxy_the_address_it_saw_counts_not_what_the_client_wrote(
    example_competition, settings
):
    settings.TRUSTED_PROXIES = 1
    (limit,) = [rule for rule in fair_use.LIMITS if rule.name == "what-if"]
    proxy = Client(REMOTE_ADDR="10.0.0.2")
    with time_machine.travel(MOMENT, tick=False):
        for number in range(limit.requests):
            page_cache.changed()
            forged = f"192.0.2.{number % 250}, 198.51.100.7"  # Caddy appends what it saw
            assert proxy.get(WHAT_IF, HTTP_X_FORWARDED_FOR=forged).status_code == 200
        page_cache.changed()
        last = proxy.get(WHAT_IF, HTTP_X_FORWARDED_FOR="192.0.2.251, 198.51.100.7")
        assert last.status_code == 429


@pytest.mark.parametrize("url", [WHAT_IF, "/ranglijst/1.csv", "/kalender.ics"])
def test_what_the_page_cache_answers_is_not_counted(example_competition, url):
    """Issue 28: a what-if asked again (a member clicking back and forth, a page shared in the
    club's chat) is answered from the page cache, at a static file's cost: never refused."""
    (limit,) = [rule for rule in fair_use.LIMITS if rule.path.search(url)]
    client = client_from("198.51.100.7")
    with time_machine.travel(MOMENT, tick=False):
        answers = [client.get(url).status_code for _ in range(limit.requests * 2)]
    assert answers == [200] * (limit.requests * 2)


def test_what_if_answers_two_at_a_time_per_address_and_a_busy_refusal_costs_nothing(rf, db):
    """A client may keep two web workers busy with what-if, never more: while two of its
    requests are being answered, the next one from that address gets 429 at once (another
    address does not), and that refusal is not counted against its minute (issue 35, finding
    10: on a club's wifi the refusals used up the others' allowance). The refusal's page names
    the club (its row, read once per request: `db`)."""
    from django.http import HttpResponse

    (limit,) = [rule for rule in fair_use.LIMITS if rule.name == "what-if"]
    assert limit.at_once == 2
    seen = []

    def ask(address="198.51.100.7"):
        return middleware(rf.get(WHAT_IF, REMOTE_ADDR=address)).status_code

    def view(request):  # the first asks the next while it is being answered
        if request.META["REMOTE_ADDR"] == "198.51.100.7" and len(seen) < 2:
            seen.append("answering")
            if len(seen) < 2:
                seen.append(ask())
            else:  # two at once now
                seen.extend([ask() for _ in range(5)] + [ask("203.0.113.5")])
        return HttpResponse("antwoord")

    middleware = fair_use.FairUseMiddleware(view)
    with time_machine.travel(MOMENT, tick=False):
        assert ask() == 200
        assert seen == ["answering", "answering", *[429] * 5, 200, 200]
        answered = 2  # the five refusals counted nothing
        more = [ask() for _ in range(limit.requests)]
    assert more == [200] * (limit.requests - answered) + [429] * answered
