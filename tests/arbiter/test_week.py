"""The arbiter's start page (/beheer/): this week of the internal competition, open team-match
claims, missing results and the next step; the rounds list by competition."""

from datetime import timedelta

import time_machine
from django.urls import reverse

from competition import services
from competition.models import Absence, Round
from tests.factories import make_arbiter, make_competition
from tests.moments import EVENING_4, at

START = "/beheer/"


def start_page(client) -> str:
    response = client.get(START)
    assert response.status_code == 200
    return response.content.decode()


def player(round_, name):
    return round_.competition.participants.get(member__name=name)


@time_machine.travel(at(12), tick=False)  # Friday before round 4, noon
def test_the_start_page_opens_on_the_coming_round_with_who_cancelled(arbiter_client, round_4):
    services.record_absence(round_4, player(round_4, "Jansen"), Absence.Reason.EXCUSED)
    page = start_page(arbiter_client)
    assert "Deze week: interne competitie 2026-2027" in page
    assert "Ronde 4, donderdag 24 september 2026" in page
    assert "Open voor afmeldingen tot vrijdag 18 september 18:00." in page
    assert "Jansen – op tijd afgemeld" in page
    # The next step: make the pairing (a POST to the round's pairing view).
    assert f'action="{reverse("arbiter:pair", args=[round_4.pk])}"' in page
    assert "Indeling maken" in page
    # Acting for a member who phones: /afmelden/?lid=<member>.
    assert 'action="/afmelden/"' in page and 'name="lid"' in page
    assert reverse("admin:competition_round_changelist") in page  # the usual list below


def test_the_stage_follows_the_week(arbiter_client, round_4):
    with time_machine.travel(at(19), tick=False):
        assert "Afmeldtermijn gesloten op vrijdag 18 september 18:00" in start_page(arbiter_client)
        services.make_pairing(round_4)
        page = start_page(arbiter_client)
        assert "Conceptindeling; publicatie vrijdag 18 september 20:00." in page
        assert reverse("arbiter:publish", args=[round_4.pk]) in page
    with time_machine.travel(at(21), tick=False):
        services.publish(round_4, at(20))
        page = start_page(arbiter_client)
        assert "Indeling gepubliceerd op vrijdag 18 september 20:00; 0 van 5 uitslagen" in page
        assert reverse("arbiter:results", args=[round_4.pk]) in page
    results = {game.pk: "1-0" for game in round_4.games.all()}
    with time_machine.travel(at(22, day=EVENING_4), tick=False):
        services.enter_results(round_4, results)
        assert "Uitslagen ingevoerd (voorlopig tot 23:30)." in start_page(arbiter_client)


@time_machine.travel(at(12), tick=False)
def test_a_published_round_and_the_next_one_are_both_on_the_desk(arbiter_client, round_4):
    services.make_pairing(round_4)
    services.publish(round_4, at(11))
    round_5 = Round.objects.create(
        competition=round_4.competition,
        number=5,
        date=EVENING_4 + timedelta(weeks=1),
        publish_at=at(20, day=EVENING_4 + timedelta(days=1)),
    )
    page = start_page(arbiter_client)
    assert "Ronde 4, donderdag 24 september 2026" in page
    assert "Ronde 5, donderdag 1 oktober 2026" in page
    assert "Open voor afmeldingen tot vrijdag 25 september 18:00." in page
    assert round_5.pk  # the round after the first unpublished one is not shown:
    Round.objects.create(
        competition=round_4.competition,
        number=6,
        date=EVENING_4 + timedelta(weeks=2),
        publish_at=at(20, day=EVENING_4 + timedelta(days=8)),
    )
    assert "Ronde 6" not in start_page(arbiter_client)


