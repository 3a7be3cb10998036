"""The season's games as a FIDE Tournament Report File (TRF-16), for rating at the federation.

The layout is FIDE's TRF-16 (handbook C.04 Annex 2, "Format of TRF (Tournament Report File)",
approved 2015); docs/site.md ("Files for the federation") lists the columns. The `trf` package
writes the fixed columns of the header and player lines; this module decides what goes in them
and writes line 132 itself (`round_dates_line`).

What each column carries:
- the player id (columns 58-68, FIDE's number) is the member's KNSB relation number: the
  federation rates the club's games and matches players by it; blank for a guest or a member
  without one;
- sex (column 10, m/w) and birth date (70-79, YYYY/MM/DD) where the member's record has them;
- the rating (49-52) is the KNSB rating from the latest list (an estimate is never sent);
- every round counted in the rankings: a game played (w/b with 1, =, 0), a forfeit (+ / - with
  the opponent, without colour), the bye (`bye_code`), and any other round (absent, not yet
  joined) a zero-point bye "Z";
- the points (81-84) are chess points: 1 a win, ½ a draw, 1 a forfeit win, the bye's
  `bye_points`; the rank (86-89) is the latest Keizer ranking's position.
"""

from __future__ import annotations

from fractions import Fraction

import trf
from django.utils.translation import gettext as _

from club.models import current as current_club
from competition import exchange
from competition.keizer.scoring import Outcome, appearances
from competition.keizer.season import Settings
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
SEX = {Member.Sex.MALE: "m", Member.Sex.FEMALE: "w"}  # TRF-16 column 10
# TRF-16's byes by their worth: the pairing-allocated bye (worth a win, as FIDE scores it), the
# half-point bye and the zero-point bye.
BYE_CODES = {Fraction(1): "U", Fraction(1, 2): "H", Fraction(0): "Z"}
FIRST_ROUND_COLUMN = 92  # TRF-16: round r's cell (and date) starts at column 92 + 10(r − 1)


def bye_points(settings: Settings) -> Fraction:
    """The chess points of the Keizer bye. Keizer rule 10 gives the bye player their own value
    (times the bye share, DSC's 1): what a win against an opponent of their own value earns. So
    the bye is worth that share of a win: 1 point with DSC's setting, as FIDE scores a
    pairing-allocated bye. TRF counts half points: another share is rounded to the nearest half
    (a half up), and never more than a win."""
    halves = (4 * settings.bye_fraction + 1) // 2  # ⌊2s + ½⌋
    return min(Fraction(halves, 2), Fraction(1))


def bye_code(settings: Settings) -> str:
    return BYE_CODES[bye_points(settings)]


def problems(competition: Competition) -> list[str]:
    """Why the federation could not rate this competition's report: nothing to report, no
    chief arbiter (TRF-16 marks line 102 mandatory for rating) or no rate of play (a rapid
    competition added in the admin starts without one). Empty when it can be made."""
    found = []
    if not competition.chief_arbiter.strip():
        found.append(
            _("Fill in the chief arbiter first: the federation rates no report without one.")
        )
    if not competition.rate_of_play.strip():
        found.append(
            _("Fill in the rate of play first: the federation rates games by their rate of play.")
        )
    if not exchange.season_for(competition).rounds:
        found.append(_("No round counts yet: there are no games to report."))
    return found


def trf_text(competition: Competition) -> str:
    season = exchange.season_for(competition)
    settings = competition.engine_settings()
    rounds = list(competition.rounds.order_by("number")[: len(season.rounds)])
    participants = list(
        competition.participants.select_related("member").order_by("initial_position")
    )
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
    chess_points = {**CHESS_POINTS, Outcome.BYE: bye_points(settings)}
    players = []
    for participant in participants:
        pid = str(participant.pk)
        games, points = [], Fraction(0)
        for number, round_parts in enumerate(parts, start=1):
            part = round_parts.get(pid)
            points += chess_points.get(part.outcome, 0) if part else 0
            games.append(_game(part, start_rank, number, settings))
        member = participant.member
        rating = ratings.get(participant.member_id)
        players.append(
            trf.Player(
                startrank=start_rank[pid],
                name=participant.name[:33],
                sex=SEX.get(member.sex, " ") if member else " ",
                rating=rating.value if rating and not rating.is_estimate else 0,
                fed="NED",
                id=member.knsb_number if member else None,
                birthdate=member.birth_date.strftime("%Y/%m/%d")
                if member and member.birth_date
                else "",
                points=float(points),  # halves: exact in a float, written as 2.5
                rank=rank.get(participant.pk),
                games=games,
            )
        )
    club = current_club()
    tournament = trf.Tournament(
        name=f"{club.short_name} interne competitie {competition.season.name}"
        + (f" ({competition.short_name})" if competition.short_name else ""),
        city=club.place,
        federation="NED",
        startdate=rounds[0].date.strftime("%Y/%m/%d") if rounds else "",
        enddate=rounds[-1].date.strftime("%Y/%m/%d") if rounds else "",
        numplayers=len(players),
        numratedplayers=sum(1 for p in players if p.rating),
        type="Keizer",
        chiefarbiter=competition.chief_arbiter.strip(),
        rateofplay=competition.rate_of_play.strip(),
        rounddates=[],  # line 132 is written below, in its columns
        players=players,
    )
    text = trf.dumps(tournament)
    empty = "\n132 \n"
    assert text.count(empty) == 1, "the trf package wrote line 132 differently"
    text = text.replace(empty, f"\n{round_dates_line([r.date for r in rounds])}\n")
    return text.replace("\n", "\r\n")  # TRF-16: a CR ends every line (as Swiss-Manager's do)


def round_dates_line(dates) -> str:
    """TRF-16's line 132: round r's date as YY/MM/DD in columns 92 + 10(r − 1) to 99 + 10(r − 1),
    above that round's cell of the player lines. (The `trf` package writes the dates one space
    apart from column 5, where a reader going by columns finds none.)"""
    cells = "".join(f"{day.strftime('%y/%m/%d'):<10}" for day in dates)
    return ("132".ljust(FIRST_ROUND_COLUMN - 1) + cells).rstrip()


def _game(part, start_rank: dict[str, int], number: int, settings: Settings) -> trf.Game:
    if part is None or (part.outcome not in CODES and part.outcome is not Outcome.BYE):
        return trf.Game(startrank=0, color="-", result="Z", round=number)
    if part.outcome is Outcome.BYE:
        return trf.Game(startrank=0, color="-", result=bye_code(settings), round=number)
    colour = {"white": "w", "black": "b"}.get(part.colour, "-")
    return trf.Game(
        startrank=start_rank[part.opponent], color=colour, result=CODES[part.outcome], round=number
    )
