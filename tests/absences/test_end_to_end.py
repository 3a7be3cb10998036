"""A member logs in, cancels for next week before the deadline, and the pairing that appears
at 20:00 by itself leaves them out; everyone paired is e-mailed."""

import time_machine
from django.core.management import call_command
from django.urls import reverse

from competition.models import Absence, Round
from tests.factories import cancel_online
from tests.moments import at


def test_cancel_on_friday_afternoon_and_the_pairing_appears_at_eight(
    client, jansen, round_4, mailoutbox
):
    with time_machine.travel(at(16, 30), tick=False):
        response = client.post(
            reverse("login"), {"username": "jansen", "password": "jansen-password"}
        )
        assert response.status_code == 302
        page = cancel_online(
            client,
            reverse("absences:mine"),
            {"rounds": [round_4.pk], "action": "cancel", "reason": "regular"},
        ).content.decode()
        assert "Ronde 4: Op tijd afgemeld: ⅓ van je waarde 48 = 16 punten." in page
        pairing = client.get(reverse("competition:pairing")).content.decode()
        assert "De indeling verschijnt op vrijdag 18 september 20:00." in pairing

    with time_machine.travel(at(20, 0, 5), tick=False):
        call_command("run_worker")  # the worker's pass, as cron or the loop runs it
        pairing = client.get(reverse("competition:pairing")).content.decode()
        mine = client.get(reverse("absences:mine")).content.decode()

    round_4 = Round.objects.get(pk=round_4.pk)
    assert round_4.published_at == at(20, 0, 5)
    seated = {p for g in round_4.games.all() for p in (g.white.member_id, g.black.member_id)}
    assert jansen.pk not in seated and round_4.bye.member_id != jansen.pk
    assert Absence.objects.get(round=round_4).reason == "excused"
    boards, not_playing = pairing.split("Ronde 4,")[1].split("Ronde 3,")[0].split("Niet aanwezig")
    assert "Jansen" not in boards
    assert "Jansen</a> (op tijd afgemeld)" in not_playing
    assert "op tijd afgemeld" in mine
    pairing_mails = [m for m in mailoutbox if "indeling" in m.subject]
    recipients = {address for m in pairing_mails for address in m.to}
    assert jansen.email not in recipients and len(recipients) == 9
    # Jansen had his confirmation, written with the cancellation itself (the outbox).
    assert any(m.to == [jansen.email] and "afmelding" in m.subject for m in mailoutbox)
