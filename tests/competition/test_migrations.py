"""Migrations that change stored data, run forward on rows made with the historical models."""

from datetime import date, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.moments import AMSTERDAM

BEFORE = [("competition", "0007_standing_attendance"), ("members", "0002_ratings_and_teams")]
AFTER = [("competition", "0008_snapshot_appearances_and_inputs")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_stored_snapshots_learn_how_each_player_took_part():
    apps = migrate(BEFORE)
    try:
        season = apps.get_model("competition", "Season").objects.create(
            name="2026-2027", start_date=date(2026, 9, 3)
        )
        competition = apps.get_model("competition", "Competition").objects.create(season=season)
        members = apps.get_model("members", "Member")
        players = {
            name: apps.get_model("competition", "Participant").objects.create(
                competition=competition,
                member=members.objects.create(name=name),
                initial_position=position,
            )
            for position, name in enumerate(["Anne", "Bert", "Cor", "Dirk", "Eef"], start=1)
        }
        round_1 = apps.get_model("competition", "Round").objects.create(
            competition=competition,
            number=1,
            date=date(2026, 9, 3),
            publish_at=datetime(2026, 8, 28, 20, tzinfo=AMSTERDAM),
            published_at=datetime(2026, 8, 28, 20, tzinfo=AMSTERDAM),
            bye=players["Eef"],
        )
        apps.get_model("competition", "Game").objects.create(
            round=round_1, board=1, white=players["Anne"], black=players["Bert"], result="0-1"
        )
        apps.get_model("competition", "Absence").objects.create(
            round=round_1, participant=players["Cor"], reason="excused"
        )
        team = apps.get_model("members", "Team").objects.create(
            season="2026-2027", name="DSC 1", league="KNSB"
        )
        match = apps.get_model("members", "TeamMatch").objects.create(
            team=team, date=date(2026, 9, 4), opponent="Sneek"
        )
        apps.get_model("members", "ExternalGame").objects.create(
            match=match, board=1, member=players["Dirk"].member, colour="white", opponent_name="X"
        )
        rankings = apps.get_model("competition", "Ranking")
        rankings.objects.create(competition=competition, after_round=0)
        rankings.objects.create(competition=competition, after_round=1)

        apps = migrate(AFTER)

        stored = {
            r.after_round: r.appearances
            for r in apps.get_model("competition", "Ranking").objects.all()
        }
        pk = {name: p.pk for name, p in players.items()}
        assert stored == {
            0: {},
            1: {
                str(pk["Anne"]): ["loss", pk["Bert"], None],
                str(pk["Bert"]): ["win", pk["Anne"], None],
                str(pk["Cor"]): ["excused", None, None],
                str(pk["Dirk"]): ["team", None, match.pk],
                str(pk["Eef"]): ["bye", None, None],
            },
        }
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_internal_competition_gets_rule_is_rate_of_play_and_the_rapid_one_none():
    apps = migrate([("competition", "0010_round_ranking_mailed_at")])
    try:
        season = apps.get_model("competition", "Season").objects.create(
            name="2026-2027", start_date=date(2026, 9, 3)
        )
        competitions = apps.get_model("competition", "Competition").objects
        competitions.create(season=season, kind="classical")
        competitions.create(season=season, kind="rapid")

        apps = migrate([("competition", "0011_competition_rate_of_play_and_chief_arbiter")])

        rates = dict(
            apps.get_model("competition", "Competition").objects.values_list("kind", "rate_of_play")
        )
        # DSC rule i: 1:30 for the first 30 moves, then 15 minutes to finish.
        assert rates == {"classical": "90 min/30 zetten + 15 min", "rapid": ""}
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
