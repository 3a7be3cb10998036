"""Guard rails in the arbiter's admin: publishing before the members' deadline, results before
the evening, a final result changed only with a reason; publication and changes of a published
pairing in the round's history."""

import time_machine
from django.urls import reverse

from competition import services
from competition.models import Absence, Round
from tests.factories import make_round_1_with_two_cancelled, round_page_data
from tests.moments import EVENING_4, at


def publish_url(round_):
    return reverse("arbiter:publish", args=[round_.pk])


def results_url(round_):
    return reverse("arbiter:results", args=[round_.pk])


def published(round_) -> bool:
    return Round.objects.get(pk=round_.pk).is_published


def publish_at_eight(round_):
    services.make_pairing(round_)
    services.publish(round_, at(20))
    return list(round_.games.order_by("board"))


# -- (a) publishing before the deadline ------------------------------------------------------


@time_machine.travel(at(12), tick=False)  # Friday noon: members may cancel until 18:00
def test_publishing_before_the_deadline_asks_first_and_names_who_gets_an_e_mail(
    arbiter_client, jansen, paired_round_4
):
    round_4 = paired_round_4
    no_mail = round_4.games.order_by("board").first().white.member
    no_mail.email = ""
    no_mail.save()
    response = arbiter_client.post(publish_url(round_4))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Ronde 4 publiceren vóór de afmeldtermijn?" in page
    assert "Leden kunnen zich nog op tijd afmelden tot vrijdag 18 september 2026 18:00." in page
    assert "9 leden krijgen de indeling per e-mail" in page
    assert 'Jansen <span class="quiet">(jansen@example.org)</span>' in page
    assert no_mail.name not in page.split('<ul class="recipients">')[1]
    assert "1 ingedeelde speler krijgt geen e-mail:" in page  # and who, and why (issue 37)
    assert f'<li>{no_mail.name} <span class="quiet">(geen e-mailadres)</span></li>' in page
    assert not published(round_4)

    response = arbiter_client.post(publish_url(round_4), {"confirm": "1"}, follow=True)
    assert "De indeling is gepubliceerd." in response.content.decode()
    assert published(round_4)


@time_machine.travel(at(19), tick=False)  # after the deadline: no question
def test_publishing_after_the_deadline_needs_no_confirmation(arbiter_client, paired_round_4):
    response = arbiter_client.post(publish_url(paired_round_4), follow=True)
    assert "De indeling is gepubliceerd." in response.content.decode()
    assert published(paired_round_4)


# -- (b) results before the evening ----------------------------------------------------------


def test_results_before_the_evening_ask_for_confirmation(arbiter_client, round_4):
    games = publish_at_eight(round_4)
    data = {f"game_{game.pk}": "1" for game in games}
    with time_machine.travel(at(10, day=EVENING_4.replace(day=22)), tick=False):  # Tuesday
        response = arbiter_client.post(results_url(round_4), data)
        page = response.content.decode()
        assert response.status_code == 200
        assert "Ronde 4 wordt gespeeld op donderdag 24 september 2026." in page
        assert "Ja, uitslagen nu opslaan" in page
        assert 'value="1"' in page  # what was typed is still there
        assert not round_4.games.exclude(result="").exists()
        response = arbiter_client.post(
            results_url(round_4), data | {"confirm_early": "1"}, follow=True
        )
        assert "5 uitslag(en) opgeslagen" in response.content.decode()
    assert round_4.games.filter(result="1-0").count() == 5


def test_results_on_the_evening_are_saved_at_once(arbiter_client, round_4):
    games = publish_at_eight(round_4)
    with time_machine.travel(at(22, day=EVENING_4), tick=False):
        response = arbiter_client.post(
            results_url(round_4), {f"game_{game.pk}": "1" for game in games}, follow=True
        )
    assert "5 uitslag(en) opgeslagen" in response.content.decode()


# -- (c) a final result changed only with a reason -------------------------------------------


