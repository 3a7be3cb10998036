"""The arbiter chooses the competition's Keizer (issue 39, point 3): a preset or each setting,
with what it means on the club's own ranking 0 before saving, and fixed once a round is
paired."""

from fractions import Fraction

from django.urls import reverse

from competition.keizer_form import KeizerForm
from competition.models import Competition, Participant
from members.models import Member
from tests.factories import make_competition, make_played_competition, worked_example_season


def with_players(count: int) -> Competition:
    competition = make_competition()
    for position in range(1, count + 1):
        member = Member.objects.create(name=f"Speler {position}")
        Participant.objects.create(
            competition=competition, member=member, initial_position=position
        )
    return competition


def page(client, competition, data=None):
    url = reverse("arbiter:keizer", args=[competition.pk])
    return client.post(url, data) if data is not None else client.get(url)


def form_values(response) -> dict:
    form = response.context["form"]
    return {
        name: form[name].value() if form[name].value() is not None else ""
        for name in form.fields
        if form[name].value() is not False
    }


def test_the_page_shows_dscs_keizer_and_its_meaning_on_ranking_0(arbiter_client):
    competition = with_players(10)
    shown = page(arbiter_client, competition)
    assert shown.status_code == 200
    preview = shown.context["preview"]
    assert (preview.players, preview.first_value, preview.last_value) == (10, 50, 41)
    rows = {row.what: (row.first, row.last) for row in preview.rows}
    # A win: the first earns the last's 41, the last the first's 50. The bye: the whole own
    # value; cancelled in time: a third of it; a team match: two thirds.
    assert rows["gewonnen"] == (41, 50)
    assert rows["remise"] == (Fraction(41, 2), 25)
    assert rows["vrij (oneven)"] == (50, 41)
    assert rows["op tijd afgemeld"] == (Fraction(50, 3), Fraction(41, 3))
    assert "Wat het betekent voor ranglijst 0" in shown.content.decode()


def test_choosing_a_preset_shows_its_settings_and_what_they_mean_before_saving(arbiter_client):
    competition = with_players(10)
    shown = page(arbiter_client, competition, {"profile": "keizerforclubs", "preset": "1"})
    assert shown.context["form"]["top_value"].value() == "ratio:3"
    preview = shown.context["preview"]
    # ratio 3 with 10 players: 9 × 3/2 = 13.5 -> 14 (to even), the last 14 - 9 = 5.
    assert (preview.first_value, preview.last_value) == (14, 5)
    rows = {row.what: (row.first, row.last) for row in preview.rows}
    assert rows["vrij (oneven)"] == (7, Fraction(5, 2))  # half the own value
    assert Competition.objects.get(pk=competition.pk).variant == {}  # nothing saved yet

    saved = page(arbiter_client, competition, {**form_values(shown), "save": "1"})
    assert saved.status_code == 302
    stored = Competition.objects.get(pk=competition.pk)
    assert stored.variant["profile"] == "keizerforclubs"
    assert stored.engine_settings() == worked_out("keizerforclubs")


def worked_out(profile):
    from competition.keizer.settings_file import settings_from_document

    return settings_from_document({"profile": profile})


def test_a_clubs_own_reason_and_a_changed_share_are_kept(arbiter_client):
    competition = with_players(4)
    shown = page(arbiter_client, competition)
    data = {**form_values(shown), "own_reasons": "ziek = 1/2", "loss": "1/4", "save": "1"}
    assert page(arbiter_client, competition, data).status_code == 302
    settings = Competition.objects.get(pk=competition.pk).engine_settings()
    assert settings.absence_share("ziek") == Fraction(1, 2)
    assert settings.game_shares == (1, Fraction(1, 2), Fraction(1, 4))


def test_a_bad_value_is_named_and_nothing_is_saved(arbiter_client):
    competition = with_players(4)
    shown = page(arbiter_client, competition)
    data = {**form_values(shown), "top_value": "2N", "save": "1"}
    refused = page(arbiter_client, competition, data)
    assert refused.status_code == 200
    assert "top_value" in refused.context["form"].errors
    assert Competition.objects.get(pk=competition.pk).variant == {}


def test_once_a_round_is_paired_the_settings_are_fixed(arbiter_client):
    competition, _participants = make_played_competition(worked_example_season())
    shown = page(arbiter_client, competition)
    assert 'name="save"' not in shown.content.decode()
    data = {**form_values(shown), "top_value": "N", "save": "1"}
    refused = page(arbiter_client, competition, data)
    assert refused.status_code == 200
    assert Competition.objects.get(pk=competition.pk).engine_settings().top_value == 50


def test_every_setting_is_in_one_group_of_the_page():
    grouped = ["profile"] + [name for _legend, names in KeizerForm.GROUPS for name in names]
    assert sorted(grouped) == sorted(KeizerForm.base_fields)  # each once, none forgotten
