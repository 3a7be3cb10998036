"""A club's own absence reasons (issue 39, point 3): a competition whose Keizer settings name
a reason (here *ziek*, half the own value) records it, scores it, shows it in the club's word;
a competition that does not know it refuses it and changes nothing."""

from fractions import Fraction

import pytest
from django.urls import reverse

from competition import services
from competition.keizer import settings_file
from competition.keizer.season import Absence as Reason
from competition.models import Absence, Competition
from competition.season_export import season_file_document
from tests.factories import make_arbiter, make_played_competition, worked_example_season

ILL = settings_file.settings_from_document({"absence_fractions": {"ziek": "1/2"}})


def round_1_with_de_wit_ill(**settings):
    """The worked example's round 1 without its board 5: de Wit away ill (value 42), de Bruin
    cancelled in time (value 41)."""
    season = worked_example_season(1)
    first = season.rounds[0]
    changed = first._replace(
        games=first.games[:4], absent={"de-wit": "ziek", "de-bruin": Reason.EXCUSED}
    )
    return make_played_competition(season._replace(rounds=(changed,)), **settings)


@pytest.fixture
def ill(db):
    return round_1_with_de_wit_ill(**Competition.values_of(ILL))


def test_an_own_reason_is_stored_and_scores_its_share(ill):
    competition, pk = ill
    assert competition.absence_reasons()[-1] == ("ziek", "ziek")
    absence = Absence.objects.get(participant=pk["de-wit"])
    assert (absence.reason, absence.reason_label) == ("ziek", "ziek")
    ranking = competition.rankings.get(after_round=1)
    de_wit = ranking.standings.get(participant=pk["de-wit"])
    de_bruin = ranking.standings.get(participant=pk["de-bruin"])
    assert de_wit.round_points == [Fraction(42, 2)]  # half of 42, by hand
    assert de_bruin.round_points == [Fraction(41, 3)]  # DSC's third, as before
    assert ranking.appearance_of(pk["de-wit"])[3] == "ziek"
    assert ranking.appearance_of(pk["de-bruin"])[3] is None  # DSC's reasons: the outcome says it


def test_the_player_page_and_the_pairing_name_the_clubs_reason(client, ill):
    _competition, pk = ill
    page = client.get(reverse("competition:player", args=[pk["de-wit"]])).content.decode()
    assert "ziek: ½ van eigen waarde 42 = 21 punten" in page
    pairing = client.get(reverse("competition:pairing")).content.decode()
    assert "ziek" in pairing


def test_the_arbiter_chooses_the_clubs_reason_on_the_round_page(client, ill):
    competition, _pk = ill
    client.force_login(make_arbiter())
    round_1 = competition.rounds.get(number=1)
    page = client.get(reverse("arbiter:round", args=[round_1.pk])).content.decode()
    assert '<option value="ziek" selected>ziek</option>' in page
    assert '<option value="excused">op tijd afgemeld</option>' in page


def test_a_competition_that_does_not_know_the_reason_refuses_it(db):
    season = worked_example_season(1)
    first = season.rounds[0]
    dsc, keys = make_played_competition(
        season._replace(rounds=(first._replace(games=first.games[:4]),))
    )
    assert [word for word, _label in dsc.absence_reasons()] == [
        "excused",
        "team",
        "late",
        "unexcused",
        "auto",
    ]
    round_1 = dsc.rounds.get(number=1)
    de_wit = dsc.participants.get(pk=keys["de-wit"])
    with pytest.raises(services.CompetitionError) as refused:
        services.record_absence(round_1, de_wit, "ziek")
    assert refused.value.messages == ["Onbekende reden 'ziek'."]
    assert not round_1.absences.exists()


def test_the_season_file_export_carries_the_reason_and_its_share(ill):
    competition, _pk = ill
    document = season_file_document(competition)
    assert document["settings"]["absence_fractions"]["ziek"] == "1/2"
    assert document["rounds"][0]["absent"] == {"de-wit": "ziek", "de-bruin": "excused"}
    # And read back, it is the same season: the club's reason is known to its settings.
    again = settings_file.settings_from_document(document["settings"])
    assert again.absence_share("ziek") == Fraction(1, 2)
