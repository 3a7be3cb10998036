"""Links that need no password (issue 23, point 4): "Ik kan niet komen" and "Ik kom toch" for
one member and one round, the same preview and rules as the logged-in page, until the evening
begins; never a login, never cached, never in a log line."""

import logging
import re
from urllib.parse import urlsplit

import pytest
import time_machine
from django.core import signing
from django.test import Client
from django.urls import reverse

from absences.models import Registration
from competition.models import Absence, Game
from members import links
from tests.factories import cancel_online
from tests.moments import EVENING_4, at


def path_of(address: str) -> str:
    parts = urlsplit(address)
    return f"{parts.path}?{parts.query}"


def cancel_link(member, round_, purpose=links.CANCEL) -> str:
    return path_of(links.address("absences:by-link", member, round_.pk, purpose))


def confirm(client, path):
    """Open the link and press Bevestigen, as a member does."""
    page = client.get(path).content.decode()
    preview = re.search(r'name="preview" value="([^"]+)"', page).group(1)
    return client.post(path, {"preview": preview, "confirm": "1"})


def test_a_member_cancels_in_time_from_the_link_without_logging_in(client, jansen, round_4):
    with time_machine.travel(at(12), tick=False):
        page = client.get(cancel_link(jansen, round_4))
        text = page.content.decode()
        assert "Ronde 4, donderdag 24 september: Jansen" in text
        assert "Op tijd afgemeld: ⅓ van je waarde 48 = 16 punten." in text
        assert not Absence.objects.exists()  # opening the link (a mail scanner) does nothing
        done = confirm(client, cancel_link(jansen, round_4)).content.decode()
    assert "Gedaan:" in done
    absence = Absence.objects.get(round=round_4)
    assert absence.participant.member == jansen and absence.reason == "excused"
    record = jansen.registrations.get()
    assert record.made_by == jansen.user and record.reported_at == at(12)
    assert "_auth_user_id" not in client.session  # no login
    assert client.get(reverse("members:profile")).status_code == 302  # no other page


def test_after_publication_the_link_shows_the_forfeit_in_red_before_anything_happens(
    client, jansen, published_round_4, mailoutbox, django_capture_on_commit_callbacks
):
    path = cancel_link(jansen, published_round_4)
    with time_machine.travel(at(21), tick=False):
        page = client.get(path).content.decode()
        assert "alert-danger" in page and "btn-danger" in page
        assert "reglementair" in page
        assert not Absence.objects.exists()
        with django_capture_on_commit_callbacks(execute=True):
            confirm(client, path)
    player = published_round_4.competition.participants.get(member=jansen)
    game = Game.objects.involving(player).get(round=published_round_4)
    assert game.result in (Game.Result.WHITE_WINS_BY_FORFEIT, Game.Result.BLACK_WINS_BY_FORFEIT)
    assert any("kan niet komen" in m.subject for m in mailoutbox)  # the opponent is told


