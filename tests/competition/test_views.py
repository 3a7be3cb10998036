"""The public pages: what a visitor sees, in a constant number of queries."""

import re
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.models import current as current_club
from competition import services
from competition.keizer.season import Absence as Reason
from competition.keizer.season import Result
from competition.models import Page, Round
from dsc_site.errors import server_error
from members.groups import split_into_groups
from members.models import Member
from tests.demo import DEMO_NOW
from tests.factories import big_engine_season, make_played_competition, worked_example_season

AMSTERDAM = ZoneInfo("Europe/Amsterdam")
# The worked example is stored from Thursday 3 September 2026: round 3 is on 17 September.
BEFORE_ROUND_4 = datetime(2026, 9, 18, 12, tzinfo=AMSTERDAM)  # Friday, before 20:00


def test_the_standings_show_every_rounds_points_with_halves(client, example_competition):
    page = client.get(reverse("competition:standings")).content.decode()
    assert "Ranglijst 3, na ronde 3." in page
    for name, total in [("de Zeeuw", "164½"), ("de Vries", "106½"), ("Bakker", "67½")]:
        assert name in page and f">{total}<" in page
    assert '<td class="rnd">24½</td>' in page  # de Zeeuw's draw in round 3


def test_an_earlier_ranking_stays_reachable(client, example_competition):
    page = client.get(reverse("competition:standings-round", args=[1])).content.decode()
    assert "Ranglijst 1, na ronde 1." in page and ">71½<" in page
    assert client.get(reverse("competition:standings-round", args=[9])).status_code == 404


def test_movement_since_the_previous_ranking(client, example_competition):
    page = client.get(reverse("competition:standings")).content.decode()
    # de Vries went from 9th (ranking 2) to 5th (ranking 3); Slager from 4th to 6th.
    assert '<td class="text-end movement-up">▲4</td>' in page
    assert '<td class="text-end movement-down">▼2</td>' in page


def test_older_seasons_are_reachable(client, example_competition, db):
    make_played_competition(worked_example_season(1), date(2027, 9, 2))
    url = reverse("competition:standings")
    # Before the new season starts, the current one is still 2026-2027.
    assert "Ranglijst 3, na ronde 3." in client.get(url).content.decode()
    with time_machine.travel(datetime(2027, 10, 1, 12, tzinfo=AMSTERDAM), tick=False):
        assert "Ranglijst 1, na ronde 1." in client.get(url).content.decode()
        older = client.get(url + "?seizoen=2026-2027").content.decode()
    assert "Ranglijst 3, na ronde 3." in older


@time_machine.travel(BEFORE_ROUND_4, tick=False)
def test_an_unpublished_pairing_is_invisible_to_visitors(client, paired_round_4):
    for url in (reverse("competition:pairing"), reverse("competition:home")):
        page = client.get(url).content.decode()
        assert "De indeling verschijnt op vrijdag 18 september 20:00." in page
        assert (
            "Concept" not in page
            and 'class="table table-sm align-middle pairing"' not in page.split("Ronde 3")[0]
        )


@time_machine.travel(BEFORE_ROUND_4, tick=False)
def test_the_arbiter_sees_the_draft(arbiter_client, paired_round_4):
    page = arbiter_client.get(reverse("competition:pairing")).content.decode()
    assert "Concept: alleen de wedstrijdleider ziet dit" in page


@time_machine.travel(BEFORE_ROUND_4, tick=False)
def test_a_published_pairing_is_on_the_home_page(client, paired_round_4):
    round_4 = paired_round_4
    services.publish(round_4, BEFORE_ROUND_4)
    page = client.get(reverse("competition:home")).content.decode()
    assert "Volgende clubavond: ronde 4, donderdag 24 september 2026" in page
    first = round_4.games.get(board=1)
    assert first.white.name in page and first.black.name in page


