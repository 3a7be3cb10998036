"""A round's page and steps for the arbiter (arbiter/rounds.py): results per board, the pairing
review, publishing, the history; and what review found: the pages cannot break the
competition."""

import re
from datetime import date, datetime, timedelta

from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import Permission, User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competition import services
from competition.models import Absence, Game, Ranking, Round, Standing
from tests.factories import (
    big_engine_season,
    make_line_up,
    make_played_competition,
    make_round_1_with_two_cancelled,
    management_form,
    round_page_data,
    worked_example_season,
)
from tests.moments import AMSTERDAM, EVENING_4


def results_url(round_):
    return reverse("arbiter:results", args=[round_.pk])


def post_pair_and_publish(client, round_):
    client.post(reverse("arbiter:pair", args=[round_.pk]))
    return client.post(reverse("arbiter:publish", args=[round_.pk]), follow=True)


def test_the_arbiter_pairs_publishes_and_enters_results_by_shortcut(arbiter_client, round_4):
    response = post_pair_and_publish(arbiter_client, round_4)
    assert "De indeling is gepubliceerd." in response.content.decode()
    games = list(round_4.games.order_by("board"))
    assert len(games) == 5
    page = arbiter_client.get(results_url(round_4)).content.decode()
    assert "autofocus" in page and games[0].white.name in page
    typed = ["1", "r", "0", "1f", "00f"]
    response = arbiter_client.post(
        results_url(round_4),
        {f"game_{g.pk}": t for g, t in zip(games, typed, strict=True)},
        follow=True,
    )
    assert "5 uitslag(en) opgeslagen" in response.content.decode()
    assert [g.result for g in round_4.games.order_by("board")] == [
        "1-0",
        "1/2-1/2",
        "0-1",
        "1-0F",
        "0-0F",
    ]
    assert Ranking.objects.filter(competition=round_4.competition, after_round=4).exists()


def fields_of(page: str) -> dict[str, str]:
    """The results page's inputs as sent back: name -> value (the shown and the hidden)."""
    inputs = re.findall(r"<input [^>]*>", page)
    return {
        re.search(r'name="([^"]+)"', tag)[1]: re.search(r'value="([^"]*)"', tag)[1]
        for tag in inputs
        if 'name="' in tag and 'value="' in tag and "game_" in tag
    }


def test_the_results_page_writes_results_as_every_other_page_does(arbiter_client, round_4):
    """Issue 37: "½-½" and "1-0 (reglementair)", not the stored "1/2-1/2" and "1-0F"; the page
    sent back as shown changes nothing, and the words typed are understood."""
    post_pair_and_publish(arbiter_client, round_4)
    games = list(round_4.games.order_by("board"))
    typed = ["r", "1f", "0", "1", "00f"]
    arbiter_client.post(
        results_url(round_4), {f"game_{g.pk}": t for g, t in zip(games, typed, strict=True)}
    )
    page = arbiter_client.get(results_url(round_4)).content.decode()
    shown = fields_of(page)
    assert [shown[f"game_{g.pk}"] for g in games] == [
        "½-½",
        "1-0 (reglementair)",
        "0-1",
        "1-0",
        "0-0 (beiden reglementair)",
    ]
    assert "1/2-1/2" not in page and "1-0F" not in page and "0-0F" not in page
    stored = dict(Game.objects.filter(round=round_4).values_list("pk", "result"))
    response = arbiter_client.post(results_url(round_4), shown, follow=True)
    assert "0 uitslag(en) opgeslagen" in response.content.decode()
    assert dict(Game.objects.filter(round=round_4).values_list("pk", "result")) == stored
    retyped = shown | {f"game_{games[0].pk}": "0-1 (Reglementair)", f"game_{games[1].pk}": "½-½"}
    arbiter_client.post(results_url(round_4), retyped | {"reason": "verkeerd getypt"})
    assert [g.result for g in round_4.games.order_by("board")][:2] == ["0-1F", "1/2-1/2"]


