"""The only translation between database rows and the engine's season.

`season_for` reads a competition into a `keizer.Season` (players in the order of ranking 0,
one engine round per completed round); `store_rankings` writes the engine's rankings back as
snapshots. Player ids in the engine are participant primary keys as text.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from datetime import date, timedelta

from django.utils import timezone
from django.utils.text import slugify

from competition import schedule
from competition.keizer import season_file
from competition.keizer.attendance import attendance_after_each_round
from competition.keizer.ranking import Ranking as EngineRanking
from competition.keizer.season import Absence as EngineAbsence
from competition.keizer.season import Game as EngineGame
from competition.keizer.season import PairRequest, Player, Result, Season
from competition.keizer.season import Round as EngineRound
from competition.keizer.values import value_at
from competition.models import (
    Absence,
    Competition,
    Game,
    Participant,
    Ranking,
    Round,
    Standing,
)
from members.models import ExternalGame, Member


def season_for(competition: Competition, pair_round: Round | None = None) -> Season:
    """The competition as the engine reads it: every round whose results are complete.

    Rounds count from round 1 up to the first round that is unpublished or still misses a
    result. With `pair_round`, its absences become the request to pair that round.
    """
    participants = competition.participants.select_related("member").order_by("initial_position")
    players = tuple(
        Player(p.engine_id, p.name, p.joined_round, p.start_points) for p in participants
    )
    rounds = list(competition.rounds.order_by("number"))
    games = defaultdict(list)
    for game in Game.objects.filter(round__competition=competition).order_by("board"):
        games[game.round_id].append(game)
    absences = defaultdict(dict)
    for absence in Absence.objects.filter(round__competition=competition):
        absences[absence.round_id][str(absence.participant_id)] = EngineAbsence(absence.reason)
    for (round_id, participant_id), _match in team_match_absences(
        competition, rounds, games
    ).items():
        absences[round_id][str(participant_id)] = EngineAbsence.TEAM

    played = []
    for round_ in rounds:
        round_games = games[round_.id]
        if not is_complete(round_, round_games) or round_.number != len(played) + 1:
            break
        played.append(
            EngineRound(
                games=tuple(
                    EngineGame(str(g.white_id), str(g.black_id), Result(g.result))
                    for g in round_games
                ),
                absent=absences[round_.id],
                bye=str(round_.bye_id) if round_.bye_id else None,
            )
        )
    request = PairRequest(absences[pair_round.id]) if pair_round is not None else None
    return Season(competition.engine_settings(), players, tuple(played), request)


def team_match_absences(
    competition: Competition, rounds: list[Round], games: dict[int, list[Game]] | None = None
) -> dict[tuple[int, int], str]:
    """{(round id, participant id): the team match} for members in a team match's line-up on a
    club evening or the day after (DSC rule f): absent with the team reason, unless they are
    seated in the round anyway. Only the internal (classical) competition; the team reason
    takes precedence over a cancellation recorded for the same evening."""
    if competition.kind != Competition.Kind.CLASSICAL or not rounds:
        return {}
    participant_of = dict(
        competition.participants.filter(member__isnull=False).values_list("member_id", "pk")
    )
    first, last = min(r.date for r in rounds), max(r.date for r in rounds) + timedelta(days=1)
    lineups = defaultdict(list)
    for external in ExternalGame.objects.filter(
        match__date__range=(first, last), member_id__in=participant_of
    ).select_related("match__team"):
        lineups[external.match.date].append(external)
    if games is None:
        games = defaultdict(list)
        for game in Game.objects.filter(round__in=rounds):
            games[game.round_id].append(game)
    absent = {}
    for round_ in rounds:
        seated = {p for g in games[round_.id] for p in (g.white_id, g.black_id)} | {round_.bye_id}
        for day in (round_.date, round_.date + timedelta(days=1)):
            for external in lineups[day]:
                participant = participant_of[external.member_id]
                if participant not in seated:
                    absent[(round_.id, participant)] = str(external.match)
    return absent


def is_complete(round_: Round, games: list[Game]) -> bool:
    """A round counts once its pairing is published and every game has a result."""
    return round_.is_published and all(game.result for game in games)


def store_rankings(competition: Competition, rankings: list[EngineRanking], season: Season) -> None:
    """Replace the competition's ranking snapshots by the engine's rankings of `season`."""
    attended = attendance_after_each_round(season)
    Ranking.objects.filter(competition=competition).delete()
    rows = Ranking.objects.bulk_create(
        Ranking(
            competition=competition,
            after_round=ranking.round,
            passes=ranking.passes,
            oscillation_stop=ranking.oscillation_stop,
        )
        for ranking in rankings
    )
    settings = competition.engine_settings()
    standings = []
    for row, ranking in zip(rows, rankings, strict=True):
        valuation_value = {
            player_id: value_at(position, settings)
            for position, player_id in enumerate(ranking.valuation, start=1)
        }
        standings.extend(
            Standing(
                ranking=row,
                participant_id=int(standing.player_id),
                position=standing.rank,
                value=standing.value,
                valuation_value=valuation_value[standing.player_id],
                total=standing.total,
                points=[str(p) for p in standing.points],
                attended=attended[ranking.round].get(standing.player_id, 0),
            )
            for standing in ranking.standings
        )
    Standing.objects.bulk_create(standings, batch_size=1000)


def season_file_document(competition: Competition) -> dict:
    """The competition as a season file (`season-format.md`), with readable player ids.

    Ids are derived from names ("de-zeeuw", "de-zeeuw-2"), so exporting, importing and
    exporting again gives the same file.
    """
    season = season_for(competition)
    taken: set[str] = set()
    ids = {}
    for player in season.players:
        base = slugify(player.name) or "speler"
        candidate, number = base, 1
        while candidate in taken:
            number += 1
            candidate = f"{base}-{number}"
        taken.add(candidate)
        ids[player.id] = candidate
    order = {player.id: index for index, player in enumerate(season.players)}
    renamed = replace(
        season,
        players=tuple(replace(p, id=ids[p.id]) for p in season.players),
        rounds=tuple(
            replace(
                r,
                games=tuple(replace(g, white=ids[g.white], black=ids[g.black]) for g in r.games),
                absent={
                    ids[p]: reason
                    for p, reason in sorted(r.absent.items(), key=lambda item: order[item[0]])
                },
                bye=ids[r.bye] if r.bye else None,
            )
            for r in season.rounds
        ),
        pair=None,
    )
    return season_file.to_document(renamed)


def import_season_file(season_row, kind: str, text: str, first_evening: date) -> Competition:
    """A new competition from a season file (validated as the engine validates it)."""
    season = season_file.loads(text)  # SeasonFileError names the place and the problem
    settings = season.settings
    competition = Competition.objects.create(
        season=season_row,
        kind=kind,
        top_value=settings.top_value,
        step=settings.step,
        rounds_per_period=settings.rounds_per_period,
        full_revaluation_from_round=settings.full_revaluation_from_round,
        bye_fraction=settings.bye_fraction,
        excused_fraction=settings.excused_fraction,
        team_fraction=settings.team_fraction,
        auto_absence_fraction=settings.auto_absence_fraction,
    )
    load_season(competition, season, first_evening)
    return competition


def load_season(competition: Competition, season: Season, first_evening: date) -> dict[str, int]:
    """Store an engine season's players and rounds in an empty competition (weekly evenings).

    Players are matched to members by name (new members are made for unknown names); every
    round is stored as published and played. Returns the participant key of each player id.
    """
    existing = {}
    for member in Member.objects.filter(name__in=[p.name for p in season.players]):
        existing.setdefault(member.name, member)
    new = Member.objects.bulk_create(
        Member(name=p.name) for p in season.players if p.name not in existing
    )
    unused = iter(new)
    members = [existing.get(p.name) or next(unused) for p in season.players]
    participants = Participant.objects.bulk_create(
        Participant(
            competition=competition,
            member=member,
            initial_position=position,
            joined_round=player.joined_round,
            start_points=player.start_points,
        )
        for position, (player, member) in enumerate(zip(season.players, members, strict=True), 1)
    )
    pk = {player.id: p.pk for player, p in zip(season.players, participants, strict=True)}
    evenings = [first_evening + timedelta(weeks=i) for i in range(len(season.rounds))]
    rounds = Round.objects.bulk_create(
        Round(
            competition=competition,
            number=number,
            date=evening,
            publish_at=schedule.publication_time(evening),
            published_at=min(schedule.publication_time(evening), timezone.now()),
            bye_id=pk[engine_round.bye] if engine_round.bye else None,
        )
        for number, (evening, engine_round) in enumerate(
            zip(evenings, season.rounds, strict=True), start=1
        )
    )
    Game.objects.bulk_create(
        Game(
            round=round_,
            board=board,
            white_id=pk[game.white],
            black_id=pk[game.black],
            result=game.result.value,
        )
        for round_, engine_round in zip(rounds, season.rounds, strict=True)
        for board, game in enumerate(engine_round.games, start=1)
    )
    Absence.objects.bulk_create(
        Absence(round=round_, participant_id=pk[player_id], reason=reason.value)
        for round_, engine_round in zip(rounds, season.rounds, strict=True)
        for player_id, reason in engine_round.absent.items()
    )
    return pk
