"""Plain, deterministic factories for the site's tests."""

from __future__ import annotations

import json
import re
from datetime import date
from functools import cache
from pathlib import Path

from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone

from arbiter import roles
from benchmarks.keizer import generated_season
from competition import services
from competition.keizer import season_file
from competition.keizer.season import Absence as Reason
from competition.keizer.season import Season as EngineSeason
from competition.models import Competition, Participant, Season
from members.models import ExternalGame, Team, TeamMatch

WORKED_EXAMPLE = Path(__file__).parent / "competition" / "keizer" / "data" / "worked_example.json"
FIRST_EVENING = date(2026, 9, 3)  # a Thursday


def make_season(start_date: date = FIRST_EVENING, name: str | None = None) -> Season:
    name = name or f"{start_date.year}-{start_date.year + 1}"
    return Season.objects.create(name=name, start_date=start_date)


def make_competition(season: Season | None = None, **settings) -> Competition:
    """A competition as the site makes one (a new season, an import): with the rate of play
    its kind starts with."""
    kind = settings.get("kind", Competition.Kind.CLASSICAL)
    return Competition.objects.create(
        season=season or make_season(), **{**Competition.report_defaults(kind), **settings}
    )


def worked_example_season(rounds: int = 3) -> EngineSeason:
    document = json.loads(WORKED_EXAMPLE.read_text(encoding="utf-8"))
    document["rounds"] = document["rounds"][:rounds]
    return season_file.from_document(document)


def make_played_competition(
    engine_season: EngineSeason, first_evening: date = FIRST_EVENING, **settings
) -> tuple[Competition, dict[str, int]]:
    """A competition holding the engine season's rounds, with its rankings computed."""
    competition = make_competition(make_season(start_date=first_evening), **settings)
    participant = services.load_season(competition, engine_season, first_evening, timezone.now())
    return competition, participant


def make_round_1_with_two_cancelled() -> tuple[Competition, dict[str, int]]:
    """The worked example's round 1 without its board 5: de Wit and de Bruin cancelled in
    time (a third of their values 42 and 41)."""
    season = worked_example_season(1)
    first = season.rounds[0]
    cancelled = first._replace(
        games=first.games[:4],
        absent={"de-wit": Reason.EXCUSED, "de-bruin": Reason.EXCUSED},
    )
    return make_played_competition(season._replace(rounds=(cancelled,)))


def make_line_up(participant: Participant, day: date, board: int = 1) -> ExternalGame:
    """The participant on a board of a DSC 1 match on `day` (a team match, DSC rule f)."""
    team, _ = Team.objects.get_or_create(
        season=participant.competition.season.name, name="DSC 1", defaults={"league": "KNSB"}
    )
    match, _ = TeamMatch.objects.get_or_create(
        team=team, date=day, defaults={"opponent": "Heerenveen"}
    )
    return ExternalGame.objects.create(
        match=match,
        board=board,
        member=participant.member,
        colour="white",
        opponent_name="X",
        score="1",
    )


@cache
def big_engine_season(players: int = 150, rounds: int = 28) -> EngineSeason:
    return generated_season(players, rounds, rounds_per_period=7, seed=1)


def make_arbiter(username: str = "arbiter") -> User:
    """A staff account in the arbiter's group, as the demo's (`arbiter.roles`)."""
    user = User.objects.create_user(username, password="arbiter-password", is_staff=True)
    user.groups.add(roles.arbiter_group())
    return user


def management_form(prefix: str, total: int = 0, initial: int = 0) -> dict:
    """The management form of an inline formset in a POST (`games-TOTAL_FORMS`, …)."""
    return {
        f"{prefix}-TOTAL_FORMS": total,
        f"{prefix}-INITIAL_FORMS": initial,
        f"{prefix}-MIN_NUM_FORMS": 0,
        f"{prefix}-MAX_NUM_FORMS": 1000,
    }


def import_season_file(path, season: str = "2027-2028", first_evening: str = "2027-09-02", **out):
    """`manage.py import_season PATH --season … --first-evening …`."""
    call_command(
        "import_season", str(path), "--season", season, "--first-evening", first_evening, **out
    )


def round_page_data(round_, games=(), absences=(), **changes) -> dict:
    """The POST of a round's page (`arbiter.rounds`): its fields, a draft's boards (a published
    round's page has no boards' rows) and the absence rows."""
    data = {
        "competition": round_.competition_id,
        "number": round_.number,
        "date": round_.date.isoformat(),
        "publish_at_0": round_.publish_at.date().isoformat(),
        "publish_at_1": "20:00",
        "bye": round_.bye_id or "",
        **management_form("absences", len(absences)),
    }
    if games or not round_.is_published:
        data |= management_form("games", len(games), len(games))
    for i, game in enumerate(games):
        data |= {
            f"games-{i}-id": game.pk,
            f"games-{i}-round": round_.pk,
            f"games-{i}-board": game.board,
            f"games-{i}-white": game.white_id,
            f"games-{i}-black": game.black_id,
        }
    for i, (participant, reason) in enumerate(absences):
        data |= {
            f"absences-{i}-round": round_.pk,
            f"absences-{i}-participant": participant,
            f"absences-{i}-reason": reason,
        }
    return data | changes


def cancel_late(client, round_):
    """A member cancels on the Friday evening (21:00), after the pairing was published: a
    forfeit for them, a win by default for the opponent."""
    import time_machine
    from django.urls import reverse

    from tests.moments import at

    with time_machine.travel(at(21), tick=False):
        return cancel_online(
            client,
            reverse("absences:mine"),
            {"rounds": [round_.pk], "action": "cancel", "reason": "regular"},
        )


def cancel_online(client, url: str, data: dict, follow: bool = True):
    """What a person does on "Mijn afmeldingen": look at the preview, then press Bevestigen
    (which carries the preview's token back)."""
    preview = client.post(url, data).content.decode()
    token = re.search(r'name="preview" value="([^"]+)"', preview)
    assert token, "no preview was shown"
    return client.post(url, {**data, "preview": token[1], "confirm": "1"}, follow=follow)