def test_an_unknown_result_is_refused_and_nothing_is_saved(arbiter_client, round_4):
    post_pair_and_publish(arbiter_client, round_4)
    games = list(round_4.games.order_by("board"))
    data = {f"game_{g.pk}": "1" for g in games} | {f"game_{games[2].pk}": "2-0"}
    response = arbiter_client.post(results_url(round_4), data)
    assert response.status_code == 200
    assert "Onbekende uitslag &#x27;2-0&#x27;" in response.content.decode()
    assert not round_4.games.exclude(result="").exists()
    assert not Ranking.objects.filter(after_round=4).exists()


def test_a_refused_results_page_names_the_boards_as_the_opened_page_did(arbiter_client, round_4):
    # A form sent is checked without the players' names; shown again, it reads them.
    post_pair_and_publish(arbiter_client, round_4)
    games = list(round_4.games.order_by("board").select_related("white__member", "black__member"))
    opened = arbiter_client.get(results_url(round_4)).content.decode()
    data = {f"game_{g.pk}": "1" for g in games} | {f"game_{games[2].pk}": "2-0"}
    again = arbiter_client.post(results_url(round_4), data).content.decode()
    labels = re.findall(r'aria-label="(Bord [^"]*)"', opened)
    assert labels == [f"Bord {g.board}: {g.white.name} – {g.black.name}" for g in games]
    assert re.findall(r'aria-label="(Bord [^"]*)"', again) == labels
    for game in games:
        assert f"<td>{game.white.name}</td><td>{game.black.name}</td>" in again
    assert "Onbekende uitslag" in again


def test_results_of_an_unpublished_pairing_are_refused(arbiter_client, round_4):
    arbiter_client.post(reverse("arbiter:pair", args=[round_4.pk]))
    game = round_4.games.first()
    response = arbiter_client.post(results_url(round_4), {f"game_{game.pk}": "1"})
    assert "Publiceer de indeling voordat je uitslagen invoert." in response.content.decode()
    assert round_4.games.filter(result="").count() == 5


