"""The rapid evening on one admin page: presence once for the evening, pair, results, the next
round, without leaving the page; every step one service, bad input refused with nothing
changed. The pairings and totals below are worked out by hand from the rules (keizer-rules.md
sections 3, 4 and 6), not read from the engine."""

import html
from datetime import date, datetime
from fractions import Fraction
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.contrib.auth.models import Permission, User
from django.urls import reverse

from competition import services
from competition.models import Absence, Competition, Round
from members.models import Member
from tests.factories import make_season

AMSTERDAM = ZoneInfo("Europe/Amsterdam")
EVENING = date(2026, 10, 6)  # a Tuesday
DURING = datetime(2026, 10, 6, 19, 50, tzinfo=AMSTERDAM)
EXCUSED = Absence.Reason.EXCUSED.value
UNEXCUSED = Absence.Reason.UNEXCUSED.value
# Ranking 0 with top value 10, step 1: Anne 10, Bauke 9, Cor 8, Douwe 7, the guest Eelke 6.
NAMES = ["Anne Hoekstra", "Bauke Veenstra", "Cor Dijkstra", "Douwe Kuipers"]
GUEST = "Eelke Gast"


@pytest.fixture
def during_the_evening():
    with time_machine.travel(DURING, tick=False):
        yield


@pytest.fixture
def rapid(db, during_the_evening):
    competition = Competition.objects.create(
        season=make_season(),
        kind=Competition.Kind.RAPID,
        top_value=10,
        rounds_per_period=9,
        full_revaluation_from_round=None,
    )
    for position, name in enumerate(NAMES, start=1):
        competition.participants.create(
            member=Member.objects.create(name=name), initial_position=position
        )
    competition.participants.create(guest_name=GUEST, initial_position=5)
    services.recompute_rankings(competition)
    return competition


def player(competition, name):
    return competition.participants.get(
        **({"guest_name": name} if name == GUEST else {"member__name": name})
    )


