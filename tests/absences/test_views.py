"""`/afmelden/`: cancelling and re-registering in time, late, after publication; only for
oneself, and the preview tells the competition's own numbers."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from competition import services as competition_services
from competition.models import Absence, Game, Round
from tests.factories import cancel_online
from tests.moments import at

URL = reverse("absences:mine")


def post(client, round_, action="cancel", reason="regular", confirm=True, **extra):
    """The preview, and with `confirm` Bevestigen on it."""
    url = URL + extra.pop("query", "")
    data = {"rounds": [round_.pk], "action": action, "reason": reason, **extra}
    if confirm:
        return cancel_online(client, url, data)
    return client.post(url, data, follow=True)


def test_the_page_lists_coming_evenings_with_status_and_deadline(jansen_client, round_4):
    with time_machine.travel(at(12), tick=False):
        page = jansen_client.get(URL).content.decode()
    assert "Ronde 4, donderdag 24 september" in page
    assert "vr 18 september 18:00" in page
    assert "aangemeld" in page


@pytest.mark.parametrize(
    ("reason", "outcome", "says"),
    [
        # Jansen is 3rd in ranking 3: value 48.
        ("regular", "excused", "Op tijd afgemeld: ⅓ van je waarde 48 = 16 punten."),
        (
            "team",
            "excused",  # a claim: it counts as a team match once confirmed
            "Op tijd afgemeld voor een teamwedstrijd: ⅔ van je waarde 48 = 32 punten zodra de "
            "opstelling of de wedstrijdleider de wedstrijd bevestigt; tot dan ⅓ van je waarde "
            "48 = 16 punten, als op tijd afgemeld.",
        ),
    ],
)
def test_cancelling_in_time(jansen_client, jansen, round_4, reason, outcome, says):
    with time_machine.travel(at(17, 59, 59), tick=False):
        preview = post(jansen_client, round_4, reason=reason, confirm=False).content.decode()
        assert says in preview
        assert not Absence.objects.exists()
        post(jansen_client, round_4, reason=reason)
    absence = Absence.objects.get(round=round_4)
    assert absence.participant.member == jansen and absence.reason == outcome
    record = jansen.registrations.get()
    assert record.made_by == jansen.user and record.reported_at == at(17, 59, 59)


def test_cancelling_at_18_is_late_and_leaves_the_member_out(jansen_client, jansen, round_4):
    with time_machine.travel(at(18), tick=False):
        preview = post(jansen_client, round_4, confirm=False).content.decode()
        assert "Na de deadline: je wordt niet ingedeeld en krijgt 0 punten." in preview
        post(jansen_client, round_4)
        competition_services.make_pairing(round_4)
    assert Absence.objects.get(round=round_4).reason == "late"
    seated = {p for g in round_4.games.all() for p in (g.white.member_id, g.black.member_id)}
    assert jansen.pk not in seated


def test_a_late_cancellation_discards_a_draft_with_the_member(
    jansen_client, jansen, round_4, mailoutbox, django_capture_on_commit_callbacks
):
    with time_machine.travel(at(18, 30), tick=False):
        competition_services.make_pairing(round_4)
        with django_capture_on_commit_callbacks(execute=True):
            post(jansen_client, round_4)
    assert not round_4.games.exists()
    assert any("conceptindeling" in m.subject for m in mailoutbox)


def test_after_publication_the_opponent_wins_by_default_and_is_told(
    jansen_client, jansen, paired_round_4, mailoutbox, django_capture_on_commit_callbacks
):
    round_4 = paired_round_4
    competition_services.publish(round_4, at(20))
    game = (
        Game.objects.filter(round=round_4).get(white__member=jansen)
        if Game.objects.filter(round=round_4, white__member=jansen).exists()
        else Game.objects.get(round=round_4, black__member=jansen)
    )
    opponent = game.black if game.white.member == jansen else game.white
    with time_machine.travel(at(21), tick=False):
        preview = post(jansen_client, round_4, confirm=False).content.decode()
        said = f"De indeling is gepubliceerd: 0 punten, {opponent.name} wint reglementair en "
        assert said + "krijgt een e-mail (de wedstrijdleider ook)." in preview
        with django_capture_on_commit_callbacks(execute=True):
            post(jansen_client, round_4)
    game.refresh_from_db()
    assert game.result == ("0-1F" if game.white.member == jansen else "1-0F")
    recipients = {address for m in mailoutbox for address in m.to}
    assert opponent.member.email in recipients and "wedstrijdleider@dscdrachten.nl" in recipients
    assert not Absence.objects.exists()


def test_registering_again_before_the_deadline(jansen_client, round_4):
    with time_machine.travel(at(12), tick=False):
        post(jansen_client, round_4)
        post(jansen_client, round_4, action="register")
    assert not Absence.objects.exists()
    assert list(round_4.registrations.order_by("sequence").values_list("outcome", flat=True)) == [
        "excused",
        "present",
    ]


def test_after_the_deadline_only_the_arbiter_registers_again(
    jansen_client, jansen, round_4, arbiter
):
    arbiter_client = Client()
    arbiter_client.force_login(arbiter)
    with time_machine.travel(at(12), tick=False):
        post(jansen_client, round_4)
    with time_machine.travel(at(19), tick=False):
        page = post(jansen_client, round_4, action="register", confirm=False).content.decode()
        assert "De deadline is voorbij: vraag de wedstrijdleider" in page
        assert 'name="confirm"' not in page
        assert Absence.objects.exists()
        cancel_online(
            arbiter_client,
            URL + f"?lid={jansen.pk}",
            {
                "rounds": [round_4.pk],
                "action": "register",
                "reason": "regular",
                "reported_at": "18-09-2026 17:30",
            },
        )
    assert not Absence.objects.exists()
    record = round_4.registrations.get(outcome="present")
    assert record.made_by == arbiter and record.reported_at == at(17, 30)


def test_the_arbiter_records_a_phone_call_from_before_the_deadline(arbiter_client, jansen, round_4):
    with time_machine.travel(at(19), tick=False):
        cancel_online(
            arbiter_client,
            URL + f"?lid={jansen.pk}",
            {
                "rounds": [round_4.pk],
                "action": "cancel",
                "reason": "regular",
                "reported_at": "18-09-2026 17:45",
            },
        )
    assert Absence.objects.get().reason == "excused"  # reported in time


def test_a_member_can_only_change_their_own_status(jansen_client, example_competition, round_4):
    other = example_competition.participants.get(member__name="Pietersen").member
    assert jansen_client.get(URL + f"?lid={other.pk}").status_code == 403
    with time_machine.travel(at(12), tick=False):
        jansen_client.post(
            URL + f"?lid={other.pk}",
            {"rounds": [round_4.pk], "action": "cancel", "reason": "regular", "confirm": "1"},
        )
    assert not Absence.objects.exists()


def test_visitors_must_log_in(client, round_4):
    response = client.get(URL)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_double_submit_creates_one_record(jansen_client, round_4):
    """The same Bevestigen sent twice: the second finds the member cancelled, which is not
    what its preview said, and shows the page again."""
    data = {"rounds": [round_4.pk], "action": "cancel", "reason": "regular"}
    with time_machine.travel(at(12), tick=False):
        preview = jansen_client.post(URL, data).content.decode()
        token = re.search(r'name="preview" value="([^"]+)"', preview)[1]
        confirm = {**data, "preview": token, "confirm": "1"}
        jansen_client.post(URL, confirm)
        again = jansen_client.post(URL, confirm).content.decode()
    assert "bekijk wat er nu gebeurt" in again and 'name="confirm"' not in again
    assert round_4.registrations.count() == 1 and Absence.objects.count() == 1


def test_several_evenings_at_once(jansen_client, round_4, example_competition):
    round_5 = Round.objects.create(
        competition=example_competition,
        number=5,
        date=round_4.date + timedelta(weeks=1),
        publish_at=at(20) + timedelta(weeks=1),
    )
    with time_machine.travel(at(12), tick=False):
        cancel_online(
            jansen_client,
            URL,
            {"rounds": [round_4.pk, round_5.pk], "action": "cancel", "reason": "regular"},
        )
    assert Absence.objects.count() == 2


@pytest.mark.parametrize(
    ("reported_at", "says"),
    [
        ("19-09-2026 12:00", "Een melding kan niet in de toekomst liggen."),
        ("2026-08-01T12:00", "Een melding kan niet vóór het seizoen liggen (3 september 2026)."),
    ],
)
def test_the_time_of_a_report_lies_in_the_season_and_not_ahead(
    arbiter_client, jansen, round_4, reported_at, says
):
    data = {"rounds": [round_4.pk], "action": "cancel", "reason": "regular"}
    with time_machine.travel(at(12), tick=False):
        page = arbiter_client.post(
            URL + f"?lid={jansen.pk}", {**data, "reported_at": reported_at}
        ).content.decode()
    assert says in page
    assert 'name="confirm"' not in page and not Absence.objects.exists()


def test_a_competitions_own_share_is_told_in_the_preview_the_email_and_the_explanation(
    jansen_client, jansen, round_4, mailoutbox, django_capture_on_commit_callbacks
):
    competition = round_4.competition
    competition.excused_fraction = "2/5"
    competition.save()
    competition_services.refresh_rankings(competition)
    # Jansen is 3rd in ranking 3 (value 48): two fifths of 48 is 19⅕.
    says = "⅖ van je waarde 48 = 19⅕ punten"
    with time_machine.travel(at(12), tick=False):
        preview = post(jansen_client, round_4, confirm=False).content.decode()
        assert f"Op tijd afgemeld: {says}." in preview
        with django_capture_on_commit_callbacks(execute=True):
            post(jansen_client, round_4)
    [confirmation] = [m for m in mailoutbox if m.to == [jansen.email]]
    assert says in confirmation.body
    competition_services.make_pairing(round_4)
    competition_services.publish(round_4, at(20))
    competition_services.enter_results(round_4, {g.pk: "1-0" for g in round_4.games.all()})
    jansen_pk = competition.participant["jansen"]
    page = jansen_client.get(reverse("competition:player", args=[jansen_pk])).content.decode()
    assert "op tijd afgemeld: ⅖ van eigen waarde 48 = 19⅕ punten" in page


def test_a_refusal_at_confirmation_is_shown_and_changes_nothing(
    jansen_client, round_4, monkeypatch
):
    """Checked again under the round's lock (say the round was published meanwhile): the
    member reads why, nothing is stored, and the page is not an error page."""

    def refuse(*args, **kwargs):
        raise competition_services.CompetitionError("Ronde 4 is intussen gepubliceerd.")

    monkeypatch.setattr(competition_services, "record_absence", refuse)
    with time_machine.travel(at(12), tick=False):
        page = post(jansen_client, round_4)
    assert page.status_code == 200
    assert "Ronde 4 is intussen gepubliceerd." in page.content.decode()
    assert 'class="alert alert-danger"' in page.content.decode()
    assert not Absence.objects.exists() and not round_4.registrations.exists()


def test_the_arbiter_acting_for_a_member_stays_on_their_page_and_reads_their_name(
    arbiter, jansen, round_4
):
    arbiter_client = Client()
    arbiter_client.force_login(arbiter)
    with time_machine.travel(at(12), tick=False):
        response = cancel_online(
            arbiter_client,
            URL + f"?lid={jansen.pk}",
            {"rounds": [round_4.pk], "action": "cancel", "reason": "regular"},
        )
    assert response.redirect_chain[-1][0] == URL + f"?lid={jansen.pk}"
    page = response.content.decode()
    assert "Afmeldingen van Jansen" in page and "Mijn afmeldingen: Jansen" not in page
    assert "Jansen is op tijd afgemeld voor ronde 4." in page


def test_the_arbiters_preview_speaks_of_the_member(arbiter, jansen, round_4):
    """Acting for a member, the preview says what happens to them, by name (the member's own
    page and e-mails keep speaking to them: `Consequence.message`)."""
    arbiter_client = Client()
    arbiter_client.force_login(arbiter)
    url = URL + f"?lid={jansen.pk}"
    with time_machine.travel(at(18, 30), tick=False):  # after the deadline
        data = {"rounds": [round_4.pk], "action": "cancel", "reason": "regular"}
        preview = arbiter_client.post(url, data).content.decode()
    assert "Na de deadline: Jansen wordt niet ingedeeld en krijgt 0 punten." in preview
    assert "je waarde" not in preview and "Na de deadline: je" not in preview


def test_a_published_evening_shows_board_colour_and_opponent(jansen_client, jansen, paired_round_4):
    competition_services.publish(paired_round_4, at(20))
    game = paired_round_4.games.filter(white__member=jansen).first() or (
        paired_round_4.games.get(black__member=jansen)
    )
    colour, opponent = ("wit", game.black) if game.white.member == jansen else ("zwart", game.white)
    with time_machine.travel(at(21), tick=False):
        page = jansen_client.get(URL).content.decode()
    assert f"Bord {game.board}, {colour} tegen {opponent.name}" in page
    assert "indeling gepubliceerd: nu afmelden is reglementair verlies, je tegenstander" in page


def test_after_an_early_publication_the_line_says_cancelling_is_a_forfeit(
    jansen_client, jansen, paired_round_4
):
    """Published on Wednesday, before Friday's deadline: the line under the evening must not
    say "afmelden tot vr 18:00" while cancelling is a forfeit (the preview's red is right)."""
    early = at(12, day=paired_round_4.date - timedelta(days=8))  # the Wednesday before
    competition_services.publish(paired_round_4, early)
    with time_machine.travel(early + timedelta(hours=1), tick=False):
        page = jansen_client.get(URL).content.decode()
        home = jansen_client.get(reverse("competition:home")).content.decode()
    assert "afmelden tot vr 18 september" not in page.lower()
    assert "indeling gepubliceerd: nu afmelden is reglementair verlies" in page
    assert "Indeling gepubliceerd: nu afmelden is reglementair verlies" in home
