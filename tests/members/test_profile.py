"""A member chooses which e-mails they get; what the rules require always goes out
(issue 10, point 5)."""

import time_machine
from django.urls import reverse

from clubweek.worker import run_pass
from competition import services
from members.models import Member
from tests.factories import cancel_online
from tests.moments import at

PROFILE = reverse("members:profile")


def test_a_member_sees_and_saves_their_choice(jansen_client, jansen):
    page = jansen_client.get(PROFILE).content.decode()
    assert "Mijn profiel: Jansen" in page and "jansen@example.org" in page
    assert "De indeling" in page and "De nieuwe ranglijst" in page
    response = jansen_client.post(PROFILE, {"mail_ranking": "on"}, follow=True)
    assert "Je keuze van e-mails is opgeslagen." in response.content.decode()
    jansen.refresh_from_db()
    assert (jansen.mail_pairing, jansen.mail_confirmations, jansen.mail_ranking) == (
        False,
        False,
        True,
    )


def test_the_profile_is_only_ones_own(client, jansen, example_competition):
    other = example_competition.participants.get(member__name="Pietersen").member
    client.force_login(jansen.user)
    client.post(PROFILE, {"mail_ranking": "on", "member": other.pk, "pk": other.pk})
    other.refresh_from_db()
    assert other.mail_pairing and not other.mail_ranking  # untouched: the defaults


def test_visitors_are_sent_to_the_login(client):
    response = client.get(PROFILE)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_no_pairing_mail_for_who_chose_none(round_4, jansen, mailoutbox):
    Member.objects.filter(pk=jansen.pk).update(mail_pairing=False)
    run_pass(at(20))
    pairing = [m for m in mailoutbox if "je indeling" in m.subject]
    assert len(pairing) == 9 and not any(m.to == [jansen.email] for m in pairing)


def test_no_confirmation_for_who_chose_none(
    jansen_client, jansen, round_4, mailoutbox, django_capture_on_commit_callbacks
):
    Member.objects.filter(pk=jansen.pk).update(mail_confirmations=False)
    with time_machine.travel(at(12), tick=False), django_capture_on_commit_callbacks(execute=True):
        cancel_online(
            jansen_client,
            reverse("absences:mine"),
            {"rounds": [round_4.pk], "action": "cancel", "reason": "regular"},
        )
    assert not any(m.to == [jansen.email] for m in mailoutbox)


def test_a_forfeit_against_you_is_sent_whatever_you_chose(
    jansen_client, jansen, paired_round_4, mailoutbox, django_capture_on_commit_callbacks
):
    services.publish(paired_round_4, at(20))
    game = paired_round_4.games.filter(white__member=jansen).first() or (
        paired_round_4.games.get(black__member=jansen)
    )
    opponent = game.opponent_of(game.white_id if game.white.member == jansen else game.black_id)
    Member.objects.filter(pk=opponent.member_id).update(
        mail_pairing=False, mail_confirmations=False
    )
    with time_machine.travel(at(21), tick=False), django_capture_on_commit_callbacks(execute=True):
        cancel_online(
            jansen_client,
            reverse("absences:mine"),
            {"rounds": [paired_round_4.pk], "action": "cancel", "reason": "regular"},
        )
    assert any(m.to == [opponent.member.email] for m in mailoutbox)
