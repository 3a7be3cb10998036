"""A second club runs its own week (issue 40, point 5): `load_demo --club de-toren` (what
`make run CLUB=de-toren` serves) is Schaakclub De Toren of Sneek: Tuesday evenings, cancelling
until Sunday 20:00, the pairing on Monday at 12:00, an excused absence worth half the own value
with at most three counted. Its week runs end to end through the site's pages and the real
worker: a member cancels, the worker publishes at the club's own moment and sends the e-mails,
the results make the standings. Every page of every role, every file the site hands out and
every e-mail of the week is then read for "DSC" and "Drachten": none.
"""

import re
from datetime import date, datetime
from html.parser import HTMLParser
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail
from django.urls import reverse

from arbiter.club_page import set_club
from club.models import current, forget
from clubweek.worker import run_pass
from competition import services
from competition.models import Competition
from dsc_site.demo_clubs import DE_TOREN
from members.models import Member
from tests.demo import DemoRows
from tests.factories import cancel_online
from tests.mail_samples import one_of_each, smtp_server
from tests.pages import SLOW_TO_VISIT, addresses, client_for, filled, pages_of
from tests.shared_files import shared_folder

AMSTERDAM = ZoneInfo("Europe/Amsterdam")
# Sunday 22 November 2026, noon: round 12 was Tuesday 17 November; round 13 (Tuesday 24
# November) can be cancelled in time until 20:00 tonight, its pairing appears Monday at 12:00.
SUNDAY_NOON = datetime(2026, 11, 22, 12, tzinfo=AMSTERDAM)
MONDAY = datetime(2026, 11, 23, tzinfo=AMSTERDAM)
ARBITER = ("wedstrijdleider", "")
JAN = ("jan", "")
NAMED = re.compile(r"\bdsc\b|drachten", re.IGNORECASE)  # as a word: not in "landscape"


@pytest.fixture(scope="session")
def de_toren_rows(tmp_path_factory):
    """`load_demo --club de-toren` at SUNDAY_NOON, built once in the run (tests/demo.py)."""
    return DemoRows(shared_folder(tmp_path_factory), "de-toren", SUNDAY_NOON)


@pytest.fixture
def de_toren(db, settings, de_toren_rows):
    settings.SITE_URL = "https://detoren.example.org"
    de_toren_rows.load()
    forget()  # the club's row as the demo left it
    return Competition.objects.classical().order_by("-season__start_date").first()


def at(day: datetime, hour: int, minute: int = 0) -> datetime:
    return day.replace(hour=hour, minute=minute)


def test_the_second_club_is_its_own(de_toren):
    club = current()
    assert (club.name, club.short_name, club.place) == ("Schaakclub De Toren", "De Toren", "Sneek")
    round_13 = de_toren.rounds.get(number=13)
    assert round_13.date.isoweekday() == 2  # a Tuesday
    assert round_13.cancellation_deadline == datetime(2026, 11, 22, 20, tzinfo=AMSTERDAM)
    assert round_13.publish_at == datetime(2026, 11, 23, 12, tzinfo=AMSTERDAM)
    settings = de_toren.engine_settings()
    assert (settings.excused_fraction, settings.absence_limit) == (1 / 2, 3)


def test_its_week_runs_end_to_end_and_nothing_names_dsc(de_toren, mailoutbox):
    round_13 = de_toren.rounds.get(number=13)
    Member.objects.filter(user__username="jan").update(mail_pairing=True, mail_ranking=True)
    jan = client_for(JAN)
    with time_machine.travel(at(SUNDAY_NOON, 19, 59), tick=False):
        page = cancel_online(
            jan,
            reverse("absences:mine"),
            {"rounds": [round_13.pk], "action": "cancel", "reason": "regular"},
        ).content.decode()
    assert "op tijd afgemeld" in page.lower()
    # The worker publishes at the club's own moment, Monday 12:00, not at DSC's.
    for moment in (at(SUNDAY_NOON, 20), at(MONDAY, 11, 59)):
        with time_machine.travel(moment, tick=False):
            run_pass(moment)
        round_13.refresh_from_db()
        assert not round_13.is_published, moment
    with time_machine.travel(at(MONDAY, 12), tick=False):
        run_pass(at(MONDAY, 12))
    round_13.refresh_from_db()
    assert round_13.published_at == at(MONDAY, 12)
    pairing = [m for m in mailoutbox if m.subject.startswith("De Toren: je indeling voor")]
    assert pairing and all(m.from_email.startswith("Schaakclub De Toren") for m in pairing)
    # The evening is played; once its results are final (23:30) the ranking mail goes out.
    services.enter_results(round_13, {game.pk: "1-0" for game in round_13.games.all()})
    evening = datetime(2026, 11, 24, 23, 30, tzinfo=AMSTERDAM)
    with time_machine.travel(evening, tick=False):
        run_pass(evening)
    standing = de_toren.rankings.get(after_round=13).standings.get(
        participant__member__user__username="jan"
    )
    # Excused: half the own value, not DSC's third (capped at three absences; Jan has fewer).
    assert standing.round_points[12] * 2 == standing.valuation_value
    ranking = [
        m for m in mailoutbox if "De uitslagen van ronde 13" in m.body and m.to[0][:3] == "jan"
    ]
    assert ranking and "Ronde 13: op tijd afgemeld: ½ van eigen waarde" in ranking[0].body
    named = [
        f"{message.subject}: {match}"
        for message in mail.outbox
        for text in (message.subject, message.from_email, message.body, *message.to)
        for match in NAMED.findall(text)
    ]
    assert named == []