@time_machine.travel(at(12), tick=False)
def test_the_arbiter_confirms_or_refuses_a_team_match_claim_from_the_start_page(
    arbiter_client, round_4
):
    jansen, pietersen = player(round_4, "Jansen"), player(round_4, "Pietersen")
    services.record_absence(round_4, jansen, Absence.Reason.EXCUSED, team_claim=True)
    services.record_absence(round_4, pietersen, Absence.Reason.EXCUSED, team_claim=True)
    page = start_page(arbiter_client)
    assert "Teamwedstrijden om te bevestigen" in page
    assert "Jansen, ronde 4" in page and "Pietersen, ronde 4" in page
    claim = Absence.objects.get(participant=jansen)
    url = reverse("arbiter:team-claim", args=[claim.pk])
    response = arbiter_client.post(url, {"decision": "confirm"}, follow=True)
    assert "Jansen: teamwedstrijd in ronde 4 bevestigd." in response.content.decode()
    claim.refresh_from_db()
    assert (claim.reason, claim.team_claim) == (Absence.Reason.TEAM, False)

    other = Absence.objects.get(participant=pietersen)
    refuse = reverse("arbiter:team-claim", args=[other.pk])
    response = arbiter_client.post(refuse, {"decision": "refuse"}, follow=True)
    page = response.content.decode()
    assert "Pietersen: teamwedstrijd in ronde 4 afgewezen" in page
    other.refresh_from_db()
    assert (other.reason, other.team_claim) == (Absence.Reason.EXCUSED, False)
    assert "Teamwedstrijden om te bevestigen" not in page

    # Deciding twice is refused by the service, and the page says so.
    again = arbiter_client.post(url, {"decision": "refuse"}, follow=True).content.decode()
    assert "Over deze melding is al beslist." in again
    claim.refresh_from_db()
    assert claim.reason == Absence.Reason.TEAM


def test_only_the_arbiter_decides_a_claim(client, django_user_model, round_4):
    services.record_absence(
        round_4, player(round_4, "Jansen"), Absence.Reason.EXCUSED, team_claim=True
    )
    claim = Absence.objects.get()
    clerk = django_user_model.objects.create_user("clerk", password="x", is_staff=True)
    client.force_login(clerk)
    url = reverse("arbiter:team-claim", args=[claim.pk])
    assert client.post(url, {"decision": "confirm"}).status_code == 403
    claim.refresh_from_db()
    assert claim.team_claim


@time_machine.travel(at(12), tick=False)
def test_missing_results_of_a_past_round_are_listed_with_the_way_to_enter_them(
    arbiter_client, example_competition, round_4
):
    round_3 = Round.objects.get(competition=example_competition, number=3)
    game = round_3.games.order_by("board").first()
    services.enter_results(round_3, {game.pk: ""})
    page = start_page(arbiter_client)
    assert "Ontbrekende uitslagen" in page
    assert "Ronde 3 van de interne competitie 2026-2027 (17 september): 4 van 5 uitslagen." in page
    assert reverse("arbiter:results", args=[round_3.pk]) in page


@time_machine.travel(at(12), tick=False)
def test_a_complete_season_shows_no_missing_results(arbiter_client, round_4):
    assert "Ontbrekende uitslagen" not in start_page(arbiter_client)


def test_the_rounds_list_shows_the_internal_competition_unless_asked(
    arbiter_client, example_competition
):
    rapid = make_competition(example_competition.season, kind="rapid")
    Round.on_evening(rapid, 1, EVENING_4).save()
    url = reverse("admin:competition_round_changelist")
    shown = arbiter_client.get(url).context["cl"].result_list
    assert {r.competition_id for r in shown} == {example_competition.pk}
    shown = arbiter_client.get(url, {"soort": "rapid"}).context["cl"].result_list
    assert {r.competition_id for r in shown} == {rapid.pk}
    shown = arbiter_client.get(url, {"soort": "alle"}).context["cl"].result_list
    assert len(shown) == 4
    page = arbiter_client.get(url).content.decode()
    assert "interne competitie" in page and "rapidcompetitie" in page  # the filter's choices


def test_visitors_are_sent_to_the_login(client):
    response = client.get(START)
    assert response.status_code == 302 and "/beheer/login/" in response["Location"]


def test_a_claim_is_decided_only_by_a_clear_word(arbiter_client, round_4):
    services.record_absence(
        round_4, player(round_4, "Jansen"), Absence.Reason.EXCUSED, team_claim=True
    )
    claim = Absence.objects.get()
    url = reverse("arbiter:team-claim", args=[claim.pk])
    for posted in ({}, {"decision": ""}, {"decision": "maybe"}):
        assert arbiter_client.post(url, posted).status_code == 400
    claim.refresh_from_db()
    assert (claim.reason, claim.team_claim) == (Absence.Reason.EXCUSED, True)


def test_a_staff_account_without_the_competition_sees_no_week(client, django_user_model, round_4):
    services.record_absence(round_4, player(round_4, "Jansen"), Absence.Reason.EXCUSED)
    clerk = django_user_model.objects.create_user("clerk", password="x", is_staff=True)
    client.force_login(clerk)
    with time_machine.travel(at(12), tick=False):
        page = client.get(START).content.decode()
    assert "Deze week" not in page and "Jansen" not in page