def test_a_result_changed_after_half_past_eleven_needs_a_reason_kept_in_the_history(
    arbiter_client, round_4
):
    games = publish_at_eight(round_4)
    first = games[0]
    typed = {f"game_{game.pk}": "1" for game in games}
    with time_machine.travel(at(22, day=EVENING_4), tick=False):
        arbiter_client.post(results_url(round_4), typed)
    with time_machine.travel(at(23, 15, day=EVENING_4), tick=False):  # still provisional
        response = arbiter_client.post(results_url(round_4), typed | {f"game_{first.pk}": "r"})
        assert response.status_code == 302
        assert (
            "Reden voor het wijzigen"
            not in arbiter_client.get(results_url(round_4)).content.decode()
        )
    next_day = EVENING_4.replace(day=25)
    with time_machine.travel(at(10, day=next_day), tick=False):
        changed = typed | {f"game_{first.pk}": "0"}
        response = arbiter_client.post(results_url(round_4), changed)
        page = response.content.decode()
        assert response.status_code == 200
        assert "Geef een reden: de uitslag van bord 1 was al definitief." in page
        first.refresh_from_db()
        assert first.result == "1/2-1/2"

        response = arbiter_client.post(
            results_url(round_4), changed | {"reason": "Wit had verloren, verkeerd genoteerd"}
        )
        assert response.status_code == 302
    first.refresh_from_db()
    assert first.result == "0-1"
    latest = first.history.order_by("history_id").last()
    assert latest.history_change_reason == "Wit had verloren, verkeerd genoteerd"
    # Read on the same morning (a session ends two weeks after its last use).
    with time_machine.travel(at(10, 5, day=next_day), tick=False):
        history = arbiter_client.get(reverse("admin:competition_game_history", args=[first.pk]))
    assert "Wit had verloren, verkeerd genoteerd" in history.content.decode()


def test_a_missing_result_entered_the_next_day_needs_no_reason(arbiter_client, round_4):
    games = publish_at_eight(round_4)
    with time_machine.travel(at(10, day=EVENING_4.replace(day=25)), tick=False):
        response = arbiter_client.post(
            results_url(round_4), {f"game_{game.pk}": "0" for game in games}
        )
    assert response.status_code == 302
    assert round_4.games.filter(result="0-1").count() == 5


# -- (d) publication and changes of a published pairing in the round's history ---------------


def test_publication_is_in_the_rounds_history_with_who(arbiter_client, arbiter, paired_round_4):
    with time_machine.travel(at(19), tick=False):
        arbiter_client.post(publish_url(paired_round_4))
        page = arbiter_client.get(
            reverse("admin:competition_round_history", args=[paired_round_4.pk])
        ).content.decode()
    record = paired_round_4.history.order_by("history_id").last()
    assert record.history_change_reason == "Indeling gepubliceerd"
    assert record.published_at is not None and record.history_user == arbiter
    assert "Indeling gepubliceerd" in page


def test_the_worker_publishing_leaves_a_history_record_too(paired_round_4):
    services.publish(paired_round_4, at(20))
    assert paired_round_4.history.order_by("history_id").last().history_change_reason == (
        "Indeling gepubliceerd"
    )
    assert services.publish(paired_round_4, at(21)) is False  # once
    assert paired_round_4.history.filter(history_change_reason="Indeling gepubliceerd").count() == 1


