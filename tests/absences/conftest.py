"""A played worked example with a round 4 on Thursday 24 September 2026.

Its deadline is Friday 18 September 18:00 and its pairing appears that Friday at 20:00.
"""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User

from competition.models import Round

AMSTERDAM = ZoneInfo("Europe/Amsterdam")
FRIDAY = date(2026, 9, 18)


def at(hour, minute=0, second=0, day=FRIDAY):
    return datetime(day.year, day.month, day.day, hour, minute, second, tzinfo=AMSTERDAM)


@pytest.fixture
def round_4(example_competition):
    return Round.objects.create(
        competition=example_competition, number=4, date=date(2026, 9, 24), publish_at=at(20)
    )


@pytest.fixture
def jansen(example_competition):
    member = example_competition.participants.get(member__name="Jansen").member
    member.email = "jansen@example.org"
    member.user = User.objects.create_user("jansen", password="jansen-password")
    member.save()
    for participant in example_competition.participants.select_related("member"):
        if not participant.member.email:
            participant.member.email = f"{participant.member.name.replace(' ', '')}@example.org"
            participant.member.save()
    return member


@pytest.fixture
def jansen_client(client, jansen):
    client.force_login(jansen.user)
    return client
