"""Fixtures named after the people and things of the club."""

import pytest

from tests.factories import make_arbiter, make_played_competition, worked_example_season


@pytest.fixture
def arbiter(db):
    return make_arbiter()


@pytest.fixture
def arbiter_client(client, arbiter):
    client.force_login(arbiter)
    return client


@pytest.fixture
def example_competition(db):
    """The seed's worked example (10 players, 3 rounds) stored as a played competition."""
    competition, participant = make_played_competition(worked_example_season())
    competition.participant = participant  # engine id -> primary key, for the tests
    return competition
