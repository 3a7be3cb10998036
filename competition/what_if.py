"""What if: the ranking that would follow from results a visitor chooses for the round being
played (or the next published pairing), and the likely pairing of the round after.

The one public page that computes on request (issue 13): it answers a question, it is not a
stored fact, so nothing is stored. `round_to_ask` says which round may be asked about,
`question_for` reads everything the answer needs (the season as the engine reads it, the
round's boards and absences as stored, the current ranking), once per version of the data
(`question_once`); `season_with_results` is the pure heart (the season with that round played
with the chosen results) and `answer` runs the engine on it, a board without a result as a
draw: the ranking (`last_ranking`) and the pairing of the round after with the same function
the arbiter's "Indeling maken" uses (`pair_next_round`), from the absences recorded for that
round so far.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from competition import exchange
from competition.keizer.pairing import pair_next_round
from competition.keizer.ranking import last_ranking
from competition.keizer.season import PairRequest, Season
from competition.keizer.season import Round as EngineRound
from competition.models import Competition, Game, Round, Standing

# What a board without a chosen or stored result counts as in a what-if (issue 37; the page
# and docs/site.md, "Wat als", say so): the one result that favours neither player, so that a
# visitor who chooses only the boards they care about sees what those do.
EMPTY_BOARD = Game.Result.DRAW.value


@dataclass(frozen=True)
class Board:
    """A board of the round asked about, as stored (participant keys)."""

    number: int
    white: int
    black: int
    result: str  # the stored result; "" while there is none


@dataclass(frozen=True)
class Question:
    """Everything a what-if of one round reads from the database, read once."""

    competition: Competition
    round: Round
    boards: tuple[Board, ...]
    season: Season  # the rounds that count, as the engine reads them
    absent: PairRequest  # who is absent from the round, as stored (team matches included)
    after: Round | None  # the round after, when the season has one still to pair
    after_absent: PairRequest  # the absences recorded for the round after so far
    names: dict[int, str]  # every participant's name
    current: dict[int, int]  # positions in the latest stored ranking
    current_round: int | None  # the round of that ranking (None: none stored)


@dataclass(frozen=True)
class Line:
    """A player's place in the ranking that would follow."""

    position: int
    participant_id: int
    name: str
    total: Fraction
    value: int
    before: int | None  # the position in the current ranking (None: not in it yet)

    @property
    def movement(self) -> int | None:
        """Places gained against the current ranking (None: new)."""
        return None if self.before is None else self.before - self.position


@dataclass(frozen=True)
class LikelyBoard:
    number: int
    white: int
    white_name: str
    black: int
    black_name: str


@dataclass(frozen=True)
class Answer:
    ranking_round: int  # the ranking after this round
    lines: tuple[Line, ...]
    pairing_round: int | None  # the round the likely pairing is of (None: no round after)
    pairing: tuple[LikelyBoard, ...]
    bye: int | None
    bye_name: str


def round_to_ask(competition: Competition, today: date) -> Round | None:
    """The round whose results a visitor may choose: the first round that does not count yet,
    once its pairing is published (the next published pairing, or the round being played with
    some results in); else the last round that counts when it is played today or later
    (tonight's round with every result in: its results can still be changed in a what-if).
    None in a closed season, or between a round's evening and the next publication."""
    if competition.season.is_closed:
        return None
    rounds = {r.number: r for r in competition.rounds.all()}
    if not rounds:
        return None
    counted = exchange.counted_rounds(competition, before=max(rounds) + 1)
    following = rounds.get(counted + 1)
    if following is not None and following.is_published:
        return following
    last = rounds.get(counted)
    if last is not None and last.date >= today:
        return last
    return None