@pytest.mark.parametrize(
    ("moment", "provisional"),
    [
        (datetime(2026, 9, 17, 22, 0, tzinfo=AMSTERDAM), True),
        (datetime(2026, 9, 17, 23, 29, 59, tzinfo=AMSTERDAM), True),
        (datetime(2026, 9, 17, 23, 30, tzinfo=AMSTERDAM), False),
        (datetime(2026, 9, 18, 9, 0, tzinfo=AMSTERDAM), False),
    ],
)
def test_results_are_provisional_until_half_past_eleven(
    client, example_competition, moment, provisional
):
    with time_machine.travel(moment, tick=False):
        standings = client.get(reverse("competition:standings")).content.decode()
        pairing = client.get(reverse("competition:pairing")).content.decode()
    assert ("voorlopig: uitslagen zijn definitief na 23:30" in standings) is provisional
    round_3 = pairing.split("Ronde 3,")[1].split("</h2>")[0]
    assert ("voorlopig" in round_3) is provisional


def test_a_player_page_explains_every_round(client, example_competition):
    jansen = example_competition.participant["jansen"]
    page = client.get(reverse("competition:player", args=[jansen])).content.decode()
    # Ranking 3 values every round with ranking 2: Pietersen 45, de Zeeuw 50, Slager 47.
    assert "won van Pietersen, waarde 45 → 45 punten" in page
    assert "verloor van de Zeeuw → 0 punten" in page
    assert "won van Slager, waarde 47 → 47 punten" in page
    assert "Plaats 3 op ranglijst 3, waarde 48, totaal 140." in page
    # 45 + 0 + 47 from the rounds, plus his value 48 in ranking 2.
    assert "Totaal 140 = eigen waarde 48 + 92 punten uit 3 rondes." in page


def test_every_stored_total_is_the_own_value_plus_start_points_plus_the_rounds(db):
    """What the player page tells holds for every player of a 150-player season."""
    competition, _ = make_played_competition(big_engine_season(), date(2026, 9, 3))
    latest = competition.rankings.order_by("after_round").last()
    for standing in latest.standings.select_related("participant"):
        assert standing.total == (
            standing.valuation_value
            + standing.participant.start_points
            + sum(standing.round_points)
        )


def test_a_player_page_explains_draws_absences_and_the_bye(client, db):
    # Round 1 of the worked example, but de Wit and de Bruin did not play: de Wit cancelled
    # in time, de Bruin had the bye. Ranking 1 values round 1 with ranking 0 (Slager 47,
    # de Wit 42, de Bruin 41).
    season = worked_example_season(1)
    first = season.rounds[0]
    rounds = (
        first._replace(games=first.games[:4], absent={"de-wit": Reason.EXCUSED}, bye="de-bruin"),
    )
    _, pk = make_played_competition(season._replace(rounds=rounds))

    def page(player):
        return client.get(reverse("competition:player", args=[pk[player]])).content.decode()

    assert "remise tegen Slager, de helft van waarde 47 → 23½ punten" in page("bakker")
    assert "op tijd afgemeld: ⅓ van eigen waarde 42 = 14 punten" in page("de-wit")
    assert "vrij (oneven): eigen waarde 41 = 41 punten" in page("de-bruin")


def test_the_rules_page_exists_from_the_start_and_is_the_arbiters_text(client, db):
    page = client.get(reverse("competition:rules")).content.decode()
    assert "Reglement interne competitie" in page and "Keizersysteem" in page
    Page.objects.filter(slug="reglement").update(body="a. Nieuwe tekst van de wedstrijdleider.")
    assert (
        "Nieuwe tekst van de wedstrijdleider."
        in client.get(reverse("competition:rules")).content.decode()
    )


def queries_for(client, url) -> int:
    with CaptureQueriesContext(connection) as context:
        assert client.get(url).status_code == 200
    return len(context.captured_queries)


def with_published_next_round(competition) -> Round:
    last = competition.rounds.order_by("-number").first()
    upcoming = Round.objects.create(
        competition=competition,
        number=last.number + 1,
        date=last.date + timedelta(weeks=1),
        publish_at=last.publish_at + timedelta(weeks=1),
    )
    services.make_pairing(upcoming)
    services.publish(upcoming, upcoming.publish_at)
    return upcoming


