"""Mail that looks like the club (issue 25, point 3), read from the bytes a real SMTP server
received for one e-mail of every kind (tests/mail_samples.py)."""

import re
from email.utils import parseaddr, parsedate_to_datetime
from html.parser import HTMLParser

import pytest

from members.models import Member
from operations.letters import Kind
from tests.mail_samples import one_of_each, smtp_server

__all__ = ["one_of_each", "smtp_server"]

TURN_OFF = {  # the kinds a member can turn off, and the choice that does it
    Kind.PAIRING: "mail_pairing",
    Kind.CONFIRMATION: "mail_confirmations",
    Kind.RANKING: "mail_ranking",
    Kind.CORRECTION: "mail_ranking",
    Kind.REMINDER: "mail_reminder",
}


class Text(HTMLParser):
    """The words of an HTML part (and those outside its web links), the addresses of its web
    links and of anything it would load."""

    def __init__(self):
        super().__init__()
        self.all_text = ""
        self.outside_text = ""
        self.links: list[str] = []
        self.loads: list[str] = []
        self.in_link = False

    @property
    def words(self) -> list[str]:
        return self.all_text.split()

    @property
    def outside_links(self) -> list[str]:
        return self.outside_text.split()

    def handle_starttag(self, tag, attrs):
        self.loads += [value for name, value in attrs if name == "src"]
        if tag == "link":
            self.loads += [value for name, value in attrs if name == "href"]
        if tag in ("br", "p", "hr", "title"):  # a break between words
            self.all_text += " "
            self.outside_text += " "
        href = dict(attrs).get("href") or ""
        if tag == "a" and href.startswith("http"):
            self.in_link = True
            self.links.append(href)
            self.outside_text += " "

    def handle_endtag(self, tag):
        if tag == "a" and self.in_link:
            self.in_link = False
            self.outside_text += " "

    def handle_data(self, data):
        self.all_text += data
        if not self.in_link:
            self.outside_text += data


def words(text: str) -> list[str]:
    return text.split()


def plain(words: list[str]) -> list[str]:
    """Words without the punctuation that joins a link's words to its address: "komen:"."""
    return [word.strip("():") for word in words if word.strip("():")]


def in_order(some: list[str], all_: list[str]) -> bool:
    rest = iter(all_)
    return all(word in rest for word in some)


def test_every_kind_comes_from_the_club_and_an_answer_reaches_the_arbiter(one_of_each):
    for kind, arrived in one_of_each.items():
        message = arrived.message
        assert parseaddr(message["From"]) == ("DSC Drachten", "wedstrijdleider@dscdrachten.nl")
        reply_to = message["Reply-To"]
        if kind in (Kind.ARBITER, Kind.ERROR):
            assert reply_to is None, kind
        else:
            assert parseaddr(reply_to)[1] == "wedstrijdleider@dscdrachten.nl", kind
        assert re.fullmatch(r"<[^@>]+@dsc\.example\.org>", message["Message-ID"]), kind
        sent = parsedate_to_datetime(message["Date"])
        assert sent.utcoffset().total_seconds() in (3600, 7200), kind  # the club's time


def test_every_kind_has_a_text_and_an_html_part_saying_the_same_and_nothing_remote(
    one_of_each,
):
    for kind, arrived in one_of_each.items():
        message = arrived.message
        assert message.get_content_type() == "multipart/alternative", kind
        text = message.get_body(("plain",)).get_content()
        html = message.get_body(("html",)).get_content()
        parsed = Text()
        parsed.feed(html)
        assert parsed.loads == [], kind  # no remote images or styles
        assert '<html lang="nl">' in html, kind
        title = message["Subject"].split()
        assert parsed.words[: len(title)] == title, kind  # the title, then the text
        signature = "--"  # the text's signature line; the HTML draws a rule there
        said = [w for w in words(text) if w != signature]
        # The HTML says what the text says: each address the text writes out is a link there,
        # with the words before it (or a button's words when the text gives the address alone).
        addresses = [w for w in said if "://" in w]
        assert [link for link in parsed.links if link not in addresses] == [], kind
        if kind != Kind.ERROR:  # a report quotes the request as it came: links mid-word
            assert in_order(plain(parsed.outside_links[len(title) :]), plain(said)), kind
        assert in_order(plain([w for w in said if "://" not in w]), plain(parsed.words)), kind
        if kind != Kind.ERROR:  # a report quotes the failed request as it came
            assert "http://testserver" not in text and "127.0.0.1" not in text, kind


def test_every_link_uses_the_sites_address(one_of_each):
    for kind, arrived in one_of_each.items():
        if kind == Kind.ERROR:  # it quotes the failed request as it came
            continue
        text = arrived.message.get_body(("plain",)).get_content()
        for address in re.findall(r"https?://\S+", text):
            assert re.match(r"https://dsc\.example\.org(/|$)", address), (kind, address)


def test_the_pairing_mail_gives_the_start_board_colour_opponent_and_how_to_cancel(one_of_each):
    text = one_of_each[Kind.PAIRING].message.get_body(("plain",)).get_content()
    assert re.search(r"we beginnen om \d\d:\d\d", text)
    assert re.search(r"Bord \d+: je speelt met (wit|zwart) tegen \w", text)
    assert "Ik kan niet komen: https://dsc.example.org/afmelden/link/?code=" in text
    forfeit = one_of_each[Kind.FORFEIT].message.get_body(("plain",)).get_content()
    assert "https://dsc.example.org/indeling/#ronde-4" in forfeit


def test_only_what_a_member_can_turn_off_carries_one_click_unsubscribe(one_of_each):
    for kind, arrived in one_of_each.items():
        message = arrived.message
        if kind in TURN_OFF:
            assert re.fullmatch(
                r"<https://dsc\.example\.org/e-mail/uitzetten/\?code=\S+>",
                message["List-Unsubscribe"].strip(),
            ), kind
            assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click", kind
            assert "Met één klik zet je ze uit" in message.get_body(("plain",)).get_content()
        else:
            assert message["List-Unsubscribe"] is None, kind


@pytest.mark.parametrize("kind", sorted(TURN_OFF))
def test_the_one_click_post_turns_off_exactly_that_kind_for_that_member(one_of_each, client, kind):
    """As a mail provider does it (RFC 8058): a POST with the one-click body, no login, no
    CSRF token; a GET only asks."""
    message = one_of_each[kind].message
    address = message["List-Unsubscribe"].strip().strip("<>").replace("https://dsc.example.org", "")
    member = Member.objects.get(email=message["To"])
    before = {f: getattr(member, f) for f in set(TURN_OFF.values())}
    assert before[TURN_OFF[kind]] is True
    client.logout()
    asked = client.get(address)
    assert asked.status_code == 200 and "Uitzetten" in asked.content.decode()
    member.refresh_from_db()
    assert getattr(member, TURN_OFF[kind]) is True  # a GET changes nothing
    client.handler.enforce_csrf_checks = True
    done = client.post(
        address, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert done.status_code == 200 and "deze e-mails krijg je niet meer" in done.content.decode()
    member.refresh_from_db()
    after = {f: getattr(member, f) for f in set(TURN_OFF.values())}
    assert after == {**before, TURN_OFF[kind]: False}


def test_a_tampered_unsubscribe_link_is_refused_and_changes_nothing(one_of_each, client):
    message = one_of_each[Kind.RANKING].message
    address = message["List-Unsubscribe"].strip().strip("<>").replace("https://dsc.example.org", "")
    response = client.post(address[:-3] + "xyz")
    assert response.status_code == 400
    assert Member.objects.get(email=message["To"]).mail_ranking is True