def test_a_cancelled_member_comes_after_all_from_the_confirmations_link(
    client, jansen, round_4, mailoutbox, django_capture_on_commit_callbacks
):
    with time_machine.travel(at(12), tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            confirm(client, cancel_link(jansen, round_4))
        [confirmation] = mailoutbox
        [again] = re.findall(r"Ik kom toch: (\S+)", confirmation.body)
        done = confirm(client, path_of(again)).content.decode()
    assert "Weer aangemeld: je wordt ingedeeld." in done
    assert not Absence.objects.filter(round=round_4).exists()
    assert list(jansen.registrations.values_list("outcome", flat=True).order_by("sequence")) == [
        Registration.Outcome.EXCUSED,
        Registration.Outcome.PRESENT,
    ]


def test_a_reused_link_changes_nothing_and_says_so(client, jansen, round_4):
    with time_machine.travel(at(12), tick=False):
        confirm(client, cancel_link(jansen, round_4))
        again = client.get(cancel_link(jansen, round_4)).content.decode()
    assert "er is niets te bevestigen" in again.lower()
    assert 'name="confirm"' not in again
    assert jansen.registrations.count() == 1


@pytest.mark.parametrize("damage", ["tampered", "cut", "other purpose", "empty"])
def test_a_damaged_link_is_refused_and_changes_nothing(client, jansen, round_4, damage):
    code = links.code(jansen, round_4.pk, links.CANCEL)
    if damage == "tampered":  # another member's number with the signature left as it was
        _value, signature = code.rsplit(":", 1)
        forged = signing.dumps([jansen.pk + 1, round_4.pk, links.CANCEL], salt=links.SALT)
        code = forged.rsplit(":", 1)[0] + ":" + signature
    elif damage == "cut":
        code = code[:-4]
    elif damage == "other purpose":
        code = links.code(jansen, round_4.pk, links.RESULT)
    else:
        code = ""
    with time_machine.travel(at(12), tick=False):
        response = client.get(reverse("absences:by-link") + "?code=" + code)
        assert response.status_code == 400
        assert "Deze link klopt niet." in response.content.decode()
        posted = client.post(reverse("absences:by-link") + "?code=" + code, {"confirm": "1"})
    assert posted.status_code == 400
    assert not Absence.objects.exists() and not Registration.objects.exists()


def test_the_link_stops_working_when_the_evening_begins(client, jansen, published_round_4):
    path = cancel_link(jansen, published_round_4)
    with time_machine.travel(at(19, 45, day=EVENING_4), tick=False):
        response = client.get(path)
    assert response.status_code == 410
    assert "de partijen van ronde 4 zijn begonnen" in response.content.decode()


def test_a_link_opened_after_publication_says_what_it_now_means(client, jansen, paired_round_4):
    """Sent as the confirmation's "Ik kan niet komen" when the round was not paired; opened
    after the pairing is published: the preview says it is now a forfeit."""
    from competition import services as competition_services

    path = cancel_link(jansen, paired_round_4)
    with time_machine.travel(at(12), tick=False):
        assert "Op tijd afgemeld" in client.get(path).content.decode()
    competition_services.publish(paired_round_4, at(20))
    with time_machine.travel(at(21), tick=False):
        assert "reglementair" in client.get(path).content.decode()


def test_a_preview_confirmed_after_the_plan_changed_is_shown_again(client, jansen, round_4):
    path = cancel_link(jansen, round_4)
    with time_machine.travel(at(17, 59), tick=False):
        page = client.get(path).content.decode()
    preview = re.search(r'name="preview" value="([^"]+)"', page).group(1)
    with time_machine.travel(at(18, 1), tick=False):  # after the deadline: a late cancellation
        shown = client.post(path, {"preview": preview, "confirm": "1"}).content.decode()
    assert "Er is iets veranderd sinds je keek" in shown
    assert "Na de deadline: je wordt niet ingedeeld" in shown and "btn-danger" in shown
    assert not Absence.objects.exists()


def test_the_links_page_is_never_stored_and_never_passed_on(client, jansen, round_4, caplog):
    path = cancel_link(jansen, round_4)
    code = path.split("code=")[1]
    with time_machine.travel(at(12), tick=False), caplog.at_level(logging.INFO):
        response = client.get(path)
        gone = client.get(path[:-3])  # a damaged code: Django logs "Bad Request: <path>"
    assert "no-store" in response["Cache-Control"]
    assert response["Referrer-Policy"] == "same-origin"  # the code goes to no other site
    assert gone.status_code == 400
    logged = [record for record in caplog.records if record.name == "django.request"]
    assert logged and all(
        code[:-3] not in record.getMessage() and code[:-3] not in getattr(record, "path", "")
        for record in logged
    )


def test_the_confirmation_carries_the_way_back(
    jansen_client, jansen, round_4, mailoutbox, django_capture_on_commit_callbacks
):
    with time_machine.travel(at(12), tick=False), django_capture_on_commit_callbacks(execute=True):
        cancel_online(
            jansen_client,
            reverse("absences:mine"),
            {"rounds": [round_4.pk], "action": "cancel", "reason": "regular"},
        )
    [confirmation] = mailoutbox
    back = re.search(r"Ik kom toch: (\S+)", confirmation.body).group(1)
    with time_machine.travel(at(12, 5), tick=False):
        page = Client().get(path_of(back)).content.decode()
    assert "Weer aangemeld: je wordt ingedeeld." in page


def test_the_access_log_names_the_path_without_the_query():
    """gunicorn's access log (gunicorn.conf.py, in the image too: test_image_tree) never writes
    a link's code."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    settings = {}
    exec((root / "gunicorn.conf.py").read_text(), settings)
    access = settings["access_log_format"]
    assert "%(U)s" in access
    assert not any(part in access for part in ("%(r)s", "%(q)s", "%({"))


# -- after an early publication (issue 35, finding 12) -------------------------------------------

ASK = (
    "De wedstrijdleider bereik je via {address}; een antwoord op een e-mail van de club (ook je "
    "bevestiging) komt ook bij de wedstrijdleider."
)


def text(page: str) -> str:
    """What the page says, its markup left out."""
    return " ".join(re.sub(r"<[^>]+>", "", page).split())


def test_ik_kom_toch_after_an_early_publication_says_the_pairing_is_fixed_and_names_the_arbiter(
    client, jansen, round_4, mailoutbox, settings, django_capture_on_commit_callbacks
):
    """Jansen cancels in time on Friday morning; the arbiter publishes at 10:00, before the
    deadline; at 11:00 "Ik kom toch" from the confirmation says what is true: the pairing is
    fixed, Jansen stays cancelled in time, only the arbiter can change it, and how to reach
    them (a mailto link, or a reply to the confirmation)."""
    from competition import services as competition_services

    with time_machine.travel(at(9), tick=False), django_capture_on_commit_callbacks(execute=True):
        confirm(client, cancel_link(jansen, round_4))
    [again] = re.findall(r"Ik kom toch: (\S+)", mailoutbox[0].body)
    competition_services.make_pairing(round_4)
    competition_services.publish(round_4, at(10))
    with time_machine.travel(at(11), tick=False):
        page = client.get(path_of(again)).content.decode()
        posted = client.post(path_of(again), {"confirm": "1"}).content.decode()
    said = (
        "De indeling is gepubliceerd en ligt vast; voor jou blijft het: op tijd afgemeld. "
        "Alleen de wedstrijdleider kan dat nu nog veranderen."
    )
    for shown in (page, posted):
        assert said in text(shown)
        assert f'href="mailto:{settings.ARBITER_EMAIL}">{settings.ARBITER_EMAIL}</a>' in shown
        assert ASK.format(address=settings.ARBITER_EMAIL) in text(shown)
        assert 'name="confirm"' not in shown
    assert Absence.objects.get(round=round_4).reason == "excused"


def test_a_forfeit_after_an_early_publication_names_the_arbiter_and_promises_no_way_back(
    client, jansen, paired_round_4, mailoutbox, settings, django_capture_on_commit_callbacks
):
    """Published at 10:00 on Friday, before the deadline; Jansen cannot come after all at
    11:00: the preview and the page after Bevestigen say it is a forfeit and how to reach the
    arbiter; the confirmation speaks of the published pairing, not of Friday's deadline, and
    offers no "Ik kom toch" (nothing undoes a forfeit); an older "Ik kom toch" link says the
    game stays lost by default instead of "al aangemeld"."""
    from competition import services as competition_services

    competition_services.publish(paired_round_4, at(10))
    path = cancel_link(jansen, paired_round_4)
    with time_machine.travel(at(11), tick=False):
        preview = client.get(path).content.decode()
        with django_capture_on_commit_callbacks(execute=True):
            done = confirm(client, path).content.decode()
        back = client.get(cancel_link(jansen, paired_round_4, links.REGISTER)).content.decode()
    asked = ASK.format(address=settings.ARBITER_EMAIL)
    assert "De indeling is gepubliceerd: 0 punten" in text(preview) and asked in text(preview)
    assert "Gedaan:" in done and asked in text(done)
    [confirmation] = [m for m in mailoutbox if m.to == [jansen.email]]
    assert "(indeling gepubliceerd): De indeling is gepubliceerd: 0 punten" in confirmation.body
    assert "afmelden tot" not in confirmation.body and "Ik kom toch" not in confirmation.body
    assert "Beantwoord deze e-mail, dan komt je antwoord bij de wedstrijdleider." in (
        confirmation.body
    )
    assert "voor jou blijft het: reglementair verloren" in text(back)
    assert "al aangemeld" not in text(back) and asked in text(back)
