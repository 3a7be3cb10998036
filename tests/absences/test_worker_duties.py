"""The worker's pass: waiting notices, pairing e-mails, crash safety, two workers at once."""

import threading
from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.urls import reverse

from absences import mail, publication
from competition import services as competition_services
from competition.models import Game, Round

from .conftest import at


def run_pass(moment):
    with time_machine.travel(moment, tick=False):
        return publication.run_pass(moment)


def test_a_missing_result_holds_the_pairing_tells_the_arbiter_once_and_the_site_says_so(
    round_4, jansen, client, mailoutbox
):
    Game.objects.filter(round__number=3, board=2).update(result="")
    run_pass(at(20))
    run_pass(at(20, 20))
    round_4.refresh_from_db()
    assert not round_4.is_published
    notices = [m for m in mailoutbox if "wacht" in m.subject]
    assert len(notices) == 1 and notices[0].to == ["wedstrijdleider@dscdrachten.nl"]
    assert "ronde 3 is niet compleet" in notices[0].body
    with time_machine.travel(at(21), tick=False):
        page = client.get(reverse("competition:pairing")).content.decode()
    assert "De indeling wacht op de uitslagen van de vorige ronde" in page
    Game.objects.filter(round__number=3, board=2).update(result="1/2-1/2")
    run_pass(at(21, 30))
    round_4.refresh_from_db()
    assert round_4.published_at == at(21, 30) and round_4.games.count() == 5


def test_every_paired_member_gets_board_colour_and_opponent_once(round_4, jansen, mailoutbox):
    run_pass(at(20))
    round_4.refresh_from_db()
    pairing_mails = [m for m in mailoutbox if "je indeling" in m.subject]
    assert len(pairing_mails) == 10
    first = round_4.games.select_related("white__member", "black__member").get(board=1)
    to_white = next(m for m in pairing_mails if m.to == [first.white.member.email])
    assert f"Bord 1: je speelt met wit tegen {first.black.name}." in to_white.body
    run_pass(at(20, 20))
    assert len([m for m in mailoutbox if "je indeling" in m.subject]) == 10


def test_the_bye_player_is_told_too(round_4, jansen, mailoutbox, example_competition):
    from competition.models import Absence

    Absence.objects.create(
        round=round_4,
        participant=example_competition.participants.get(member__name="Jansen"),
        reason="excused",
    )
    run_pass(at(20))
    round_4.refresh_from_db()
    assert round_4.published_at == at(20)  # paired and published in one pass, bye included
    bye_mail = next(m for m in mailoutbox if m.to == [round_4.bye.member.email])
    assert "Je bent deze ronde vrij" in bye_mail.body
    assert not any(m.to == [jansen.email] for m in mailoutbox)


def test_past_evenings_are_not_mailed(example_competition, jansen, mailoutbox):
    run_pass(at(20))
    assert mailoutbox == []  # rounds 1-3 are published, but their evenings are over


def test_a_worker_killed_while_publishing_leaves_nothing_half_done(round_4, monkeypatch):
    def crash(*args):
        raise SystemExit("killed")

    monkeypatch.setattr(competition_services, "publish", crash)
    with pytest.raises(SystemExit):
        run_pass(at(20))
    round_4.refresh_from_db()
    assert not round_4.is_published and not round_4.games.exists()
    monkeypatch.undo()
    run_pass(at(20, 5))
    round_4.refresh_from_db()
    assert round_4.is_published and round_4.games.count() == 5


def test_a_worker_killed_while_mailing_mails_again_next_time(
    round_4, jansen, mailoutbox, monkeypatch
):
    real = mail.pairing

    def crash(round_):
        raise ConnectionError("smtp down")

    monkeypatch.setattr(mail, "pairing", crash)
    with pytest.raises(ConnectionError):
        run_pass(at(20))
    assert Round.objects.get(pk=round_4.pk).pairing_mailed_at is None
    monkeypatch.setattr(mail, "pairing", real)
    run_pass(at(20, 1))
    assert len([m for m in mailoutbox if "je indeling" in m.subject]) == 10


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs real row locks between connections: runs on PostgreSQL (CI)",
)
@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_publish_and_mail_once(round_4, jansen, mailoutbox):
    barrier = threading.Barrier(2)
    errors = []

    def worker():
        try:
            barrier.wait()
            publication.run_pass(at(20) + timedelta(seconds=1))
        except Exception as error:  # surfaced below
            errors.append(error)
        finally:
            connection.close()

    with time_machine.travel(at(20, 0, 1), tick=False):
        threads = [threading.Thread(target=worker) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert errors == []
    round_4.refresh_from_db()
    assert round_4.is_published and round_4.games.count() == 5
    assert len([m for m in mailoutbox if "je indeling" in m.subject]) == 10