def test_pages_use_the_same_number_of_queries_for_150_players_and_28_rounds(client, db):
    small, small_pk = make_played_competition(worked_example_season(3), date(2025, 9, 4))
    big, big_pk = make_played_competition(big_engine_season(), date(2026, 9, 3))
    counts = {}
    for competition, pk in ((small, small_pk), (big, big_pk)):
        players = list(competition.participants.order_by("initial_position"))
        groups = split_into_groups(
            players, "ABCD"
        )  # groups A-D, as a season has: a race chart each
        for participant in players:
            participant.group = groups[participant]
            participant.save(update_fields=["group"])
        upcoming = with_published_next_round(competition)
        season = f"?seizoen={competition.season.name}"
        urls = [
            reverse(name) + season
            for name in ("competition:standings", "competition:pairing", "competition:home")
        ]
        urls.append(reverse("competition:player", args=[next(iter(pk.values()))]))
        # The printed wall list and result slips of the published round, and the poster.
        urls += [
            reverse(name, args=[upcoming.number]) + season
            for name in ("competition:pairing-print", "competition:slips-print")
        ]
        urls.append(reverse("competition:standings-print") + season)
        # What if every board of the published round were a draw: the engine's ranking.
        urls.append(f"{reverse('competition:what-if')}{season}&leeg={Result.DRAW.value}")
        with time_machine.travel(upcoming.publish_at + timedelta(hours=1), tick=False):
            counts[competition.pk] = [queries_for(client, url) for url in urls]
            assert "what-if-ranking" in client.get(urls[-1]).content.decode()
            standings, player = client.get(urls[0]), client.get(urls[3])
        # The charts are on both pages: the race of the top 10 and of each group, the player's.
        assert standings.content.decode().count('<svg class="season-chart chart-race"') == 5
        assert player.content.decode().count('<svg class="season-chart chart-player"') == 1
    assert big.participants.count() == 150 and big.rankings.count() == 29
    assert counts[small.pk] == counts[big.pk]


@pytest.mark.usefixtures("paired_round_4")
def test_a_draft_of_a_past_evening_stays_hidden_from_visitors(client):
    with time_machine.travel(datetime(2026, 10, 10, 12, tzinfo=AMSTERDAM), tick=False):
        page = client.get(reverse("competition:pairing")).content.decode()
    assert "Ronde 4," not in page
    assert "Ronde 3," in page


@pytest.fixture
def engine_forbidden(monkeypatch):
    """Every reference to the engine's entry points (and to rebuilding the season) in the
    site's loaded modules raises: a page that still computes fails."""
    import sys

    from competition import exchange
    from competition.keizer import pairing, ranking, scoring

    originals = {
        pairing.pair_next_round,
        ranking.compute_rankings,
        scoring.appearances,
        exchange.season_for,
        exchange.read_inputs,
    }

    def refuse(*args, **kwargs):
        raise AssertionError("a page computed instead of reading what was stored")

    patched = 0
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] in ("competition", "members", "absences", "dsc_site"):
            for attribute, value in list(vars(module).items()):
                if callable(value) and value in originals:
                    monkeypatch.setattr(module, attribute, refuse)
                    patched += 1
    assert patched >= len(originals)  # the fixture itself found them


@pytest.fixture
def published_round_4(paired_round_4):
    services.publish(paired_round_4, BEFORE_ROUND_4)
    return paired_round_4


@time_machine.travel(BEFORE_ROUND_4, tick=False)
def test_public_pages_read_what_was_stored_and_never_run_the_engine(
    client, example_competition, published_round_4, engine_forbidden
):
    jansen = example_competition.participant["jansen"]
    pages = {
        reverse("competition:player", args=[jansen]): "won van Pietersen, waarde 45 → 45 punten",
        reverse("competition:standings"): "Ranglijst 3, na ronde 3.",
        reverse("competition:standings-round", args=[1]): "Ranglijst 1, na ronde 1.",
        reverse("competition:pairing"): "Ronde 4,",
        reverse("competition:home"): "Volgende clubavond: ronde 4",
        reverse("competition:prizes"): "de Zeeuw",
    }
    for url, text in pages.items():
        response = client.get(url)
        assert response.status_code == 200, url
        assert text in response.content.decode(), url
    # The charts on those pages are read from the snapshots too.
    player = client.get(reverse("competition:player", args=[jansen])).content.decode()
    assert "Ranglijst 3: plaats 3, waarde 48, totaal 140" in player
    standings = client.get(reverse("competition:standings")).content.decode()
    assert "Ranglijst 3: plaats 1, totaal 164½" in standings  # de Zeeuw leads the race


