"""Seasons, competitions, their players, rounds, games and ranking snapshots.

The Keizer arithmetic lives in `competition.keizer`; these models store what the engine reads
(`exchange.py` translates) and what it computed (`Ranking`, `Standing`). One module each:
`competitions` (seasons, competitions and what each kind does, players), `rounds` (a round in
the club's week, its absences), `games` (a pairing's games and the results players enter),
`rankings` (the snapshots), `pages` (texts the arbiter edits).
"""

from competition.models.competitions import Closing, Competition, Participant, Season
from competition.models.games import Game, ResultReport
from competition.models.pages import Page
from competition.models.rankings import Ranking, Standing
from competition.models.rounds import Absence, Round

__all__ = [
    "Absence",
    "Closing",
    "Competition",
    "Game",
    "Page",
    "Participant",
    "Ranking",
    "ResultReport",
    "Round",
    "Season",
    "Standing",
]
