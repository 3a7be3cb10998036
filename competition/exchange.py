"""The only translation between database rows and the engine's season.

Reading: `season_for` reads a competition into a `keizer.Season` (players in the order of
ranking 0, one engine round per completed round), `counted_rounds` only how many rounds count,
`pair_requests` who is absent from given rounds, and `stored_snapshots` the stored rankings'
values; `engine_round` translates one round's games (`what_if` plays a round with results of
its own). Writing goes the other way without touching
the database: `snapshots` turns the engine's rankings into the values of snapshot rows,
`ranking_rows` those values into unsaved rankings with their standings' values, and
`season_rows` an engine season into unsaved members, players, rounds, games and absences;
`competition.services` stores them. Player ids in the engine are participant keys as text.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import cached_property
from json.encoder import encode_basestring
from typing import NamedTuple

from django.db.models import Exists, OuterRef

from club.models import current as current_club
from competition.keizer import RULES_VERSION, season_file
from competition.keizer.amounts import ExactTextsByUnit
from competition.keizer.attendance import attendance_after_each_round
from competition.keizer.ranking import Ranking as EngineRanking
from competition.keizer.scoring import Outcome, appearances
from competition.keizer.season import Absence as EngineAbsence
from competition.keizer.season import Game as EngineGame
from competition.keizer.season import (
    PairRequest,
    Player,
    Result,
    Season,
    absence_reason,
    reason_text,
)
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
from competition.schedule import weekly_evenings
from members.models import ExternalGame, Member, TeamMatch


@dataclass(frozen=True)
class Inputs:
    """Everything the engine reads for a competition, and the team match behind each team
    absence of a counted round ({(round number, player id): team match id})."""

    season: Season
    team_matches: dict[tuple[int, str], int]
    # The JSON text of rounds whose text is known already, by index: (the round, its text).
    # `inputs_before` hands on those of the rounds it shares, so that a saved result writes
    # the text of 27 unchanged rounds once, not twice. Not part of the value.
    round_texts: dict[int, tuple[EngineRound, str]] = field(
        default_factory=dict, compare=False, repr=False
    )

    @cached_property
    def digest(self) -> str:
        """Changes with anything the engine reads, and with the rules it computes by (computed
        once: refreshing compares it, storing writes it). The SHA-256 of the season file's
        document with the rules version and the team matches, as
        `json.dumps(document, sort_keys=True, ensure_ascii=False)` writes it; the rounds'
        texts written one by one (`_rounds_text`), which is the same text."""
        document = season_file.to_document(self.season._replace(rounds=()))
        document["rounds"] = _ROUNDS_MARK
        document["rules_version"] = RULES_VERSION
        document["team_matches"] = sorted(
            [number, player, match] for (number, player), match in self.team_matches.items()
        )
        text = json.dumps(document, sort_keys=True, ensure_ascii=False)
        marker = json.dumps(_ROUNDS_MARK, ensure_ascii=False)
        if text.count(marker) != 1:  # a name holding the mark: the whole document at once
            document["rounds"] = [season_file.round_document(r) for r in self.season.rounds]
            text = json.dumps(document, sort_keys=True, ensure_ascii=False)
        else:
            text = text.replace(marker, self._rounds_text())
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def _rounds_text(self) -> str:
        """The rounds as `json.dumps` writes their list (separators ", " and ": ")."""
        texts = []
        for index, round_ in enumerate(self.season.rounds):
            known = self.round_texts.get(index)
            if known is None or known[0] is not round_:
                known = self.round_texts[index] = (round_, round_text(round_))
            texts.append(known[1])
        return "[" + ", ".join(texts) + "]"


_ROUNDS_MARK = "\u2063rounds of the season\u2063"  # invisible separators: no name holds them

_quoted = encode_basestring  # a text as json.dumps writes it (ensure_ascii=False)
_RESULT_TEXTS = {result: _quoted(result.value) for result in Result}


def round_text(round_: EngineRound) -> str:
    """`json.dumps(season_file.round_document(round_), sort_keys=True, ensure_ascii=False)`,
    written directly (the digest writes every round of the season on every saved result):
    the keys in their sorted order, the absences sorted by player, the separators ", " and
    ": ". A round with a player id that is not a text (never the site's) is left to
    json.dumps."""
    try:
        return _written_round(round_)
    except TypeError:  # encode_basestring takes texts only
        return json.dumps(season_file.round_document(round_), sort_keys=True, ensure_ascii=False)


def _written_round(round_: EngineRound) -> str:
    parts = []
    if round_.absent:
        absent = ", ".join(
            f"{_quoted(player)}: {_quoted(reason_text(reason))}"
            for player, reason in sorted(round_.absent.items())
        )
        parts.append(f'"absent": {{{absent}}}')
    if round_.bye is not None:
        parts.append(f'"bye": {_quoted(round_.bye)}')
    games = ", ".join(
        f'{{"black": {_quoted(game.black)}, "result": {_RESULT_TEXTS[game.result]}, '
        f'"white": {_quoted(game.white)}}}'
        for game in round_.games
    )
    parts.append(f'"games": [{games}]')
    return "{" + ", ".join(parts) + "}"


# A named tuple made directly, without the keyword handling of its class's `__new__` (a
# season's 2,100 games are read on every saved result).
_new = tuple.__new__


class RoundRow(NamedTuple):
    """A round as `read_inputs` reads it: what the engine and the team absences need."""

    id: int
    number: int
    date: date
    published_at: datetime | None
    bye_id: int | None

    pk = property(lambda self: self.id)
    is_published = property(Round.is_published.fget)  # the model's own rule


class GameRow(NamedTuple):
    """A game as `read_inputs` reads it: what the engine and the team absences need."""

    white_id: int
    black_id: int
    result: str


def season_for(competition: Competition, pair_round: Round | None = None) -> Season:
    """The competition as the engine reads it: every round whose results are complete.

    Rounds count from round 1 up to the first round that is unpublished or still misses a
    result. With `pair_round`, its absences become the request to pair that round.
    """
    return read_inputs(competition, pair_round).season


def read_inputs(competition: Competition, pair_round: Round | None = None) -> Inputs:
    """`season_for`, with the team match behind each team absence of a counted round."""
    players = tuple(  # as values: `Participant.engine_id` and `.name`, no row objects
        # joined round, start points, withdrawn after round: the engine's order
        Player(str(pk), member_name if member_id else guest_name, *joined_start_withdrawn)
        for pk, member_id, member_name, guest_name, *joined_start_withdrawn in (
            competition.participants.order_by("initial_position").values_list(
                "pk",
                "member_id",
                "member__name",
                "guest_name",
                "joined_round",
                "start_points",
                "withdrawn_after_round",
            )
        )
    )
    rounds = [
        _new(RoundRow, row)
        for row in competition.rounds.order_by("number").values_list(*RoundRow._fields)
    ]
    games = defaultdict(list)  # a season's games as values: no model instance each
    for round_id, white_id, black_id, result in (
        Game.objects.filter(round__competition=competition)
        .order_by("board")
        .values_list("round_id", "white_id", "black_id", "result")
    ):
        games[round_id].append(_new(GameRow, (white_id, black_id, result)))
    absences, team = _absences(competition, rounds, games)

    played = []
    for round_ in rounds:
        round_games = games[round_.id]
        if not is_complete(round_, round_games) or round_.number != len(played) + 1:
            break
        played.append(engine_round(round_games, absences[round_.id], round_.bye_id))
    request = PairRequest(absences[pair_round.id]) if pair_round is not None else None
    number = {round_.id: round_.number for round_ in rounds}
    return Inputs(
        Season(competition.engine_settings(), players, tuple(played), request),
        {
            (number[round_id], str(participant_id)): match.pk
            for (round_id, participant_id), match in team.items()
            if number[round_id] <= len(played)
        },
    )


def inputs_before(
    inputs: Inputs, number: int, changes: Mapping[tuple[int, int], tuple[str, str]]
) -> Inputs | None:
    """What `read_inputs` gave before the results of round `number` changed (`changes`: by
    the game's (white key, black key), its result before and now), told from `inputs` (read
    after the change); None when they cannot tell it: a result taken away from a round that
    counted before may have stopped later rounds counting."""
    season = inputs.season
    if len(season.rounds) < number:  # round `number` does not count now
        if len(season.rounds) == number - 1 and any(b and not n for b, n in changes.values()):
            return None  # it may have counted before
        return inputs  # it did not count before either: nothing the engine reads changed
    if not all(before for before, _now in changes.values()):  # it did not count before
        return Inputs(
            Season(
                settings=season.settings,
                players=season.players,
                rounds=season.rounds[: number - 1],
                pair=season.pair,
            ),
            {key: match for key, match in inputs.team_matches.items() if key[0] < number},
            inputs.round_texts,
        )
    played = season.rounds[number - 1]
    was = {(str(white), str(black)): before for (white, black), (before, _now) in changes.items()}
    games = tuple(
        EngineGame(g.white, g.black, Result(was[g.white, g.black]))
        if (g.white, g.black) in was
        else g
        for g in played.games
    )
    rounds = list(season.rounds)
    rounds[number - 1] = EngineRound(games=games, absent=played.absent, bye=played.bye)
    return Inputs(
        Season(
            settings=season.settings,
            players=season.players,
            rounds=tuple(rounds),
            pair=season.pair,
        ),
        inputs.team_matches,
        inputs.round_texts,  # the round texts are shared: each is kept with its round
    )


_RESULTS = {result.value: result for result in Result}  # Result(value), without its cost


def engine_round(
    games: Iterable[tuple[int, int, str]], absent: dict[str, EngineAbsence], bye_id: int | None
) -> EngineRound:
    """A round as the engine reads it: its games as (white key, black key, result) in board
    order, who was absent and why, and the bye's key."""
    return EngineRound(
        games=tuple(
            _new(EngineGame, (str(white), str(black), _RESULTS.get(result) or Result(result)))
            for white, black, result in games
        ),
        absent=absent,
        bye=str(bye_id) if bye_id else None,
    )


def participant_key(player_id: str) -> int:
    """The participant behind an engine player id."""
    return int(player_id)


def pair_requests(competition: Competition, rounds: list[Round]) -> dict[int, PairRequest]:
    """Who is absent from each of these rounds of the competition as the engine reads it
    (recorded absences and team matches), by round number: what pairing a round, or playing
    it again in a what-if, starts from."""
    absences, _team = _absences(competition, rounds)
    return {round_.number: PairRequest(absences[round_.id]) for round_ in rounds}


def _absences(
    competition: Competition,
    rounds: list[Round | RoundRow],
    games: dict[int, list[Game | GameRow]] | None = None,
) -> tuple[dict[int, dict[str, EngineAbsence]], dict[tuple[int, int], TeamMatch]]:
    """Who is absent from each of these rounds and why, by round id: the recorded absences,
    with the team reason where a line-up shows a team match (`team_match_absences`, which takes
    precedence); and those team matches."""
    absences = defaultdict(dict)
    for round_id, participant_id, reason in (
        Absence.objects.filter(round__in=[round_.pk for round_ in rounds])
        .order_by("pk")
        .values_list("round_id", "participant_id", "reason")
    ):
        absences[round_id][str(participant_id)] = absence_reason(reason)
    team = team_match_absences(competition, rounds, games)
    for round_id, participant_id in team:
        absences[round_id][str(participant_id)] = EngineAbsence.TEAM
    return absences, team


def team_match_absences(
    competition: Competition,
    rounds: list[Round | RoundRow],
    games: dict[int, list[Game | GameRow]] | None = None,
) -> dict[tuple[int, int], TeamMatch]:
    """{(round id, participant id): the team match} for members in a team match's line-up on a
    club evening or the club's days after it (DSC rule f: the day after): absent with the team
    reason, unless they are seated in the round anyway. Only the internal (classical)
    competition; the team reason takes precedence over a cancellation recorded for the same
    evening."""
    if not competition.counts_team_matches or not rounds:
        return {}
    window = [timedelta(days=day) for day in range(current_club().team_match_days_after + 1)]
    first, last = min(r.date for r in rounds), max(r.date for r in rounds) + window[-1]
    members = competition.participants.filter(member__isnull=False)
    lineups = defaultdict(list)
    for external in (
        ExternalGame.objects.filter(
            match__date__range=(first, last), member_id__in=members.values("member_id")
        )
        .select_related("match__team")
        .order_by("match__date", "match_id", "board")
    ):
        lineups[external.match.date].append(external)
    if not lineups:
        return {}  # most weeks: nobody of the competition in a line-up, one query
    participant_of = dict(members.values_list("member_id", "pk"))
    if games is None:
        games = defaultdict(list)
        for game in Game.objects.filter(round__in=[round_.pk for round_ in rounds]):
            games[game.round_id].append(game)
    absent = {}
    for round_ in rounds:
        seated = {p for g in games[round_.id] for p in (g.white_id, g.black_id)} | {round_.bye_id}
        for day in (round_.date + after for after in window):
            for external in lineups[day]:
                participant = participant_of[external.member_id]
                if participant not in seated:
                    absent.setdefault((round_.id, participant), external.match)
    return absent


def is_complete(round_: Round | RoundRow, games: list[Game | GameRow]) -> bool:
    """A round counts once its pairing is published and every game has a result."""
    return round_.is_published and all(game.result for game in games)


def counted_rounds(competition: Competition, before: int) -> int:
    """How many of rounds 1 .. `before` - 1 count for the engine (`season_for`'s rounds, up to
    `before` - 1), in one query and without reading the games: the rounds that count follow
    each other from round 1 until the first one that is missing, unpublished or without a
    result."""
    without_result = Game.objects.filter(round=OuterRef("pk"), result="")
    complete = set(
        competition.rounds.published()
        .filter(number__lt=before)
        .exclude(Exists(without_result))
        .values_list("number", flat=True)
    )
    counted = 0
    while counted + 1 in complete:
        counted += 1
    return counted


# A standing's stored values after its participant, in the order of a snapshot's standings
# (`Snapshot.standings`); and a standing row's columns: its ranking, its participant, those.
STANDING_VALUES = ("position", "value", "valuation_value", "total", "points", "attended")
STANDING_COLUMNS = ("ranking", "participant", *STANDING_VALUES)


@dataclass(frozen=True)
class Snapshot:
    """One ranking's values as they are stored: its `Ranking` row (without the digest) and its
    standings as (participant key, position, value, valuation value, total, points, attended)
    in the order of position. Two snapshots are equal when their rows would be."""

    after_round: int
    passes: int
    oscillation_stop: bool
    appearances: dict
    standings: tuple[tuple, ...]


def snapshots(rankings: list[EngineRanking], inputs: Inputs) -> list[Snapshot]:
    """The engine's rankings of `inputs.season` as the snapshots to store: per ranking the
    round's appearances, and its standings."""
    season = inputs.season
    attended = attendance_after_each_round(season)
    settings = season.settings
    texts = ExactTextsByUnit()  # a ranking's points repeat: each amount's text made once
    result = []
    for ranking in rankings:
        size = len(ranking.valuation)  # a top value may follow the field (keizer-variants.md)
        valuation_value = {
            player_id: value_at(position, settings, size)
            for position, player_id in enumerate(ranking.valuation, start=1)
        }
        standings = sorted(
            (
                (
                    int(standing.player_id),
                    standing.rank,
                    standing.value,
                    valuation_value[standing.player_id],
                    standing.total,
                    # `[str(p) for p in standing.points]`, each amount's text made once
                    list(map(texts[standing.unit].__getitem__, standing.points_units)),
                    attended[ranking.round].get(standing.player_id, 0),
                )
                for standing in ranking.standings
            ),
            key=lambda standing: standing[1],
        )
        result.append(
            Snapshot(
                ranking.round,
                ranking.passes,
                ranking.oscillation_stop,
                (
                    _appearance_document(ranking.round, season, inputs.team_matches)
                    if ranking.round
                    else {}
                ),
                tuple(standings),
            )
        )
    return result


def stored_snapshots(competition: Competition, since: int = 0) -> dict[int, Snapshot]:
    """The competition's stored rankings (from ranking `since` on) as snapshots, by round (two
    queries)."""
    standings = defaultdict(list)
    for after_round, *standing in (
        Standing.objects.filter(ranking__competition=competition, ranking__after_round__gte=since)
        .order_by("ranking__after_round", "position")
        .values_list("ranking__after_round", "participant_id", *STANDING_VALUES)
    ):
        standings[after_round].append(tuple(standing))
    return {
        after_round: Snapshot(
            after_round, passes, oscillation_stop, appearances, tuple(standings[after_round])
        )
        for after_round, passes, oscillation_stop, appearances in competition.rankings.filter(
            after_round__gte=since
        ).values_list("after_round", "passes", "oscillation_stop", "appearances")
    }


def ranking_rows(
    competition: Competition, snapshots: list[Snapshot], digest: str
) -> list[tuple[Ranking, tuple[tuple, ...]]]:
    """Snapshots as unsaved rows: one `Ranking` each, with its standings as the values of
    `STANDING_COLUMNS` after the ranking's (a snapshot's standings are those values)."""
    return [
        (
            Ranking(
                competition=competition,
                after_round=snapshot.after_round,
                passes=snapshot.passes,
                oscillation_stop=snapshot.oscillation_stop,
                appearances=snapshot.appearances,
                inputs=digest,
            ),
            snapshot.standings,
        )
        for snapshot in snapshots
    ]


def _appearance_document(
    number: int, season: Season, team_matches: dict[tuple[int, str], int]
) -> dict[str, list]:
    """{player id: [outcome, opponent key, team match key]} of round `number`, and an absence
    for a reason of the club's own the reason's word fourth (the outcome says only `absent`)."""
    return {
        player_id: [
            part.outcome.value,
            int(part.opponent) if part.opponent is not None else None,
            team_matches.get((number, player_id)),
            *([part.reason] if part.outcome is Outcome.ABSENT else []),
        ]
        for player_id, part in appearances(season.rounds[number - 1]).items()
    }


@dataclass(frozen=True)
class SeasonRows:
    """An engine season as unsaved rows, linked by object; store them in this order."""

    new_members: list[Member]
    participants: list[Participant]  # in the order of the season's players
    rounds: list[Round]
    games: list[Game]
    absences: list[Absence]


def season_rows(
    competition: Competition, season: Season, first_evening: date, now: datetime
) -> SeasonRows:
    """An engine season's players and rounds for an empty competition, on weekly evenings.

    Players are matched to members by name (unknown names become new members); every round
    is published (at its publication time, or now if that lies ahead) and played.
    """
    existing = {}
    for member in Member.objects.filter(name__in=[p.name for p in season.players]).order_by("pk"):
        existing.setdefault(member.name, member)
    new_members = []
    for player in season.players:
        if player.name not in existing:
            existing[player.name] = Member(name=player.name)
            new_members.append(existing[player.name])
    participants = {
        player.id: Participant(
            competition=competition,
            member=existing[player.name],
            initial_position=position,
            joined_round=player.joined_round,
            start_points=player.start_points,
            withdrawn_after_round=player.withdrawn_after_round,
        )
        for position, player in enumerate(season.players, start=1)
    }
    rounds, games, absences = [], [], []
    evenings = weekly_evenings(first_evening, len(season.rounds))
    for number, (engine_round, evening) in enumerate(zip(season.rounds, evenings, strict=True), 1):
        round_ = Round.on_evening(
            competition,
            number,
            evening,
            bye=participants[engine_round.bye] if engine_round.bye else None,
        )
        round_.published_at = min(round_.publish_at, now)
        rounds.append(round_)
        games += [
            Game(
                round=round_,
                board=board,
                white=participants[game.white],
                black=participants[game.black],
                result=game.result.value,
            )
            for board, game in enumerate(engine_round.games, start=1)
        ]
        absences += [
            Absence(round=round_, participant=participants[player_id], reason=reason_text(reason))
            for player_id, reason in engine_round.absent.items()
        ]
    return SeasonRows(new_members, list(participants.values()), rounds, games, absences)


def open_team_claims(competition: Competition) -> list[Absence]:
    """Team matches members claimed that neither a line-up shows nor the arbiter decided yet,
    in round order."""
    claimed = Absence.objects.team_claims().filter(round__competition=competition)
    if not claimed.exists():  # most weeks: one light query, not the rows with their players
        return []
    claims = list(
        claimed.select_related("round", "participant__member").order_by(
            "round__number", "participant__member__name"
        )
    )
    shown = team_match_absences(competition, list({claim.round for claim in claims}))
    return [claim for claim in claims if (claim.round_id, claim.participant_id) not in shown]
