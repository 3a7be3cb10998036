"""Bevestigen applies exactly what the preview showed, and nothing else (issue 10, point 1)."""

import re
from datetime import timedelta

import time_machine
from django.test import Client
from django.urls import reverse

from absences.models import Registration
from competition import services as competition_services
from competition.models import Absence, Game, Round
from tests.factories import cancel_online
from tests.moments import at

URL = reverse("absences:mine")


def preview_of(client, data) -> tuple[str, str]:
    page = client.post(URL, data).content.decode()
    return page, re.search(r'name="preview" value="([^"]+)"', page)[1]


def confirm(client, data, token):
    return client.post(URL, {**data, "preview": token, "confirm": "1"}, follow=True)


def nothing_was_done(round_):
    return (
        not Absence.objects.exists()
        and not Registration.objects.exists()
        and not (Game.objects.filter(round=round_).exclude(result="").exists())
    )


def test_confirming_without_a_preview_shows_the_preview(jansen_client, round_4):
    data = {"rounds": [round_4.pk], "action": "cancel", "reason": "regular"}
    with time_machine.travel(at(12), tick=False):
        page = jansen_client.post(URL, {**data, "confirm": "1"}).content.decode()
    assert "Dit gaat er gebeuren:" in page and 'name="preview"' in page
    assert "Je keuze wijkt af van wat je zag" in page
    assert nothing_was_done(round_4)


def test_a_selection_changed_after_the_preview_is_shown_again(
    jansen_client, round_4, example_competition
):
    round_5 = Round.on_evening(example_competition, 5, round_4.date + timedelta(weeks=1))
    round_5.save()
    shown = {"rounds": [round_4.pk], "action": "cancel", "reason": "regular"}
    with time_machine.travel(at(12), tick=False):
        _, token = preview_of(jansen_client, shown)
        for changed in (
            {**shown, "rounds": [round_4.pk, round_5.pk]},
            {**shown, "rounds": [round_5.pk]},
            {**shown, "reason": "team"},
            {**shown, "action": "register"},
        ):
            page = confirm(jansen_client, changed, token).content.decode()
            assert "Je keuze wijkt af van wat je zag" in page, changed
            assert "Ronde 5" in page or changed["rounds"] == [round_4.pk]
    assert nothing_was_done(round_4)


def test_a_forged_or_foreign_token_applies_nothing(
    jansen_client, round_4, arbiter, example_competition
):
    data = {"rounds": [round_4.pk], "action": "cancel", "reason": "regular"}
    arbiter_client = Client()
    arbiter_client.force_login(arbiter)
    other = example_competition.participants.get(member__name="Pietersen").member
    with time_machine.travel(at(12), tick=False):
        _, token = preview_of(jansen_client, data)
        confirm(jansen_client, data, token[:-2] + ("aa" if token[-2:] != "aa" else "bb"))
        # The arbiter's preview of the same request for another member.
        page = arbiter_client.post(URL + f"?lid={other.pk}", data).content.decode()
        foreign = re.search(r'name="preview" value="([^"]+)"', page)[1]
        confirm(jansen_client, data, foreign)
    assert nothing_was_done(round_4)


def test_a_preview_made_before_the_deadline_is_not_applied_after_it(jansen_client, round_4):
    data = {"rounds": [round_4.pk], "action": "cancel", "reason": "regular"}
    with time_machine.travel(at(17, 59), tick=False):
        page, token = preview_of(jansen_client, data)
    assert "Op tijd afgemeld" in page
    with time_machine.travel(at(18, 1), tick=False):
        page = confirm(jansen_client, data, token).content.decode()
    assert "Er is iets veranderd sinds je keek" in page
    assert "Na de deadline" in page  # the new preview says what it means now
    assert nothing_was_done(round_4)
    with time_machine.travel(at(18, 2), tick=False):
        _, token = preview_of(jansen_client, data)
        confirm(jansen_client, data, token)
    assert Absence.objects.get().reason == "late"


def test_a_forfeit_for_the_opponent_is_never_applied_unseen(jansen_client, paired_round_4):
    """Previewed before publication, confirmed after it: the opponent's forfeit win is shown
    first, and only a second Bevestigen applies it."""
    data = {"rounds": [paired_round_4.pk], "action": "cancel", "reason": "regular"}
    with time_machine.travel(at(19, 59), tick=False):
        page, token = preview_of(jansen_client, data)
    assert "wint reglementair" not in page
    competition_services.publish(paired_round_4, at(20))
    with time_machine.travel(at(20, 1), tick=False):
        page = confirm(jansen_client, data, token).content.decode()
        assert "wint reglementair en krijgt een e-mail" in page
        assert nothing_was_done(paired_round_4)
        cancel_online(jansen_client, URL, data)
    assert Game.objects.filter(round=paired_round_4).exclude(result="").count() == 1


def test_a_late_cancellation_is_confirmed_with_a_warning_button(jansen_client, round_4):
    data = {"rounds": [round_4.pk], "action": "cancel", "reason": "regular"}
    with time_machine.travel(at(12), tick=False):
        timely, _ = preview_of(jansen_client, data)
    with time_machine.travel(at(19), tick=False):
        late, _ = preview_of(jansen_client, data)
    button = re.compile(r'<button type="submit" name="confirm" value="1" class="btn ([\w-]+)"')
    assert button.search(timely)[1] == "btn-primary"
    assert button.search(late)[1] == "btn-danger"
    assert "alert-danger" in late


def test_nothing_to_confirm_when_nothing_changes(jansen_client, round_4):
    data = {"rounds": [round_4.pk], "action": "register", "reason": "regular"}
    with time_machine.travel(at(12), tick=False):
        page = jansen_client.post(URL, data).content.decode()
    assert "Je bent al aangemeld." in page or "al aangemeld" in page
    assert 'name="confirm"' not in page
    assert "Er verandert niets, dus er is niets te bevestigen." in page


def test_an_old_preview_is_not_applied_after_another_change(jansen_client, round_4):
    """Cancel with a preview, register again, then send the first preview's Bevestigen once
    more (the back button): it previewed a state that is gone, so it is shown again."""
    cancel = {"rounds": [round_4.pk], "action": "cancel", "reason": "regular"}
    with time_machine.travel(at(12), tick=False):
        _, old = preview_of(jansen_client, cancel)
        confirm(jansen_client, cancel, old)
        cancel_online(jansen_client, URL, {**cancel, "action": "register"})
        assert not Absence.objects.exists()
        page = confirm(jansen_client, cancel, old).content.decode()
    assert "Je keuze wijkt af van wat je zag" in page
    assert not Absence.objects.exists() and Registration.objects.count() == 2