def question_for(competition: Competition, today: date) -> Question | None:
    """What a what-if of the round to ask about (`round_to_ask`) reads; None when there is
    none (or the rounds changed between the reads)."""
    round_ = round_to_ask(competition, today)
    if round_ is None:
        return None
    season = exchange.season_for(competition)
    if len(season.rounds) not in (round_.number - 1, round_.number):
        return None
    after = competition.rounds.filter(number=round_.number + 1, published_at__isnull=True).first()
    requests = exchange.pair_requests(competition, [r for r in (round_, after) if r is not None])
    boards = tuple(
        Board(*row)
        for row in round_.games.order_by("board").values_list(
            "board", "white_id", "black_id", "result"
        )
    )
    latest = competition.rankings.order_by("-after_round").values_list("pk", "after_round").first()
    current = (
        dict(
            Standing.objects.filter(ranking_id=latest[0]).values_list("participant_id", "position")
        )
        if latest
        else {}
    )
    return Question(
        competition=competition,
        round=round_,
        boards=boards,
        season=season,
        absent=requests[round_.number],
        after=after,
        after_absent=requests[after.number] if after else PairRequest(),
        names={
            pk: member_name or guest_name
            for pk, member_name, guest_name in competition.participants.values_list(
                "pk", "member__name", "guest_name"
            )
        },
        current=current,
        current_round=latest[1] if latest else None,
    )


# The questions read since the data last changed, by (data version, competition, day).
_read: dict[tuple[str, int, date], Question | None] = {}
_UNREAD = object()


def question_once(competition: Competition, today: date, version: str) -> Question | None:
    """`question_for`, read once per version of the data (`base.page_cache.version`: any
    write a page may show makes a new one) in each process: every new choice on the same data
    is computed from what the first one read (a question is never changed once read)."""
    key = (version, competition.pk, today)
    question = _read.get(key, _UNREAD)
    if question is _UNREAD:
        question = question_for(competition, today)
        if len(_read) >= 8:  # older versions: never asked for again
            _read.clear()
        _read[key] = question
    return question


def season_with_results(
    season: Season, number: int, played: EngineRound, after: PairRequest | None = None
) -> Season:
    """The season with round `number` played as `played` (in place of that round if it counts
    already) and the rounds after it left out, asking to pair the round after with the
    absences `after`. Pure: the engine reads the result like any season."""
    if not 1 <= number <= len(season.rounds) + 1:
        raise ValueError(f"round {number} cannot follow the {len(season.rounds)} rounds played")
    return season._replace(rounds=(*season.rounds[: number - 1], played), pair=after)


def missing_boards(question: Question, results: Mapping[int, str]) -> list[int]:
    """The boards without a result, chosen or stored: the answer counts them as draws."""
    return [board.number for board in question.boards if not results.get(board.number)]


def answer(question: Question, results: Mapping[int, str]) -> Answer:
    """The ranking after the round with these results ({board: result}), and the likely
    pairing of the round after; computed by the engine, nothing stored. A round counts only
    once every game has a result, so a board without one counts as a draw (`EMPTY_BOARD`):
    the visitor who chooses one board sees its effect at once, and changes any other by
    choosing its result."""
    round_ = question.round
    played = exchange.engine_round(
        [
            (board.white, board.black, results.get(board.number) or EMPTY_BOARD)
            for board in question.boards
        ],
        question.absent.absent,
        round_.bye_id,
    )
    season = season_with_results(question.season, round_.number, played, question.after_absent)
    ranking = last_ranking(season)
    names = question.names
    lines = []
    for standing in ranking.standings:
        key = exchange.participant_key(standing.player_id)
        lines.append(
            Line(
                position=standing.rank,
                participant_id=key,
                name=names[key],
                total=standing.total,
                value=standing.value,
                before=question.current.get(key),
            )
        )
    pairing, bye = (), None
    if question.after is not None:
        likely = pair_next_round(season, ranking)
        pairing = tuple(
            LikelyBoard(
                pair.board,
                (white := exchange.participant_key(pair.white)),
                names[white],
                (black := exchange.participant_key(pair.black)),
                names[black],
            )
            for pair in likely.pairs
        )
        bye = exchange.participant_key(likely.bye) if likely.bye else None
    return Answer(
        ranking_round=round_.number,
        lines=tuple(lines),
        pairing_round=question.after.number if question.after else None,
        pairing=pairing,
        bye=bye,
        bye_name=names[bye] if bye else "",
    )
