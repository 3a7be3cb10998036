"""The season's games as a FIDE Tournament Report File (TRF), for rating at the federation.

The `trf` package writes the fixed columns; this module decides what each round is in TRF
terms: a game played (w/b with 1, =, 0), a forfeit (+ / - without colour), the bye (U), and
any other round (absent, not yet joined) a zero-point "Z". Points are chess points (1, ½, 0),
the rank is the final (latest) Keizer ranking.
"""

from __future__ import annotations

from fractions import Fraction

import trf

from competition import exchange
from competition.keizer.scoring import Outcome, appearances
from competition.models import Competition
from members.models import Member

CHESS_POINTS = {
    Outcome.WIN: Fraction(1),
    Outcome.DRAW: Fraction(1, 2),
    Outcome.FORFEIT_WIN: Fraction(1),
}
CODES = {
    Outcome.WIN: "1",
    Outcome.DRAW: "=",
    Outcome.LOSS: "0",
    Outcome.FORFEIT_WIN: "+",
    Outcome.FORFEIT_LOSS: "-",
    Outcome.DOUBLE_FORFEIT: "-",
}


def trf_text(competition: Competition) -> str:
    season = exchange.season_for(competition)
    rounds = list(competition.rounds.order_by("number")[: len(season.rounds)])
    participants = list(competition.participants.order_by("initial_position"))
    start_rank = {str(p.pk): index for index, p in enumerate(participants, start=1)}
    ratings = {
        m.pk: m.rating
        for m in Member.objects.filter(
            pk__in=[p.member_id for p in participants if p.member_id]
        ).with_ratings()
    }
    latest = competition.rankings.order_by("-after_round").first()
    rank = dict(latest.standings.values_list("participant_id", "position")) if latest else {}
    parts = [appearances(engine_round) for engine_round in season.rounds]
    players = []
    for participant in participants:
        pid = str(participant.pk)
        games, points = [], Fraction(0)
        for number, round_parts in enumerate(parts, start=1):
            part = round_parts.get(pid)
            points += CHESS_POINTS.get(part.outcome, 0) if part else 0
            games.append(_game(part, start_rank, number))
        rating = ratings.get(participant.member_id)
        players.append(
            trf.Player(
                startrank=start_rank[pid],
                name=participant.name[:33],
                sex="m",
                rating=rating.value if rating and not rating.is_estimate else 0,
                fed="NED",
                points=float(points),
                rank=rank.get(participant.pk),
                games=games,
            )
        )
    tournament = trf.Tournament(
        name=f"DSC interne competitie {competition.season.name}"
        + (" (rapid)" if competition.kind == Competition.Kind.RAPID else ""),
        city="Drachten",
        federation="NED",
        startdate=rounds[0].date.strftime("%Y/%m/%d") if rounds else "",
        enddate=rounds[-1].date.strftime("%Y/%m/%d") if rounds else "",
        numplayers=len(players),
        numratedplayers=sum(1 for p in players if p.rating),
        type="Keizer",
        rounddates=[r.date.strftime("%y/%m/%d") for r in rounds],
        players=players,
    )
    return trf.dumps(tournament)


def _game(part, start_rank: dict[str, int], number: int) -> trf.Game:
    if part is None or (part.outcome not in CODES and part.outcome is not Outcome.BYE):
        return trf.Game(startrank=0, color="-", result="Z", round=number)
    if part.outcome is Outcome.BYE:
        return trf.Game(startrank=0, color="-", result="U", round=number)
    colour = {"white": "w", "black": "b"}.get(part.colour, "-")
    return trf.Game(
        startrank=start_rank[part.opponent], color=colour, result=CODES[part.outcome], round=number
    )
