"""The FIDE TRF export: it parses back, and the worked example's games are in it."""

from dataclasses import replace
from io import StringIO

import trf
from django.core.management import call_command
from django.urls import reverse

from competition.keizer.season import Absence as Reason
from competition.keizer.season import Result
from competition.trf_export import trf_text
from tests.factories import make_played_competition, worked_example_season


def test_the_worked_example_as_trf(example_competition):
    tournament = trf.loads(trf_text(example_competition))
    assert tournament.name == "DSC interne competitie 2026-2027"
    assert tournament.numplayers == 10 and len(tournament.players) == 10
    assert tournament.rounddates == ["26/09/03", "26/09/10", "26/09/17"]
    jansen = next(p for p in tournament.players if p.name == "Jansen")
    # Round 1: white against Pietersen (start rank 2), won; round 2: black, lost to de Zeeuw
    # (start rank 6); round 3: white, beat Slager (start rank 4).
    assert [(g.startrank, g.color, g.result) for g in jansen.games] == [
        (2, "w", "1"),
        (6, "b", "0"),
        (4, "w", "1"),
    ]
    assert jansen.points == 2.0 and jansen.rank == 3
    bakker = next(p for p in tournament.players if p.name == "Bakker")
    assert bakker.points == 0.5  # a draw and two losses


def test_forfeits_byes_and_absences_have_their_codes(db):
    season = worked_example_season(1)
    first = season.rounds[0]
    forfeit = replace(first.games[0], result=Result.WHITE_WINS_BY_FORFEIT)
    rounds = (
        replace(
            first,
            games=(forfeit, *first.games[1:4]),
            bye="de-bruin",
            absent={"de-wit": Reason.EXCUSED},
        ),
    )
    competition, _ = make_played_competition(replace(season, rounds=rounds))
    players = {p.name: p for p in trf.loads(trf_text(competition)).players}
    assert [(g.color, g.result) for g in players["Jansen"].games] == [("-", "+")]
    assert [(g.color, g.result) for g in players["Pietersen"].games] == [("-", "-")]
    assert [(g.startrank, g.result) for g in players["de Bruin"].games] == [(0, "U")]
    assert [(g.startrank, g.result) for g in players["de Wit"].games] == [(0, "Z")]
    assert players["Jansen"].points == 1.0


def test_the_command_and_the_admin_download(arbiter_client, example_competition):
    out = StringIO()
    call_command("export_trf", "--season", "2026-2027", stdout=out)
    assert out.getvalue() == trf_text(example_competition)
    response = arbiter_client.get(
        reverse("admin:competition_competition_trf", args=[example_competition.pk])
    )
    assert response["Content-Disposition"] == 'attachment; filename="dsc-2026-2027-classical.trf"'
    assert response.content.decode() == out.getvalue()