# Thursday 24 September 2026, 23:00: round 4 is played, its results are in, and the arbiter
# publishes round 5 (Thursday 1 October) at once, a day before its Friday 20:00.
EVENING_4_LATE = datetime(2026, 9, 24, 23, 0, tzinfo=AMSTERDAM)


@pytest.fixture
def round_5_published_early(published_round_4):
    round_4 = published_round_4
    services.enter_results(round_4, {game.pk: "1-0" for game in round_4.games.all()})
    round_5 = Round.on_evening(round_4.competition, 5, date(2026, 10, 1))
    round_5.save()
    round_6 = Round.on_evening(round_4.competition, 6, date(2026, 10, 8))
    round_6.save()
    services.make_pairing(round_5)
    services.publish(round_5, EVENING_4_LATE)
    return round_5


@time_machine.travel(EVENING_4_LATE, tick=False)
def test_a_pairing_published_early_is_shown_beside_tonights_round(client, round_5_published_early):
    round_5 = round_5_published_early
    first = round_5.games.get(board=1)
    for url in (reverse("competition:pairing"), reverse("competition:home")):
        page = client.get(url).content.decode()
        text = page.lower()
        tonight = text.index("ronde 4, donderdag 24 september 2026")
        early = text.index("ronde 5, donderdag 1 oktober 2026")
        coming = text.index("ronde 6, donderdag 8 oktober 2026")
        assert tonight < early < coming, url
        assert first.white.name in page[early:coming] and first.black.name in page[early:coming]
        # The round after it is not published yet: the page says when it will be.
        assert "De indeling verschijnt op vrijdag 2 oktober 20:00." in page[coming:], url
        assert "Concept" not in page


@time_machine.travel(DEMO_NOW, tick=False)
def test_every_season_opens_from_the_picker_on_each_page(client, demo):
    picker = 'name="seizoen"'
    for name in ("competition:standings", "competition:pairing", "competition:prizes"):
        page = client.get(reverse(name)).content.decode()
        form = page.split('<form method="get"')[1].split("</form>")[0]
        assert picker in form and f'action="{reverse(name)}"' in form, name
        assert '<option value="2026-2027" selected>2026-2027</option>' in form, name
        assert '<option value="2025-2026">2025-2026 (afgesloten)</option>' in form, name
    last = "?seizoen=2025-2026"
    standings = client.get(reverse("competition:standings") + last).content.decode()
    assert "Ranglijst 2025-2026" in standings and "Ranglijst 9, na ronde 9." in standings
    assert '<option value="2025-2026" selected>' in standings
    # The earlier rankings of that season keep the season.
    assert f'href="{reverse("competition:standings-round", args=[4])}{last}"' in standings
    ranking_4 = client.get(reverse("competition:standings-round", args=[4]) + last)
    assert "Ranglijst 4, na ronde 4." in ranking_4.content.decode()
    pairing = client.get(reverse("competition:pairing") + last).content.decode()
    for number in range(1, 10):
        assert f"Ronde {number}, " in pairing
    assert "verschijnt op" not in pairing
    prizes_page = client.get(reverse("competition:prizes") + last).content.decode()
    assert "Prijzen 2025-2026" in prizes_page and "Voorlopig" not in prizes_page
    champion = prizes_page.split('id="club-champion">')[1].split("</dd>")[0]
    assert champion != "—" and "plaats" in champion
    # The rapid pages offer only the seasons with a rapid competition (here: one, no picker).
    rapid = client.get(reverse("competition:rapid-standings")).content.decode()
    assert picker not in rapid


def test_position_name_and_total_come_first_in_every_row(client, example_competition):
    page = client.get(reverse("competition:standings")).content.decode()
    zeeuw = example_competition.participant["de-zeeuw"]
    row = re.search(
        r'<td class="text-end pos">1</td>\s*<th scope="row" class="name">'
        r'<a class="name-text" href="(/spelers/\d+/)">de Zeeuw</a></th>\s*'
        r'<td class="text-end fw-bold total">164½</td>',
        page,
    )
    assert row and row[1] == reverse("competition:player", args=[zeeuw])
    head = page.split("<thead>")[1].split("</thead>")[0]
    assert re.search(
        r'class="text-end pos">#</th><th scope="col" class="name">.*?'
        r'<th scope="col" class="text-end total">Totaal</th>',
        head,
    )