def test_a_change_of_a_published_round_is_in_its_history(arbiter_client, db):
    competition, pk = make_round_1_with_two_cancelled()
    round_1 = competition.rounds.get(number=1)
    data = round_page_data(round_1) | {
        "absences-TOTAL_FORMS": 2,
        "absences-INITIAL_FORMS": 2,
    }
    for index, name in enumerate(["de-wit", "de-bruin"]):
        absence = Absence.objects.get(participant_id=pk[name])
        data |= {
            f"absences-{index}-id": absence.pk,
            f"absences-{index}-round": round_1.pk,
            f"absences-{index}-participant": pk[name],
            f"absences-{index}-reason": "unexcused" if name == "de-wit" else "excused",
        }
    before = round_1.history.count()
    data["correction-reason"] = "De Wit kwam zonder bericht niet"  # round 1 is final
    response = arbiter_client.post(reverse("arbiter:round", args=[round_1.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert round_1.history.count() == before + 1
    assert (
        round_1.history.order_by("history_id").last().history_change_reason
        == "De Wit kwam zonder bericht niet"
    )
    # Saved again unchanged: nothing to record.
    data["absences-0-reason"] = "unexcused"
    arbiter_client.post(reverse("arbiter:round", args=[round_1.pk]), data)
    assert round_1.history.count() == before + 1


def test_making_the_draft_is_in_the_rounds_history(round_4):
    services.make_pairing(round_4)
    record = round_4.history.order_by("history_id").last()
    assert record.history_change_reason == "Conceptindeling gemaakt"


def test_a_publication_time_before_the_deadline_is_refused_on_the_round_page(
    arbiter_client, round_4
):
    """Else the worker would publish early without the confirmation the button asks for."""
    url = reverse("arbiter:round", args=[round_4.pk])
    with time_machine.travel(at(9), tick=False):
        page = arbiter_client.post(
            url, round_page_data(round_4, publish_at_1="17:00")
        ).content.decode()
    assert "De publicatietijd kan niet vóór de afmelddeadline liggen" in page
    round_4.refresh_from_db()
    assert round_4.publish_at == at(20)


def test_a_newcomer_never_rewrites_a_ranking_a_pairing_was_made_from(
    arbiter_client, paired_round_4
):
    """Finding 3 of issue 24: with round 4 paired, a newcomer cannot join in round 4 (ranking 3
    and round 4's pairing would change). Issue 37: they join round 5 at once instead, and wait
    for round 4's results; ranking 3 and the pairing stay as they are."""
    from members.models import Member

    competition = paired_round_4.competition
    newcomer = Member.objects.create(name="Anne Nieuw", estimated_rating=1500)
    totals = list(
        competition.rankings.get(after_round=3).standings.values_list("total", "position")
    )
    boards = list(paired_round_4.games.values_list("board", "white_id", "black_id"))
    url = reverse("arbiter:newcomer", args=[competition.pk])
    page = arbiter_client.post(
        url, {"member": newcomer.pk, "joined_round": 4, "confirm": "1"}
    ).content.decode()
    said = "Ronde 4 is al ingedeeld: Anne Nieuw kan meedoen vanaf ronde 5."
    assert page.count(said) == 1  # said once
    assert not competition.participants.filter(member=newcomer).exists()
    arbiter_client.post(url, {"member": newcomer.pk, "joined_round": 5, "confirm": "1"})
    assert competition.participants.get(member=newcomer).joined_round == 5
    assert totals == list(
        competition.rankings.get(after_round=3).standings.values_list("total", "position")
    )
    assert boards == list(paired_round_4.games.values_list("board", "white_id", "black_id"))


def test_who_gets_no_pairing_mail_is_named_with_why(paired_round_4):
    """The other side of the recipients: each seated player without the e-mail, by name."""
    games = list(paired_round_4.games.order_by("board"))
    for game in games:  # everyone an address and the mail first
        for player in (game.white, game.black):
            player.member.email = f"{player.member.pk}@example.org"
            player.member.mail_pairing = True
            player.member.save()
    without_address, not_wanted = games[0].white.member, games[1].black.member
    without_address.email = ""
    without_address.save()
    not_wanted.mail_pairing = False
    not_wanted.save()
    named = [(p.name, str(why)) for p, why in paired_round_4.pairing_non_recipients()]
    assert named == sorted(
        [
            (without_address.name, "geen e-mailadres"),
            (not_wanted.name, "wil de indeling niet per e-mail"),
        ]
    )
    recipients = {p.pk for p in paired_round_4.pairing_recipients()}
    assert len(recipients) + len(named) == len(paired_round_4.seated_ids())
