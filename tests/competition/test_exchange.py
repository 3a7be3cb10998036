"""The translation between rows and the engine (`exchange.py`): what the engine reads back,
and the team absences it derives: a member in a team match's line-up on the club evening or
the day after is absent with the team reason (2/3 of own value), unless seated in the round
anyway (DSC rule f)."""

import hashlib
import json
from datetime import timedelta

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from competition import exchange, services
from competition.keizer import RULES_VERSION, season_file
from competition.keizer.ranking import compute_rankings
from competition.keizer.season import Absence as EngineAbsence
from competition.keizer.season import Game as EngineGame
from competition.keizer.season import Result
from competition.keizer.season import Round as EngineRound
from competition.models import Absence, Competition, Round
from tests.factories import make_line_up, worked_example_season
from tests.hypothesis_profiles import examples
from tests.moments import EVENING_4


def test_the_adapter_reads_back_what_was_stored(example_competition):
    original = worked_example_season()
    season = exchange.season_for(example_competition)
    pk = example_competition.participant
    assert [p.id for p in season.players] == [str(pk[p.id]) for p in original.players]
    assert [[(g.white, g.black, g.result) for g in r.games] for r in season.rounds] == [
        [(str(pk[g.white]), str(pk[g.black]), g.result) for g in r.games] for r in original.rounds
    ]


def test_the_digest_changes_with_what_the_engine_reads_and_nothing_else(example_competition):
    before = exchange.read_inputs(example_competition).digest
    round_3 = example_competition.rounds.get(number=3)
    round_3.date += timedelta(days=1)  # the evening moves: not something the engine reads
    round_3.save()
    assert exchange.read_inputs(example_competition).digest == before
    game = round_3.games.get(board=1)
    game.result = "0-1" if game.result != "0-1" else "1-0"
    game.save()
    assert exchange.read_inputs(example_competition).digest != before


def absent_from(round_):
    return {
        p for (r, p) in exchange.team_match_absences(round_.competition, [round_]) if r == round_.pk
    }


@pytest.mark.parametrize(("days_after", "absent"), [(0, True), (1, True), (2, False), (-1, False)])
def test_the_club_evening_or_the_day_after_counts(round_4, days_after, absent):
    jansen = round_4.competition.participants.get(member__name="Jansen")
    make_line_up(jansen, EVENING_4 + timedelta(days=days_after))
    assert (jansen.pk in absent_from(round_4)) is absent


def test_a_team_player_is_not_paired_and_scores_two_thirds(round_4, client):
    competition = round_4.competition
    jansen = competition.participants.get(member__name="Jansen")
    make_line_up(jansen, EVENING_4 + timedelta(days=1))
    services.make_pairing(round_4)
    seated = {p for g in round_4.games.all() for p in (g.white_id, g.black_id)} | {
        Round.objects.get(pk=round_4.pk).bye_id
    }
    assert jansen.pk not in seated and len(seated) == 9
    services.publish(round_4, round_4.publish_at)
    services.enter_results(round_4, {g.pk: "1/2-1/2" for g in round_4.games.all()})
    standing = competition.rankings.get(after_round=4).standings.get(participant=jansen)
    # Jansen was 3rd in ranking 3 (value 48): 2/3 of 48 is 32.
    assert standing.round_points[3] == 32 and standing.valuation_value == 48
    page = client.get(reverse("competition:player", args=[jansen.pk])).content.decode()
    assert (
        "teamwedstrijd: ⅔ van eigen waarde 48 = 32 punten (DSC 1 – Heerenveen (25-09-2026))" in page
    )


def test_a_player_seated_anyway_plays(round_4):
    services.make_pairing(round_4)
    seated = round_4.games.first().white
    make_line_up(seated, EVENING_4)
    assert seated.pk not in absent_from(round_4)
    assert exchange.season_for(round_4.competition, pair_round=round_4).pair.absent == {}


def test_the_team_reason_replaces_a_cancellation(round_4):
    jansen = round_4.competition.participants.get(member__name="Jansen")
    Absence.objects.create(round=round_4, participant=jansen, reason="excused")
    make_line_up(jansen, EVENING_4)
    absent = exchange.season_for(round_4.competition, pair_round=round_4).pair.absent
    assert absent[str(jansen.pk)].value == "team"


def test_the_rapid_competition_has_no_team_absences(round_4):
    competition = round_4.competition
    Competition.objects.filter(pk=competition.pk).update(kind="rapid")
    competition.refresh_from_db()
    jansen = competition.participants.get(member__name="Jansen")
    make_line_up(jansen, EVENING_4)
    assert exchange.team_match_absences(competition, [round_4]) == {}


