"""The competition's models in the admin (competition/admin.py): a competition added and
changed, nothing published deleted, and a line-up stored there reaching the standings."""

from datetime import date
from io import StringIO

from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse

from competition.models import Competition, Game, Round, Season
from members.models import Team
from tests.factories import (
    make_round_1_with_two_cancelled,
    management_form,
)


def test_the_arbiter_can_add_and_change_a_competition(arbiter_client, example_competition):
    season = Season.objects.create(name="2030-2031", start_date=date(2030, 9, 5))
    data = {
        "season": season.pk,
        "kind": "classical",
        "top_value": 60,
        "step": 1,
        "rounds_per_period": 7,
        "full_revaluation_from_round": 10,
        "bye_fraction": "1",
        "excused_fraction": "1/3",
        "team_fraction": "2/3",
        "auto_absence_fraction": "1/3",
        **management_form("participants"),
    }
    response = arbiter_client.post(reverse("admin:competition_competition_add"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Competition.objects.get(season=season).top_value == 60
    refused = arbiter_client.post(
        reverse("admin:competition_competition_add"),
        data | {"kind": "rapid", "excused_fraction": "-1/3"},
    )
    assert "Mag niet negatief zijn." in refused.content.decode()


def test_published_rounds_and_games_cannot_be_deleted(arbiter_client, example_competition):
    round_3 = Round.objects.get(number=3)
    game = round_3.games.first()
    assert (
        arbiter_client.post(
            reverse("admin:competition_round_delete", args=[round_3.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    assert (
        arbiter_client.post(
            reverse("admin:competition_game_delete", args=[game.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    assert arbiter_client.get(reverse("admin:competition_absence_add")).status_code == 403
    assert Game.objects.filter(pk=game.pk).exists()


@override_settings(DEBUG=True)  # as `make run`: the demo refuses a site in production
def test_a_season_with_games_can_be_deleted_and_the_demo_reset(demo):
    call_command("load_demo", "--reset")
    assert Season.objects.count() == 2  # this season and last season, loaded anew


def test_a_line_up_entered_after_the_round_waits_for_the_arbiters_reason(arbiter_client, db):
    """Recompute has one trigger outside the services: the worker's refresh step, which
    catches a line-up, a player or a setting changed anywhere (the admin included). A change
    that would correct a final ranking is held (issue 35): the start page says so, its page
    shows what it moves, and the arbiter's reason stores it."""
    competition, pk = make_round_1_with_two_cancelled()
    de_wit = competition.participants.get(pk=pk["de-wit"])
    team = Team.objects.create(season=competition.season.name, name="DSC 2", league="FSB")
    data = {
        "team": team.pk,
        "date": "2026-09-04",
        "opponent": "Sneek",
        "at_home": "on",
        "kind": "league",
        **management_form("games", 1),
        "games-0-board": 1,
        "games-0-member": de_wit.member_id,
        "games-0-colour": "black",
        "games-0-opponent_name": "Y",
        "games-0-opponent_rating": "",
        "games-0-own_rating": "",
        "games-0-score": "1/2",
        "games-0-published_w_we": "",
    }
    response = arbiter_client.post(reverse("admin:members_teammatch_add"), data)
    assert response.status_code == 302, response.content.decode()[:3000]

    def total():
        return competition.rankings.get(after_round=1).standings.get(participant=de_wit).total

    assert total() == 42 + 14  # the admin only stores the line-up
    call_command("run_worker", stdout=StringIO())  # the worker's pass
    assert total() == 42 + 14  # ranking 1 is final: held
    start_page = arbiter_client.get(reverse("admin:index")).content.decode()
    assert "gepubliceerde ranglijsten corrigeren" in start_page
    held = reverse("arbiter:held-change", args=[competition.pk])
    assert held in start_page
    preview = arbiter_client.get(held).content.decode()
    assert "Ranglijst 1" in preview and de_wit.name in preview
    assert "<td>56</td><td>70</td>" in preview.replace("\n", "").replace(" ", "")
    shown = Competition.objects.get(pk=competition.pk).held_inputs  # the page's hidden field
    assert f'name="held" value="{shown}"' in preview
    refused = arbiter_client.post(held, {"reason": "", "held": shown})
    assert refused.status_code == 200 and total() == 42 + 14
    stale = arbiter_client.post(held, {"reason": "Opstelling", "held": "iets-anders"})
    assert stale.status_code == 302 and total() == 42 + 14  # not what was shown: nothing stored
    reason = {"reason": "Opstelling DSC 2 van 4 september", "held": shown}
    confirmed = arbiter_client.post(held, reason)
    assert confirmed.status_code == 302
    assert total() == 42 + 28  # own value plus 2/3 instead of 1/3
    ranking = competition.rankings.get(after_round=1)
    assert ranking.correction == "Opstelling DSC 2 van 4 september"
    assert (
        "gepubliceerde ranglijsten corrigeren"
        not in arbiter_client.get(reverse("admin:index")).content.decode()
    )


def test_once_a_round_is_paired_the_settings_and_ranking_0_are_fixed(
    arbiter_client, example_competition
):
    """Finding 2 of issue 24: the competition page no longer rewrites the published rankings."""
    from django.urls import reverse

    from tests.factories import make_competition, make_season

    url = reverse("admin:competition_competition_change", args=[example_competition.pk])
    page = arbiter_client.get(url).content.decode()
    assert "de instellingen en ranglijst 0 liggen vast" in page
    assert 'name="excused_fraction"' not in page
    assert 'name="participants-0-initial_position"' not in page
    before = list(
        example_competition.rankings.get(after_round=3).standings.values_list("total", flat=True)
    )
    arbiter_client.post(url, {"excused_fraction": "1/2", "participants-TOTAL_FORMS": "0"})
    example_competition.refresh_from_db()
    assert str(example_competition.excused_fraction) == "1/3"
    assert before == list(
        example_competition.rankings.get(after_round=3).standings.values_list("total", flat=True)
    )
    fresh = make_competition(make_season(date(2027, 9, 2)))  # nothing paired: all can be set
    page = arbiter_client.get(
        reverse("admin:competition_competition_change", args=[fresh.pk])
    ).content.decode()
    assert 'name="excused_fraction"' in page and "liggen vast" not in page