def test_swapping_colours_in_the_review_is_saved(arbiter_client, round_4):
    arbiter_client.post(reverse("arbiter:pair", args=[round_4.pk]))
    games = list(round_4.games.order_by("board"))
    first = games[0]
    white, black = first.white_id, first.black_id
    data = round_page_data(round_4, games, **{"games-0-white": black, "games-0-black": white})
    response = arbiter_client.post(reverse("arbiter:round", args=[round_4.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    first.refresh_from_db()
    assert (first.white_id, first.black_id) == (black, white)


def test_a_review_that_seats_a_player_twice_is_refused(arbiter_client, round_4):
    arbiter_client.post(reverse("arbiter:pair", args=[round_4.pk]))
    games = list(round_4.games.order_by("board"))
    twice = games[0].white
    data = round_page_data(round_4, games, **{"games-1-white": twice.pk})
    response = arbiter_client.post(reverse("arbiter:round", args=[round_4.pk]), data)
    page = response.content.decode()
    assert response.status_code == 200
    assert f"{twice.name} is meer dan één keer ingedeeld." in page
    assert f"{games[1].white.name} ontbreekt in de indeling." in page
    assert round_4.games.get(board=2).white_id == games[1].white_id


def test_every_result_change_is_in_the_history_with_who(arbiter_client, arbiter, round_4):
    post_pair_and_publish(arbiter_client, round_4)
    game = round_4.games.get(board=1)
    arbiter_client.post(results_url(round_4), {f"game_{game.pk}": "1"})
    # Days after the evening the result is final: a change says why.
    arbiter_client.post(results_url(round_4), {f"game_{game.pk}": "0", "reason": "Verwisseld"})
    history = list(game.history.order_by("history_date"))
    assert [h.result for h in history][-2:] == ["1-0", "0-1"]
    assert history[-1].history_change_reason == "Verwisseld"
    assert {h.history_user for h in history[-2:]} == {arbiter}
    page = arbiter_client.get(reverse("admin:competition_game_history", args=[game.pk]))
    assert page.status_code == 200


def test_visitors_cannot_reach_the_results_page(client, round_4):
    response = client.get(results_url(round_4))
    assert response.status_code == 302 and "/beheer/login/" in response["Location"]


def test_publishing_without_a_pairing_is_refused(arbiter_client, round_4):
    response = arbiter_client.post(reverse("arbiter:publish", args=[round_4.pk]), follow=True)
    assert "Er is geen indeling om te publiceren." in response.content.decode()
    round_4.refresh_from_db()
    assert not round_4.is_published


def test_the_round_page_shows_forced_repeats(arbiter_client, example_competition, round_4):
    example_competition.rounds_per_period = 28
    example_competition.save()
    # Everyone but Jansen and Pietersen cancels: they met in round 1, so it must be a repeat.
    for participant in example_competition.participants.exclude(
        member__name__in=["Jansen", "Pietersen"]
    ):
        round_4.absences.create(participant=participant, reason="excused")
    arbiter_client.post(reverse("arbiter:pair", args=[round_4.pk]))
    page = arbiter_client.get(reverse("arbiter:round", args=[round_4.pk])).content.decode()
    assert "Jansen en Pietersen speelden deze periode al tegen elkaar (ronde 1)." in page
    assert Game.objects.filter(round=round_4).count() == 1
    # Named under its board too, White first as the board is (issue 37, the draft's review).
    after_board_1 = page[page.index('id="bord-1"') :].split("</tr>", 2)[1]
    game = round_4.games.select_related("white__member", "black__member").get()
    named = f"{game.white.name} en {game.black.name} speelden deze periode al tegen elkaar"
    assert 'class="repeat-note"' in after_board_1 and f"{named} (ronde 1)." in after_board_1


def test_a_new_round_is_published_on_the_friday_before_at_eight_by_default(
    arbiter_client, example_competition
):
    data = {
        "competition": example_competition.pk,
        "number": 4,
        "date": "2026-10-29",
        "publish_at_0": "",
        "publish_at_1": "",
        "bye": "",
        **management_form("games"),
        **management_form("absences"),
    }
    response = arbiter_client.post(reverse("arbiter:new-round"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    round_4 = Round.objects.get(number=4)
    # Friday 23 October 2026, 20:00 summer time (the clocks go back two days later).
    assert round_4.publish_at == datetime(2026, 10, 23, 20, tzinfo=AMSTERDAM)


def change_url(round_):
    return reverse("arbiter:round", args=[round_.pk])


def snapshot_keys(competition) -> list[int]:
    """The stored ranking rows: recomputing replaces them, so their keys change."""
    return list(competition.rankings.order_by("pk").values_list("pk", flat=True))


def test_saving_a_published_round_page_unchanged_works(arbiter_client, example_competition):
    round_3 = Round.objects.get(number=3)
    before = snapshot_keys(example_competition)
    response = arbiter_client.post(change_url(round_3), round_page_data(round_3))
    assert response.status_code == 302
    assert snapshot_keys(example_competition) == before  # nothing the rankings read changed


def test_saving_a_rounds_date_does_not_recompute_the_season(arbiter_client, paired_round_4):
    round_4 = paired_round_4
    competition = round_4.competition
    before = snapshot_keys(competition)
    games = list(round_4.games.order_by("board"))
    data = round_page_data(round_4, games, date="2026-09-25")
    response = arbiter_client.post(change_url(round_4), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Round.objects.get(pk=round_4.pk).date == date(2026, 9, 25)
    assert snapshot_keys(competition) == before
    assert list(round_4.games.order_by("board")) == games  # the draft is untouched


def test_changing_an_absence_on_a_played_round_recomputes_the_rankings(arbiter_client, db):
    competition, pk = make_round_1_with_two_cancelled()
    round_1 = competition.rounds.get(number=1)
    absence = Absence.objects.get(participant_id=pk["de-wit"])
    total = Standing.objects.get(ranking__after_round=1, participant_id=pk["de-wit"]).total
    assert total == 42 + 14  # own value plus a third
    data = round_page_data(round_1, absences=[]) | {
        "absences-TOTAL_FORMS": 2,
        "absences-INITIAL_FORMS": 2,
        "absences-0-id": absence.pk,
        "absences-0-round": round_1.pk,
        "absences-0-participant": pk["de-wit"],
        "absences-0-reason": "unexcused",
        "absences-1-id": Absence.objects.get(participant_id=pk["de-bruin"]).pk,
        "absences-1-round": round_1.pk,
        "absences-1-participant": pk["de-bruin"],
        "absences-1-reason": "excused",
    }
    refused = arbiter_client.post(change_url(round_1), data)  # round 1's results are final
    assert refused.status_code == 200
    assert "Zeg waarom: de uitslagen van ronde 1 zijn definitief" in refused.content.decode()
    assert Absence.objects.get(pk=absence.pk).reason == "excused"
    data["correction-reason"] = "De Wit meldde zich niet af"
    response = arbiter_client.post(change_url(round_1), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Standing.objects.get(ranking__after_round=1, participant_id=pk["de-wit"]).total == 42
    assert competition.rankings.get(after_round=1).correction == "De Wit meldde zich niet af"


def test_a_player_in_a_published_pairing_cannot_be_recorded_absent(
    arbiter_client, example_competition
):
    round_3 = Round.objects.get(number=3)
    seated = round_3.games.first().white
    response = arbiter_client.post(
        change_url(round_3), round_page_data(round_3, absences=[(seated.pk, "late")])
    )
    assert f"{seated.name} staat in de gepubliceerde indeling" in response.content.decode()
    assert not Absence.objects.filter(participant=seated).exists()


def test_an_absence_from_another_competition_is_refused(
    arbiter_client, example_competition, paired_round_4
):
    round_4 = paired_round_4
    _, other_pk = make_played_competition(worked_example_season(1), date(2027, 9, 2))
    games = list(round_4.games.order_by("board"))
    response = arbiter_client.post(
        change_url(round_4),
        round_page_data(round_4, games, absences=[(other_pk["jansen"], "excused")]),
    )
    assert response.status_code == 200
    assert not round_4.absences.exists()


def test_one_save_moves_a_player_from_a_game_to_the_absent_list(arbiter_client, paired_round_4):
    round_4 = paired_round_4
    games = list(round_4.games.order_by("board"))
    last = games[-1]
    # The last board's players: one cancels, the other gets the bye.
    data = round_page_data(
        round_4,
        games,
        absences=[(last.white_id, "late")],
        bye=last.black_id,
        **{"games-4-DELETE": "on"},
    )
    response = arbiter_client.post(change_url(round_4), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    round_4.refresh_from_db()
    assert round_4.games.count() == 4 and round_4.bye_id == last.black_id
    assert round_4.absences.get().participant_id == last.white_id


def test_a_player_who_has_not_joined_cannot_be_seated(arbiter_client, paired_round_4):
    round_4 = paired_round_4
    games = list(round_4.games.order_by("board"))
    later = round_4.competition.participants.get(pk=games[0].white_id)
    later.joined_round = 5
    later.save()
    response = arbiter_client.post(change_url(round_4), round_page_data(round_4, games))
    assert f"{later.name} doet pas mee vanaf ronde 5." in response.content.decode()


def queries(client, url):
    with CaptureQueriesContext(connection) as context:
        assert client.get(url).status_code == 200
    return len(context.captured_queries)


def test_the_round_list_and_page_do_not_grow_with_the_season(arbiter_client, example_competition):
    small = queries(arbiter_client, reverse("admin:competition_round_changelist"))
    small_page = queries(arbiter_client, change_url(Round.objects.get(number=3)))
    big, _ = make_played_competition(big_engine_season(), date(2027, 9, 2))
    big_round = big.rounds.get(number=28)
    assert queries(arbiter_client, reverse("admin:competition_round_changelist")) == small
    assert queries(arbiter_client, change_url(big_round)) <= small_page + 2


# -- team line-ups ---------------------------------------------------------------------------


def test_the_arbiter_sees_the_team_absence_on_the_round_page(arbiter_client, round_4):
    jansen = round_4.competition.participants.get(member__name="Jansen")
    make_line_up(jansen, EVENING_4 + timedelta(days=1))
    page = arbiter_client.get(reverse("arbiter:round", args=[round_4.pk]))
    assert "Jansen: DSC 1 – Heerenveen (25-09-2026)" in page.content.decode()


def test_a_user_without_the_absences_keeps_them_when_saving_a_round(client, round_4):
    clerk = User.objects.create_user("clerk", password="clerk-password", is_staff=True)
    clerk.user_permissions.set(
        Permission.objects.filter(
            content_type__app_label="competition", codename__in=["view_round", "change_round"]
        )
    )
    client.force_login(clerk)
    jansen = round_4.competition.participants.get(member__name="Jansen")
    services.record_absence(round_4, jansen, "excused")
    data = {
        key: value
        for key, value in round_page_data(round_4, date="2026-09-25").items()
        if not key.startswith(("absences-", "games-"))
    }
    response = client.post(change_url(round_4), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Round.objects.get(pk=round_4.pk).date == date(2026, 9, 25)
    assert round_4.absences.get().participant == jansen


def staff_with(*codenames) -> User:
    name = f"clerk-{User.objects.count()}"
    user = User.objects.create_user(name, password="clerk-password", is_staff=True)
    user.user_permissions.set(
        Permission.objects.filter(content_type__app_label="competition", codename__in=codenames)
    )
    return user


def test_a_user_who_may_only_view_the_absences_keeps_them_when_saving_a_draft(client, round_4):
    client.force_login(
        staff_with(
            "view_round",
            "change_round",
            "view_game",
            "change_game",
            "add_game",
            "delete_game",
            "view_absence",
        )
    )
    absent = round_4.competition.participants.get(member__name="Jansen")
    services.record_absence(round_4, absent, "excused")
    services.make_pairing(round_4)
    round_4.refresh_from_db()
    games = list(round_4.games.order_by("board"))
    data = round_page_data(round_4, games, date="2026-09-25")
    stored = Absence.objects.get(round=round_4)
    data |= {
        "absences-TOTAL_FORMS": 1,
        "absences-INITIAL_FORMS": 1,
        "absences-0-id": stored.pk,
        "absences-0-round": round_4.pk,
    }  # a view-only row posts no participant or reason
    response = client.post(change_url(round_4), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert round_4.absences.get().participant == absent
    assert Round.objects.get(pk=round_4.pk).date == date(2026, 9, 25)


def test_a_draft_reviewed_without_the_absence_rows_counts_the_recorded_absences(client, round_4):
    client.force_login(staff_with("view_round", "change_round", "view_game", "change_game"))
    jansen = round_4.competition.participants.get(member__name="Jansen")
    services.record_absence(round_4, jansen, "excused")
    services.make_pairing(round_4)
    round_4.refresh_from_db()
    games = list(round_4.games.order_by("board"))
    data = {
        key: value
        for key, value in round_page_data(round_4, games).items()
        if not key.startswith("absences-")
    }
    response = client.post(change_url(round_4), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert round_4.absences.get().participant == jansen


def test_a_page_opened_before_the_pairing_does_not_delete_it(arbiter_client, round_4):
    data = round_page_data(round_4)  # the page as opened: no draft yet
    services.make_pairing(round_4)  # meanwhile, in another tab
    response = arbiter_client.post(change_url(round_4), data, follow=True)
    assert "De indeling van ronde 4 is intussen veranderd" in response.content.decode()
    assert round_4.games.count() == 5


def test_a_draft_page_saved_after_publication_says_so_and_changes_nothing(
    arbiter_client, paired_round_4
):
    round_4 = paired_round_4
    games = list(round_4.games.order_by("board"))
    data = round_page_data(round_4, games, date="2026-09-25")  # opened as a draft
    services.publish(round_4, datetime(2026, 9, 18, 20, tzinfo=AMSTERDAM))  # the worker
    response = arbiter_client.post(change_url(round_4), data, follow=True)
    assert "Ronde 4 is intussen gepubliceerd" in response.content.decode()
    round_4 = Round.objects.get(pk=round_4.pk)
    assert round_4.is_published and round_4.date == date(2026, 9, 24)


def test_removing_an_absence_of_a_player_outside_the_published_pairing_is_refused(
    arbiter_client, db
):
    competition, pk = make_round_1_with_two_cancelled()
    round_1 = competition.rounds.get(number=1)
    keep = Absence.objects.get(participant_id=pk["de-bruin"])
    data = round_page_data(round_1) | {
        "absences-TOTAL_FORMS": 1,
        "absences-INITIAL_FORMS": 1,
        "absences-0-id": keep.pk,
        "absences-0-round": round_1.pk,
        "absences-0-participant": pk["de-bruin"],
        "absences-0-reason": "excused",
    }  # de Wit's row left out
    response = arbiter_client.post(change_url(round_1), data)
    assert response.status_code == 200
    assert "de Wit staat niet in de gepubliceerde indeling" in response.content.decode()
    assert round_1.absences.count() == 2


# -- permissions as the admin read them, and what a refused page says ------------------------


def test_who_may_change_absences_but_not_add_them_changes_only_those_shown(client, round_4):
    client.force_login(staff_with("view_round", "change_round", "change_absence"))
    jansen, pietersen = (
        round_4.competition.participants.get(member__name=name) for name in ("Jansen", "Pietersen")
    )
    services.record_absence(round_4, jansen, "excused")
    stored = Absence.objects.get(round=round_4)
    page = client.get(change_url(round_4)).content.decode()
    assert "Nog een afwezigheid toevoegen" not in page and "Verwijderen?" not in page
    data = round_page_data(round_4) | {
        "absences-TOTAL_FORMS": 2,
        "absences-INITIAL_FORMS": 1,
        "absences-0-id": stored.pk,
        "absences-0-participant": jansen.pk,
        "absences-0-reason": "late",
        "absences-1-participant": pietersen.pk,
        "absences-1-reason": "excused",
    }
    response = client.post(change_url(round_4), data)
    assert response.status_code == 200  # the added row is refused, nothing is stored
    assert "Er is niets opgeslagen" in response.content.decode()
    assert list(round_4.absences.values_list("participant_id", "reason")) == [
        (jansen.pk, "excused")
    ]
    del data["absences-1-participant"], data["absences-1-reason"]
    data["absences-TOTAL_FORMS"] = 1
    assert client.post(change_url(round_4), data).status_code == 302
    assert round_4.absences.get().reason == "late"


def test_who_may_add_absences_but_not_change_them_keeps_the_ones_shown(client, round_4):
    client.force_login(staff_with("view_round", "change_round", "view_absence", "add_absence"))
    jansen, pietersen = (
        round_4.competition.participants.get(member__name=name) for name in ("Jansen", "Pietersen")
    )
    services.record_absence(round_4, jansen, "excused")
    stored = Absence.objects.get(round=round_4)
    data = round_page_data(round_4) | {
        "absences-TOTAL_FORMS": 2,
        "absences-INITIAL_FORMS": 1,
        "absences-0-id": stored.pk,
        "absences-0-participant": jansen.pk,
        "absences-0-reason": "late",  # sent, but not this account's to change
        "absences-0-DELETE": "on",  # nor to delete
        "absences-1-participant": pietersen.pk,
        "absences-1-reason": "team",
    }
    response = client.post(change_url(round_4), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert dict(round_4.absences.values_list("participant_id", "reason")) == {
        jansen.pk: "excused",
        pietersen.pk: "team",
    }


def test_who_may_change_rounds_may_see_them_and_only_who_may_add_one_opens_a_new_one(
    client, round_4
):
    client.force_login(staff_with("change_round"))
    assert client.get(change_url(round_4)).status_code == 200
    assert client.get(reverse("arbiter:new-round")).status_code == 403
    client.force_login(staff_with("view_round"))
    assert client.post(change_url(round_4), round_page_data(round_4)).status_code == 403
    client.force_login(staff_with("view_round", "add_round"))
    assert client.get(reverse("arbiter:new-round")).status_code == 200


def test_a_refused_save_shows_the_round_as_stored_and_what_was_typed(
    arbiter_client, paired_round_4
):
    round_4 = paired_round_4
    games = list(round_4.games.order_by("board"))
    twice = games[0].white_id
    data = round_page_data(round_4, games, date="2026-09-25", **{"games-1-white": twice})
    page = arbiter_client.post(change_url(round_4), data).content.decode()
    assert "<title>Ronde 4 (24-09-2026)" in page  # the title says what is stored
    assert "Er is niets opgeslagen" in page and "meer dan één keer ingedeeld" in page
    assert 'name="date" value="2026-09-25"' in page  # what was typed stays
    assert Round.objects.get(pk=round_4.pk).date == EVENING_4


def test_a_field_typed_wrong_is_said_at_the_top_too(arbiter_client, paired_round_4):
    games = list(paired_round_4.games.order_by("board"))
    data = round_page_data(paired_round_4, games, **{"games-0-board": "een"})
    page = arbiter_client.post(change_url(paired_round_4), data).content.decode()
    assert '<p class="errornote" role="alert">Er is niets opgeslagen:</p>' in page


def test_a_page_opened_before_the_pairing_is_refused_once_the_round_is_published(
    arbiter_client, round_4
):
    """The page showed a draft without boards; meanwhile the worker paired and published it:
    the date typed on the old page is not saved as if nothing happened."""
    data = round_page_data(round_4, date="2026-10-01")
    services.make_pairing(round_4)
    services.publish(round_4, datetime(2026, 9, 18, 20, tzinfo=AMSTERDAM))
    response = arbiter_client.post(change_url(round_4), data, follow=True)
    assert "intussen" in response.content.decode()
    assert Round.objects.get(pk=round_4.pk).date == EVENING_4


def test_a_saved_round_is_among_the_admins_recent_actions(arbiter_client, arbiter, round_4):
    arbiter_client.post(change_url(round_4), round_page_data(round_4, date="2026-09-25"))
    entry = LogEntry.objects.get(user=arbiter)
    assert (entry.object_id, entry.action_flag) == (str(round_4.pk), CHANGE)
    assert "Ronde 4" in arbiter_client.get(reverse("admin:index")).content.decode()


def test_a_posted_count_of_rows_beyond_the_players_is_refused_with_a_message(
    arbiter_client, round_4
):
    """Issue 26: a huge absences-TOTAL_FORMS built thousands of rows (30 s of a worker); a
    non-numeric one answered 500. Both are refused with a message, nothing stored."""
    players = round_4.competition.participants.count()
    for count, message in (
        (players + 1, f"Verstuur maximaal {players} formulieren."),
        (1_000_000, f"Verstuur maximaal {players} formulieren."),
        ("veel", "(Verborgen veld TOTAL_FORMS) Voer een geheel getal in."),
    ):
        data = round_page_data(round_4) | {"absences-TOTAL_FORMS": count}
        response = arbiter_client.post(change_url(round_4), data)
        assert response.status_code == 200, count
        assert message in response.content.decode(), count
        assert len(response.context["absent"].forms) <= players  # never more rows built
    assert not round_4.absences.exists()