class Reader(HTMLParser):
    """A page's text and the attributes shown or read aloud (a title, a label, an image's
    text, a placeholder, a field's value, the page's description); not the keys a form sends
    (an option's value: the season file's `dsc`, the spec's name of DSC's rules)."""

    SHOWN = {"title", "alt", "aria-label", "placeholder", "content"}

    def __init__(self):
        super().__init__()
        self.parts = []

    def handle_data(self, data):
        self.parts.append(data)

    def handle_starttag(self, tag, attrs):
        shown = dict(attrs)
        self.parts += [value or "" for name, value in attrs if name in self.SHOWN]
        if tag in {"input", "textarea"} and shown.get("type") not in {"hidden", "radio"}:
            self.parts.append(shown.get("value") or "")


def what_a_person_reads(page: str) -> str:
    reader = Reader()
    reader.feed(page)
    return "\n".join(reader.parts)


def test_the_reader_sees_text_and_labels_but_not_an_options_key():
    page = '<p title="DSC">x</p><option value="dsc">standaard</option><b>Drachten</b>'
    assert NAMED.findall(what_a_person_reads(page)) == ["DSC", "Drachten"]


@pytest.mark.parametrize(
    ("who", "account"), [("visitor", None), ("member", JAN), ("arbiter", ARBITER)]
)
def test_no_page_or_file_of_the_second_club_names_dsc(de_toren, who, account):
    with time_machine.travel(at(MONDAY, 13), tick=False):
        client = client_for(account)
        paths = pages_of(account, admin=account == ARBITER, public=account != ARBITER)
        found = {}
        for path in paths:
            shown = what_a_person_reads(client.get(path).content.decode())
            found |= {path: NAMED.findall(shown)} if NAMED.search(shown) else {}
        files = 0
        for route, _view in addresses():
            if route in SLOW_TO_VISIT:
                continue
            response = client.get(filled(route, None))
            if response.status_code != 200 or response.streaming:
                continue
            if "html" in response.get("Content-Type", ""):
                continue
            files += 1
            text = response.content.decode("utf-8", "replace")
            disposition = response.get("Content-Disposition", "")
            if NAMED.search(text) or NAMED.search(disposition):
                found[route] = NAMED.findall(text + disposition)
    assert len(paths) > {"visitor": 15, "member": 20, "arbiter": 50}[who]
    assert files and found == {}


@pytest.fixture
def de_toren_row(db):
    """The club's row as De Toren's (the worked example's rounds stay where they are)."""
    set_club(DE_TOREN.club, date(2026, 8, 1))


def test_no_email_of_any_kind_names_dsc(de_toren_row, one_of_each):
    """One e-mail of every kind (`tests/mail_samples.py`), sent by De Toren: its headers a
    person reads and its text. The test deployment's own address (`SITE_URL`, the
    environment's: https://dsc.example.org) is left out; the club's words are what is read."""
    named = {}
    for kind, arrived in one_of_each.items():
        message = arrived.message
        texts = [str(message[name] or "") for name in ("From", "To", "Reply-To", "Subject")]
        texts += [
            part.get_content()
            for part in message.walk()
            if part.get_content_maintype() == "text" and kind != "error"
        ]
        text = "\n".join(texts).replace("https://dsc.example.org", "")
        if NAMED.search(text):
            named[kind] = NAMED.findall(text)
    assert len(one_of_each) > 10 and named == {}
    assert one_of_each["pairing"].message["From"].startswith("Schaakclub De Toren")


__all__ = ["one_of_each", "smtp_server"]  # fixtures