def test_the_digest_changes_with_the_engines_rules_version(example_competition, monkeypatch):
    from competition.keizer import RULES_VERSION

    before = exchange.read_inputs(example_competition).digest
    monkeypatch.setattr(exchange, "RULES_VERSION", RULES_VERSION + 1)
    assert exchange.read_inputs(example_competition).digest != before


def test_the_names_as_values_are_the_participants_names(example_competition):
    competition = example_competition
    guest = competition.participants.create(guest_name="Gast Oosterhuis", initial_position=99)
    names = competition.participants.names()
    every = list(competition.participants.select_related("member"))
    assert names == {p.pk: p.name for p in every} and names[guest.pk] == "Gast Oosterhuis"
    assert list(names) == [p.pk for p in every]  # in the participants' order


def whole_document_digest(inputs: exchange.Inputs) -> str:
    """The digest's definition: the season file's document with the rules version and the team
    matches, written by json.dumps at once."""
    document = season_file.to_document(inputs.season)
    document["rules_version"] = RULES_VERSION
    document["team_matches"] = sorted(
        [number, player, match] for (number, player), match in inputs.team_matches.items()
    )
    text = json.dumps(document, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_the_digest_written_round_by_round_is_that_of_the_whole_document(example_competition):
    inputs = exchange.read_inputs(example_competition)
    assert inputs.digest == whole_document_digest(inputs)
    game = example_competition.rounds.get(number=3).games.get(board=1)
    other = "0-1" if game.result != "0-1" else "1-0"  # its result before: another
    changes = {(game.white_id, game.black_id): (other, game.result)}
    before = exchange.inputs_before(inputs, 3, changes)  # sharing the texts of rounds 1 and 2
    assert before.digest == whole_document_digest(before) != inputs.digest
    assert exchange.Inputs(inputs.season, inputs.team_matches).digest == inputs.digest
    # A name holding the mark the rounds' text takes the place of: still the same digest.
    member = example_competition.participants.get(member__name="Jansen").member
    member.name = "Jansen \u2063rounds of the season\u2063"
    member.save()
    named = exchange.read_inputs(example_competition)
    assert named.digest == whole_document_digest(named) != inputs.digest


def test_the_snapshots_write_each_round_of_points_as_its_fraction(example_competition):
    inputs = exchange.read_inputs(example_competition)
    rankings = compute_rankings(inputs.season)
    written = exchange.snapshots(rankings, inputs)
    assert len(written) == len(rankings) == 4
    halves = set()
    for snapshot, ranking in zip(written, rankings, strict=True):
        by_player = {int(standing.player_id): standing for standing in ranking.standings}
        for key, _position, _value, _valuation, total, points, _attended in snapshot.standings:
            assert total == by_player[key].total
            assert points == [str(amount) for amount in by_player[key].points]
            halves |= {text for text in points if "/" in text}
    assert halves  # the example's draws score half an opponent's value: "41/2", ...


# Player ids as the engine may hold them: the site's keys, and any text a season file may give
# (quotes, backslashes, control characters, letters beyond ASCII, the surrogates' neighbours).
player_ids = st.one_of(st.integers(1, 10**6).map(str), st.text(max_size=12))


@st.composite
def engine_rounds(draw) -> EngineRound:
    ids = draw(st.lists(player_ids, unique=True, max_size=14))
    seated = draw(st.integers(0, len(ids) // 2)) * 2
    games = tuple(
        EngineGame(ids[i], ids[i + 1], draw(st.sampled_from(list(Result))))
        for i in range(0, seated, 2)
    )
    rest = ids[seated:]
    bye = rest.pop() if rest and draw(st.booleans()) else None
    absent = {player: draw(st.sampled_from(list(EngineAbsence))) for player in rest}
    return EngineRound(games=games, absent=absent, bye=bye)


@settings(max_examples=examples(300), deadline=None)
@given(engine_rounds())
def test_a_rounds_text_is_what_json_writes_of_its_document(round_):
    expected = json.dumps(season_file.round_document(round_), sort_keys=True, ensure_ascii=False)
    assert exchange.round_text(round_) == expected


def test_a_round_with_ids_that_are_not_texts_is_written_by_json():
    round_ = EngineRound(games=(EngineGame(1, 2, Result.DRAW),), absent={3: EngineAbsence.TEAM})
    expected = json.dumps(season_file.round_document(round_), sort_keys=True, ensure_ascii=False)
    assert (
        exchange.round_text(round_)
        == expected
        == ('{"absent": {"3": "team"}, "games": [{"black": 2, "result": "1/2-1/2", "white": 1}]}')
    )