@time_machine.travel(at(12), tick=False)
def test_an_older_round_left_unpublished_does_not_empty_the_week(arbiter_client, round_4):
    Round.objects.filter(competition=round_4.competition, number=3).update(published_at=None)
    page = start_page(arbiter_client)
    assert "Ronde 4, donderdag 24 september 2026" in page


def test_a_cancellation_after_publication_is_on_the_start_page(arbiter_client, published_round_4):
    """Finding 4 of issue 24: the game became a forfeit; the week must not say nobody cancelled."""
    services.record_forfeit(published_round_4, player(published_round_4, "Jansen"))
    with time_machine.travel(at(21), tick=False):
        page = start_page(arbiter_client)
    assert "Niemand heeft zich afgemeld" not in page
    assert "1 speler afwezig:" in page
    assert "Jansen – reglementair verloren" in page


def test_make_the_pairing_is_offered_only_when_it_can_work(arbiter_client, example_competition):
    """Finding 8 of issue 24: round 5 cannot be paired while round 4 is not complete; the start
    page and the round page say what it waits for instead of offering the button."""
    round_4 = Round.objects.create(
        competition=example_competition, number=4, date=EVENING_4, publish_at=at(20)
    )
    services.make_pairing(round_4)
    services.publish(round_4, at(20))
    round_5 = Round.objects.create(
        competition=example_competition,
        number=5,
        date=EVENING_4 + timedelta(weeks=1),
        publish_at=at(20) + timedelta(weeks=1),
    )
    with time_machine.travel(at(12, day=EVENING_4 + timedelta(days=2)), tick=False):
        page = start_page(arbiter_client)
        round_page = arbiter_client.get(reverse("arbiter:round", args=[round_5.pk]))
    pair_5 = f'action="{reverse("arbiter:pair", args=[round_5.pk])}"'
    # Said once: the sentence names what waits and why, without a heading that says it again.
    waits = "Ronde 5 kan nog niet ingedeeld worden: ronde 4 is niet compleet."
    for shown in (page, round_page.content.decode()):
        assert pair_5 not in shown and shown.count(waits) == 1
        assert "Nog niet in te delen" not in shown


def test_a_draft_dropped_by_a_cancellation_is_named_on_the_start_page_and_in_the_email(
    arbiter_client,
    jansen_client,
    jansen,
    paired_round_4,
    mailoutbox,
    django_capture_on_commit_callbacks,
):
    """Finding 7 of issue 24: the reviewed draft does not disappear silently."""
    from tests.factories import cancel_online

    with time_machine.travel(at(12), tick=False), django_capture_on_commit_callbacks(execute=True):
        cancel_online(
            jansen_client,
            reverse("absences:mine"),
            {"rounds": [paired_round_4.pk], "action": "cancel", "reason": "regular"},
        )
    assert not paired_round_4.games.exists()
    [notice] = [m for m in mailoutbox if "discarded" in m.subject or "vervallen" in m.subject]
    assert "Vervallen door: Jansen: op tijd afgemeld." in notice.body
    arbiter_client.force_login(make_arbiter("tweede"))
    with time_machine.travel(at(12, 5), tick=False):
        page = start_page(arbiter_client)
    assert "De conceptindeling is vervallen (Jansen: op tijd afgemeld): maak haar opnieuw." in page
    services.make_pairing(paired_round_4)
    with time_machine.travel(at(12, 10), tick=False):
        assert "conceptindeling is vervallen" not in start_page(arbiter_client)


def test_the_member_who_phones_is_chosen_from_the_active_members(arbiter_client, round_4):
    from members.models import Member

    Member.objects.create(name="Zee & Zoon <jr>")
    Member.objects.filter(name="Jansen").update(is_active=False)
    page = start_page(arbiter_client)
    select = page.split('<select id="week-member"')[1].split("</select>")[0]
    entities = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
    expected = [
        f'<option value="{pk}">{"".join(entities.get(c, c) for c in name)}</option>'
        for pk, name in Member.objects.filter(is_active=True)
        .order_by("name")
        .values_list("pk", "name")
    ]
    assert select.split("</option>", 1)[1].strip().startswith(expected[0])
    assert "".join(expected) in select and "Jansen" not in select
    assert len(expected) > 5
