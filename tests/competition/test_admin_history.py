"""The admin's history pages in Dutch, with readable values; the arbiter's actions as buttons."""

import re

from django.urls import reverse

from competition import services
from competition.models import Absence
from tests.moments import at

ENGLISH = [
    "Choose a date",
    "Changed by",
    "Change reason",
    "Date/time",
    "Deleted ",
    "pk=",
    "entries",
    "Revert",
    "None",
    "Object",
]


def test_a_rounds_history_is_dutch_and_shows_an_empty_bye_as_nothing(arbiter_client, round_4):
    jansen = round_4.competition.participants.get(member__name="Jansen")
    services.record_absence(round_4, jansen, Absence.Reason.EXCUSED)  # 9 players: a bye
    services.make_pairing(round_4)
    services.publish(round_4, at(20))
    round_4.refresh_from_db()
    page = arbiter_client.get(
        reverse("admin:competition_round_history", args=[round_4.pk])
    ).content.decode()
    for english in ENGLISH:
        assert english not in page, english
    assert "Gewijzigd door" in page and "Wanneer" in page and "Reden" in page
    assert "Elke wijziging, met wie en wanneer." in page
    assert f"Vrij (oneven):</strong> —&nbsp;&rarr; {round_4.bye.name}" in page
    assert "Indeling gepubliceerd" in page
    assert "Gepubliceerd op:</strong> —&nbsp;&rarr; 18 september 2026 20:00" in page
    assert "3 versies" in page


def test_an_absences_history_shows_the_reason_as_words(arbiter_client, round_4):
    jansen = round_4.competition.participants.get(member__name="Jansen")
    services.record_absence(round_4, jansen, Absence.Reason.EXCUSED, team_claim=True)
    absence = Absence.objects.get()
    services.decide_team_claim(absence, confirmed=True)
    page = arbiter_client.get(
        reverse("admin:competition_absence_history", args=[absence.pk])
    ).content.decode()
    assert "op tijd afgemeld&nbsp;&rarr; teamwedstrijd" in page
    assert "ja&nbsp;&rarr; nee" in page
    assert "de site (automatisch)" in page  # written outside a request
    old = absence.history.order_by("history_id").first()
    version = arbiter_client.get(
        reverse("admin:competition_absence_simple_history", args=[absence.pk, old.pk])
    ).content.decode()
    assert "Zo was het op dat moment; hier terugzetten kan niet." in version
    assert "Terug naar de geschiedenis" in version and "Revert" not in version


def test_an_old_version_of_a_game_cannot_be_saved_past_the_services(arbiter_client, round_4):
    services.make_pairing(round_4)
    services.publish(round_4, at(20))
    game = round_4.games.order_by("board").first()
    old = game.history.order_by("history_id").first()
    services.enter_results(round_4, {game.pk: "1-0"})
    url = reverse("admin:competition_game_simple_history", args=[game.pk, old.pk])
    response = arbiter_client.post(
        url,
        {"round": round_4.pk, "board": 1, "white": game.white_id, "black": game.black_id},
    )
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.result == "1-0"


def test_the_rounds_actions_are_buttons_the_next_step_filled(arbiter_client, round_4):
    page = arbiter_client.get(reverse("arbiter:round", args=[round_4.pk])).content.decode()
    assert re.search(r'<button type="submit" class="action-button primary">Indeling maken', page)
    assert re.search(r'<button type="submit" class="action-button">Indeling publiceren', page)
    services.make_pairing(round_4)
    page = arbiter_client.get(reverse("arbiter:round", args=[round_4.pk])).content.decode()
    assert re.search(r'class="action-button">Opnieuw indelen', page)
    assert re.search(r'class="action-button primary">Indeling publiceren', page)