def test_the_navigation_marks_the_current_page(client, example_competition):
    cases = {
        reverse("competition:standings"): "Ranglijst",
        reverse("competition:standings-round", args=[1]): "Ranglijst",
        reverse("competition:pairing"): "Indeling",
        reverse("competition:prizes"): "Prijzen",
        reverse("login"): "Inloggen",
    }
    for url, label in cases.items():
        page = client.get(url).content.decode()
        assert page.count('aria-current="page"') == 1, url
        current = re.search(
            r'<a class="nav-link active" aria-current="page" href="([^"]+)">'
            r"([^<]+)</a>",
            page,
        )
        assert current and current[2] == label, url
    page = client.get(reverse("competition:home")).content.decode()
    assert 'aria-current="page"' not in page
    # One menu link leads to the rapid competition, and each of its two pages to the other.
    assert f'href="{reverse("competition:rapid-standings")}">Rapid</a>' in page
    assert 'href="/rapid/indeling/"' not in page


def test_a_visitor_is_offered_afmelden_through_the_login(client, db):
    page = client.get(reverse("competition:home")).content.decode()
    assert '<a class="nav-link" href="/accounts/login/?next=/afmelden/">Afmelden</a>' in page
    login = client.get("/accounts/login/?next=/afmelden/").content.decode()
    assert 'name="next" value="/afmelden/"' in login


def test_a_wrong_password_is_refused_in_dutch(client, jansen):
    response = client.post(
        reverse("login"), {"username": "jansen", "password": "wrong"}, follow=False
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Voer een juiste gebruikersnaam en wachtwoord in." in page
    empty = client.post(reverse("login"), {"username": "jansen"}).content.decode()
    assert "Dit veld is verplicht." in empty


def test_a_missing_page_is_dutch_and_in_the_sites_layout(client, db):
    response = client.get("/bestaat-niet/")
    page = response.content.decode()
    assert response.status_code == 404
    assert "<title>Pagina niet gevonden · DSC Drachten</title>" in page
    assert '<a class="navbar-brand" href="/">DSC Drachten</a>' in page
    assert "/static/css/site.css" in page and "Naar de startpagina" in page
    assert "Not Found" not in page


def test_the_error_page_is_dutch_and_needs_neither_request_nor_database(rf):
    """Without the `db` fixture any query would raise: the page needs no database, and then
    names no club."""
    response = server_error(rf.get("/"))
    page = response.content.decode()
    assert response.status_code == 500
    assert "<title>Er ging iets mis</title>" in page
    assert '<a class="navbar-brand" href="/">Naar de startpagina</a>' in page
    assert "/static/css/site.css" in page and "wedstrijdleider" in page


def test_the_error_page_names_the_club_it_can_read(rf, db):
    page = server_error(rf.get("/")).content.decode()
    assert "<title>Er ging iets mis · DSC Drachten</title>" in page
    club = current_club()
    club.name = "Schaakclub De Toren"
    club.save()
    page = server_error(rf.get("/")).content.decode()
    assert "<title>Er ging iets mis · Schaakclub De Toren</title>" in page
    assert '<a class="navbar-brand" href="/">Schaakclub De Toren</a>' in page


def test_each_board_shows_both_names_escaped_their_pages_and_the_result_in_dutch(
    client, example_competition
):
    round_3 = example_competition.rounds.get(number=3)
    first, second = round_3.games.order_by("board")[:2]
    Member.objects.filter(pk=first.white.member_id).update(name='<b>Bé</b> & "Zn"')
    services.enter_results(round_3, {first.pk: "1-0F", second.pk: ""}, reason="typefout")
    page = client.get(reverse("competition:pairing")).content.decode()
    table = page.split("Indeling van ronde 3")[1].split("</table>")[0]
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]  # after the header
    assert len(rows) == round_3.games.count()
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for row in rows]
    white = f'<a href="/spelers/{first.white_id}/">&lt;b&gt;Bé&lt;/b&gt; &amp; &quot;Zn&quot;</a>'
    assert cells[0][:3] == ["1", white, "1-0 (reglementair)"]
    assert cells[0][3] == f'<a href="/spelers/{first.black_id}/">{first.black.name}</a>'
    assert cells[1][0] == "2" and cells[1][2] == "–"  # no result yet
    assert "<b>Bé" not in page