def evening_url(competition, **query):
    url = reverse("arbiter:rapid-evening", args=[competition.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def presence(competition, absent=None):
    """The presence fields as the page sends them: every player, "" for present."""
    absent = absent or {}
    return {f"speler-{p.pk}": absent.get(p.name, "") for p in competition.participants.all()}


def results(round_, typed):
    """The result fields of a round, typed per board as the arbiter types them."""
    return {f"game_{game.pk}": typed[game.board] for game in round_.games.all()}


def boards(competition, number):
    round_ = competition.rounds.get(number=number)
    return [(g.board, g.white.name, g.black.name) for g in round_.games.order_by("board")]


def totals(competition, after_round):
    ranking = competition.rankings.get(after_round=after_round)
    return [
        (s.participant.name, s.total)
        for s in ranking.standings.select_related("participant__member").order_by("position")
    ]


def messages_of(response):
    return [str(m) for m in response.context["messages"]] if response.context else []


def test_three_rounds_of_an_evening_on_one_page_give_the_rankings_worked_out_by_hand(
    arbiter_client, rapid
):
    url = evening_url(rapid)
    page = arbiter_client.get(url).content.decode()
    assert "Rapidavond dinsdag 6 oktober 2026" in page
    assert "Nieuwe rapidavond: nog geen ronden op deze avond." in page
    assert "Aanwezig in ronde 1: 5 van 5" in page
    assert "Indeling maken: ronde 1" in page

    # The guest is not coming tonight: set once, before round 1.
    sent = {"actie": "indelen", "ronde": "1"} | presence(rapid, {GUEST: EXCUSED})
    response = arbiter_client.post(url, sent)
    assert response.status_code == 302 and response["Location"] == url  # back on the page
    # Round 1 from ranking 0: 1–2 and 3–4; nobody has a colour yet, the higher-ranked is white.
    assert boards(rapid, 1) == [
        (1, "Anne Hoekstra", "Bauke Veenstra"),
        (2, "Cor Dijkstra", "Douwe Kuipers"),
    ]
    round_1 = rapid.rounds.get(number=1)
    assert round_1.is_published and round_1.date == EVENING
    assert dict(round_1.absences.values_list("participant__guest_name", "reason")) == {
        GUEST: EXCUSED
    }
    page = arbiter_client.get(url).content.decode()
    assert "Ronde 1: uitslagen" in page and "Aanwezig in ronde 2: 4 van 5" in page

    # Board 1 white wins, board 2 a draw; the presence is sent as it stands (carried over).
    sent = {"actie": "volgende", "ronde": "1"} | results(round_1, {1: "1", 2: "r"})
    response = arbiter_client.post(url, sent | presence(rapid, {GUEST: EXCUSED}))
    assert response.status_code == 302 and response["Location"] == url
    # Ranking 1 (valued with ranking 0): Anne 10+9, Cor 8+7/2, Douwe 7+8/2, Bauke 9, Eelke 6+6/3.
    assert totals(rapid, 1) == [
        ("Anne Hoekstra", 19),
        ("Cor Dijkstra", Fraction(23, 2)),
        ("Douwe Kuipers", 11),
        ("Bauke Veenstra", 9),
        (GUEST, 8),
    ]
    # Round 2 from ranking 1 (Anne, Cor, Douwe, Bauke): Anne and Cor both had white last, so the
    # higher-ranked Anne is white; Douwe and Bauke both had black last: Douwe is white.
    assert boards(rapid, 2) == [
        (1, "Anne Hoekstra", "Cor Dijkstra"),
        (2, "Douwe Kuipers", "Bauke Veenstra"),
    ]
    round_2 = rapid.rounds.get(number=2)
    assert round_2.date == EVENING and round_2.is_published
    assert round_2.absent_ids() == {player(rapid, GUEST).pk}  # carried to the next round

    sent = {"actie": "volgende", "ronde": "2"} | results(round_2, {1: "0", 2: "1"})
    response = arbiter_client.post(url, sent | presence(rapid, {GUEST: EXCUSED}))
    assert response.status_code == 302 and response["Location"] == url
    # Ranking 2 (valued with ranking 1: Anne 10, Cor 9, Douwe 8, Bauke 7, Eelke 6):
    # Cor 9+8/2+10, Douwe 8+9/2+7, Anne 10+7, Eelke 6+2+2, Bauke 7.
    assert totals(rapid, 2) == [
        ("Cor Dijkstra", 23),
        ("Douwe Kuipers", Fraction(39, 2)),
        ("Anne Hoekstra", 17),
        (GUEST, 10),
        ("Bauke Veenstra", 7),
    ]
    # Round 3 from ranking 2 (Cor, Douwe, Anne, Bauke): Cor met Douwe and Anne this period, so
    # Cor–Bauke and Douwe–Anne. Bauke has two blacks, Cor one of each: Bauke is white. Douwe
    # has one of each, Anne two whites: Douwe is white.
    assert boards(rapid, 3) == [
        (1, "Bauke Veenstra", "Cor Dijkstra"),
        (2, "Douwe Kuipers", "Anne Hoekstra"),
    ]

    # The last round of the evening: only the results.
    round_3 = rapid.rounds.get(number=3)
    sent = {"actie": "opslaan", "ronde": "3"} | results(round_3, {1: "r", 2: "1"})
    response = arbiter_client.post(url, sent | presence(rapid, {GUEST: EXCUSED}))
    assert response.status_code == 302 and response["Location"] == url
    assert rapid.rounds.count() == 3
    # Ranking 3 (valued with ranking 2: Cor 10, Douwe 9, Anne 8, Eelke 7, Bauke 6):
    # Douwe 9+5+6+8, Cor 10+9/2+8+3, Anne 8+6, Eelke 7+3×7/3, Bauke 6+5; Anne and Eelke tie
    # at 14 and keep the order of ranking 2.
    assert totals(rapid, 3) == [
        ("Douwe Kuipers", 28),
        ("Cor Dijkstra", Fraction(51, 2)),
        ("Anne Hoekstra", 14),
        (GUEST, 14),
        ("Bauke Veenstra", 11),
    ]
    page = arbiter_client.get(url).content.decode()
    assert "Indeling maken: ronde 4" in page  # another round is one tap away


def pair_round_1(client, competition):
    sent = {"actie": "indelen", "ronde": "1"} | presence(competition)
    assert client.post(evening_url(competition), sent).status_code == 302
    return competition.rounds.get(number=1)


def test_a_missing_result_is_refused_in_dutch_and_changes_nothing(arbiter_client, rapid):
    round_1 = pair_round_1(arbiter_client, rapid)
    sent = {"actie": "volgende", "ronde": "1"} | results(round_1, {1: "1", 2: ""}) | presence(rapid)
    response = arbiter_client.post(evening_url(rapid), sent)
    assert response.status_code == 400
    assert "Bord 2 heeft nog geen uitslag." in response.content.decode()
    assert list(round_1.games.values_list("result", flat=True)) == ["", ""]
    assert not rapid.rounds.filter(number=2).exists()
    # What was typed is still in the form.
    board_1 = round_1.games.get(board=1)
    assert f'name="game_{board_1.pk}" value="1"' in response.content.decode()


def test_an_unknown_result_is_refused_and_changes_nothing(arbiter_client, rapid):
    round_1 = pair_round_1(arbiter_client, rapid)
    sent = (
        {"actie": "volgende", "ronde": "1"} | results(round_1, {1: "2", 2: "1"}) | presence(rapid)
    )
    response = arbiter_client.post(evening_url(rapid), sent)
    assert response.status_code == 400
    assert "Onbekende uitslag '2'" in html.unescape(response.content.decode())
    assert not round_1.games.exclude(result="").exists()
    assert rapid.rounds.count() == 1


def test_a_player_listed_twice_is_refused_and_nothing_is_paired(arbiter_client, rapid):
    anne = player(rapid, "Anne Hoekstra")
    data = {"actie": "indelen", "ronde": "1"} | presence(rapid)
    sent = [(name, value) for name, value in data.items()] + [(f"speler-{anne.pk}", EXCUSED)]
    body = "&".join(f"{name}={value}" for name, value in sent)
    response = arbiter_client.post(
        evening_url(rapid), body, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 400
    assert "Anne Hoekstra staat meer dan eens in de lijst." in response.content.decode()
    assert not rapid.rounds.exists()


def test_a_player_of_another_competition_is_refused(arbiter_client, rapid):
    stranger = Competition.objects.create(season=rapid.season).participants.create(
        member=Member.objects.create(name="Vreemde Eend"), initial_position=1
    )
    sent = {"actie": "indelen", "ronde": "1"} | presence(rapid) | {f"speler-{stranger.pk}": EXCUSED}
    response = arbiter_client.post(evening_url(rapid), sent)
    assert response.status_code == 400
    assert f"Speler {stranger.pk} speelt niet in deze rapidcompetitie." in response.content.decode()
    assert not rapid.rounds.exists()


def test_a_second_tap_does_not_pair_another_round(arbiter_client, rapid):
    round_1 = pair_round_1(arbiter_client, rapid)
    sent = (
        {"actie": "volgende", "ronde": "1"} | results(round_1, {1: "1", 2: "0"}) | presence(rapid)
    )
    assert arbiter_client.post(evening_url(rapid), sent).status_code == 302
    again = arbiter_client.post(evening_url(rapid), sent, follow=True)
    assert any("verouderd" in message for message in messages_of(again))
    assert list(rapid.rounds.values_list("number", flat=True)) == [1, 2]
    assert "Ronde 2: uitslagen" in again.content.decode()


def test_the_same_pairing_sent_twice_pairs_one_round(arbiter_client, rapid):
    pair_round_1(arbiter_client, rapid)
    sent = {"actie": "indelen", "ronde": "1"} | presence(rapid)
    response = arbiter_client.post(evening_url(rapid), sent, follow=True)
    assert any("verouderd" in message for message in messages_of(response))
    assert rapid.rounds.count() == 1


def test_a_presence_changed_while_saving_results_waits_in_the_address_for_the_next_round(
    arbiter_client, rapid
):
    round_1 = pair_round_1(arbiter_client, rapid)
    # Douwe says he leaves after this round; the arbiter notes it and saves board 1 only.
    leaving = presence(rapid, {"Douwe Kuipers": UNEXCUSED})
    sent = {"actie": "opslaan", "ronde": "1"} | results(round_1, {1: "1", 2: ""}) | leaving
    response = arbiter_client.post(evening_url(rapid), sent)
    assert response.status_code == 302
    location = urlsplit(response["Location"])
    assert location.path == evening_url(rapid)
    douwe = player(rapid, "Douwe Kuipers")
    assert parse_qs(location.query)[f"speler-{douwe.pk}"] == [UNEXCUSED]
    assert round_1.games.get(board=1).result == "1-0" and round_1.games.get(board=2).result == ""
    assert round_1.absences.count() == 0  # round 1 is as published

    page = arbiter_client.get(response["Location"]).content.decode()
    assert "Aanwezig in ronde 2: 4 van 5" in page
    sent = {"actie": "volgende", "ronde": "1"} | results(round_1, {1: "1", 2: "r"}) | leaving
    assert arbiter_client.post(response["Location"], sent).status_code == 302
    round_2 = rapid.rounds.get(number=2)
    assert dict(round_2.absences.values_list("participant_id", "reason")) == {douwe.pk: UNEXCUSED}
    assert round_2.games.count() == 2 and douwe.pk not in round_2.seated_ids()


def test_a_pairing_is_withdrawn_before_its_first_result_and_not_after(arbiter_client, rapid):
    round_1 = pair_round_1(arbiter_client, rapid)
    assert (
        "De indeling van ronde 1 intrekken"
        in arbiter_client.get(evening_url(rapid)).content.decode()
    )
    response = arbiter_client.post(evening_url(rapid), {"actie": "intrekken", "ronde": "1"})
    assert response.status_code == 302
    assert not rapid.rounds.exists()
    assert "Indeling maken: ronde 1" in arbiter_client.get(evening_url(rapid)).content.decode()

    round_1 = pair_round_1(arbiter_client, rapid)
    sent = {"actie": "opslaan", "ronde": "1"} | results(round_1, {1: "1", 2: ""}) | presence(rapid)
    arbiter_client.post(evening_url(rapid), sent)
    page = arbiter_client.get(evening_url(rapid)).content.decode()
    assert "intrekken" not in page
    response = arbiter_client.post(
        evening_url(rapid), {"actie": "intrekken", "ronde": "1"}, follow=True
    )
    assert "Ronde 1 heeft al uitslagen: intrekken kan niet meer." in messages_of(response)
    assert rapid.rounds.get(number=1).games.count() == 2


@pytest.mark.parametrize(
    ("day", "sentence"),
    [
        ("2026-10-13", "De avond van dinsdag 13 oktober 2026 is nog niet begonnen"),
        ("2026-09-29", "De avond van dinsdag 29 september 2026 is voorbij"),
    ],
)
def test_only_tonights_evening_can_be_paired(arbiter_client, rapid, day, sentence):
    url = evening_url(rapid, datum=day)
    page = arbiter_client.get(url).content.decode()
    assert sentence in page and "Indeling maken" not in page
    response = arbiter_client.post(url, {"actie": "indelen", "ronde": "1"} | presence(rapid))
    assert response.status_code == 400 and sentence in response.content.decode()
    assert not rapid.rounds.exists()


def test_a_round_is_not_paired_on_an_evening_before_the_last_one(arbiter_client, rapid):
    pair_round_1(arbiter_client, rapid)
    later = datetime(2026, 10, 13, 20, tzinfo=AMSTERDAM)
    with time_machine.travel(later, tick=False):
        # A week later round 1 still misses its results: round 2 waits for them.
        page = arbiter_client.get(evening_url(rapid)).content.decode()
        assert "Ronde 1 is nog niet compleet: voer eerst de uitslagen in." in page


def test_a_date_that_is_not_a_date_is_refused(arbiter_client, rapid):
    response = arbiter_client.get(evening_url(rapid, datum="morgen"))
    assert response.status_code == 400
    assert "'morgen' is geen datum zoals 2026-11-24." in response.content.decode()
    assert response["Content-Type"].startswith("text/plain")  # never read as markup


def test_the_internal_competition_has_no_rapid_evening(arbiter_client, rapid):
    internal = Competition.objects.create(season=rapid.season)
    response = arbiter_client.get(evening_url(internal))
    assert response.status_code == 400
    assert "Alleen de rapidcompetitie" in response.content.decode()


def test_only_the_arbiter_runs_the_evening(client, rapid):
    url = evening_url(rapid)
    assert client.get(url).status_code == 302  # to the login
    viewer = User.objects.create_user("kijker", is_staff=True)
    viewer.user_permissions.set(
        Permission.objects.filter(codename__in=["view_competition", "view_round"])
    )
    client.force_login(viewer)
    assert client.get(url).status_code == 403
    assert client.post(url, {"actie": "indelen", "ronde": "1"} | presence(rapid)).status_code == 403
    assert not rapid.rounds.exists()


def test_a_final_result_is_not_changed_here(arbiter_client, rapid):
    round_1 = pair_round_1(arbiter_client, rapid)
    sent = {"actie": "opslaan", "ronde": "1"} | results(round_1, {1: "1", 2: "0"}) | presence(rapid)
    arbiter_client.post(evening_url(rapid), sent)
    after_midnight = datetime(2026, 10, 7, 0, 5, tzinfo=AMSTERDAM)
    with time_machine.travel(after_midnight, tick=False):
        url = evening_url(rapid, datum="2026-10-06")
        sent = (
            {"actie": "opslaan", "ronde": "1"}
            | results(round_1, {1: "0", 2: "0"})
            | presence(rapid)
        )
        response = arbiter_client.post(url, sent)
    assert response.status_code == 400
    assert "De uitslag van bord 1 is al definitief" in response.content.decode()
    assert round_1.games.get(board=1).result == "1-0"


def test_the_demo_arbiter_starts_a_new_rapid_evening_from_the_start_page(demo, arbiter_client):
    """The demo's rapid evenings are all past: the start page leads to tonight's evening,
    where round 10 is paired for the 20 rapid players (18 members and 2 guests)."""
    from tests.demo import DEMO_NOW

    rapid = Competition.objects.get(kind=Competition.Kind.RAPID, season__is_closed=False)
    with time_machine.travel(DEMO_NOW, tick=False):
        start = arbiter_client.get(reverse("admin:index")).content.decode()
        assert f'href="{evening_url(rapid)}"' in start and "Rapidavond" in start
        page = arbiter_client.get(evening_url(rapid)).content.decode()
        assert "Rapidavond zondag 22 november 2026" in page
        assert "Aanwezig in ronde 10: 20 van 20" in page
        sent = {"actie": "indelen", "ronde": "10"} | presence(rapid)
        assert arbiter_client.post(evening_url(rapid), sent).status_code == 302
    round_10 = Round.objects.get(competition=rapid, number=10)
    assert round_10.is_published and round_10.date == date(2026, 11, 22)
    assert round_10.games.count() == 10
