"""Public pages: home, standings, pairing and results, player pages, the rules, and the what-if
page (the one that computes: `competition.what_if`)."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode

from base import page_cache
from base.page_cache import QUESTIONS, public_page
from club.models import current as current_club
from competition import eligibility, exchange, histories, prizes, what_if
from competition.explanations import explain
from competition.forms import WhatIfForm, what_if_question
from competition.keizer.scoring import Appearance, counts_as_absence
from competition.models import (
    Closing,
    Competition,
    Game,
    Page,
    Participant,
    Round,
    Season,
    Standing,
)
from competition.tables import (
    APPEARANCES,
    Attendance,
    PairingTable,
    pairing_tables,
    standings_rows,
)
from members.models import TeamMatch

HOME_TOP = 10


def competition_for(request: HttpRequest, kind: str = Competition.Kind.CLASSICAL) -> Competition:
    """The competition of the season asked for (?seizoen=2025-2026) or the current one."""
    seasons = Season.objects.all()
    name = request.GET.get("seizoen")
    season = seasons.filter(name=name).first() if name else seasons.current(timezone.localdate())
    competition = (
        Competition.objects.select_related("season").filter(season=season, kind=kind).first()
    )
    if competition is None:
        raise Http404("No competition")
    return competition


def season_picker(competition: Competition, url_name: str) -> dict:
    """What the season picker shows: every season with this kind of competition, newest first,
    and the page it opens (the latest ranking of the chosen season)."""
    return {
        "seasons": Season.objects.filter(competitions__kind=competition.kind)
        .distinct()
        .order_by("-start_date"),
        "picker_url": reverse(url_name),
    }


def sees_drafts(request: HttpRequest) -> bool:
    """Only the arbiter (who may change rounds) sees a pairing before it is published."""
    return request.user.has_perm("competition.change_round")


def url_name(competition: Competition, name: str) -> str:
    """The URL name of a public page of this kind of competition (`standings` →
    `competition:rapid-standings` for the rapid competition)."""
    prefix = f"{competition.short_name}-" if competition.short_name else ""
    return f"competition:{prefix}{name}"


@dataclass(frozen=True)
class ComingRound:
    """A club evening of today or later as the pairing and home pages show it."""

    round: Round
    table: PairingTable | None  # its boards, when shown
    shown: bool  # its pairing is shown (published, or a draft the arbiter may see)
    waiting: bool  # due but not published: it waits for the previous round's results
    # Its games have started and their results are still provisional: not before the evening,
    # even when a cancellation after publication already gave a board a forfeit.
    provisional: bool
    # The logged-in player's own game while they can enter its result (never for visitors).
    own_game: Game | None = None
    called_off: bool = False  # its season was closed before its games began


def coming_rounds(
    competition: Competition,
    now,
    drafts: bool,
    player: int | None = None,
    closing: Closing | None = None,
    seen_by: int | None = None,
) -> list[ComingRound]:
    """Every published round of today or later (the arbiter may publish one days early), and
    the first unpublished one: its draft for the arbiter, else when its pairing appears. With
    `player` (the logged-in member's participant) also their game in each round whose
    evening takes the players' results now. In a closed season (its `closing`) nothing
    appears any more and nobody enters a result: only the published rounds, each marked when
    the closing called it off. `seen_by` (the logged-in member's participant): their board is
    marked in the tables."""
    today = timezone.localdate(now)
    rounds = list(
        competition.rounds.from_day(today).select_related("bye__member").order_by("number")
    )
    first_unpublished = None if closing else next((r for r in rounds if not r.is_published), None)
    rounds = [r for r in rounds if r.is_published or r is first_unpublished]
    player = None if closing else player
    shown = [r for r in rounds if r.is_published or drafts]
    tables = pairing_tables(shown, seen_by)
    own = own_games(player, [r for r in rounds if r.is_published], now) if player else {}
    return [
        ComingRound(
            round=r,
            table=tables.get(r.pk),
            shown=r in shown,
            waiting=not r.is_published and r.publish_at <= now,
            provisional=r.takes_players_results(now),
            own_game=own.get(r.pk),
            called_off=bool(closing and closing.calls_off(r)),
        )
        for r in rounds
    ]


def own_games(player: int, rounds: list[Round], now) -> dict[int, Game]:
    """A player's games, by round, in the rounds whose evening takes the players' results
    now (`Round.takes_players_results`): where the result page is linked."""
    open_rounds = [r for r in rounds if r.takes_players_results(now)]
    if not open_rounds:
        return {}
    return {
        game.round_id: game
        for game in Game.objects.filter(round__in=open_rounds)
        .involving(player)
        .select_related("white__member", "black__member")
    }


@public_page
def home(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    try:
        competition = competition_for(request)
    except Http404:
        return render(request, "competition/home.html", {"competition": None})
    me = own_participant_id(request, competition)
    ranking = competition.latest_ranking()
    closing = competition.season.closing()
    return render(
        request,
        "competition/home.html",
        {
            "competition": competition,
            # A closed season has no next evening: home says it is closed instead.
            "closing": closing,
            "coming": []
            if closing
            else coming_rounds(competition, now, sees_drafts(request), me, seen_by=me),
            "what_if_round": what_if.round_to_ask(competition, timezone.localdate(now)),
            "ranking": ranking,
            "rows": standings_rows(ranking, limit=HOME_TOP) if ranking else [],
            "own_participant_id": me,
            "now": now,
        },
    )


def own_participant_id(request: HttpRequest, competition: Competition) -> int | None:
    """The logged-in member's player in the competition, whose row is highlighted. Visitors
    get None: the page cache serves them, and never a logged-in member, their pages."""
    if not request.user.is_authenticated:
        return None
    return (
        competition.participants.filter(member__user=request.user)
        .values_list("pk", flat=True)
        .first()
    )


@public_page
def standings(
    request: HttpRequest, round_number: int | None = None, kind: str = Competition.Kind.CLASSICAL
) -> HttpResponse:
    now = timezone.now()
    competition = competition_for(request, kind)
    # Each ranking's appearances as stored text, for the players' games (`games_records`).
    rankings = list(
        competition.rankings.defer("appearances")
        .annotate(appearances_text=APPEARANCES)
        .order_by("after_round")
    )
    if not rankings:
        ranking = None
    elif round_number is None:
        ranking = rankings[-1]
    else:
        ranking = next((r for r in rankings if r.after_round == round_number), None)
        if ranking is None:
            raise Http404("No such ranking")
    provisional = None
    evening = competition.season.start_date  # ranking 0's ratings: those of the season's start
    # The season's rounds in one query: how many, and the evening of the ranking's round.
    rounds = list(competition.rounds.only("competition_id", "number", "date"))
    if ranking is not None and ranking.after_round:
        last = next((r for r in rounds if r.number == ranking.after_round), None)
        provisional = last if last and last.results_are_provisional(now) else None
        evening = last.date if last else evening
    rows = []
    total = len(rounds)
    required = eligibility.required(total)
    if ranking:
        presence = Attendance(required, total - ranking.after_round)
        rows = standings_rows(
            ranking,
            attendance=presence,
            rated_on=evening,
            appearances=[
                r.appearances_text for r in rankings if 1 <= r.after_round <= ranking.after_round
            ],
        )
    return render(
        request,
        "competition/standings.html",
        {
            "competition": competition,
            "ranking": ranking,
            "rankings": rankings,
            "rows": rows,
            "with_attendance": True,
            "with_record": True,
            "own_participant_id": own_participant_id(request, competition),
            "required_rounds": required,
            "round_numbers": range(1, ranking.after_round + 1) if ranking else [],
            "provisional": provisional,
            "races": histories.race_charts(ranking, rankings, rows) if ranking else [],
            "csv_url": (
                reverse(url_name(competition, "standings-csv"), args=[ranking.after_round])
                + f"?{season_query(competition)}"
                if ranking
                else ""
            ),
            **season_picker(competition, url_name(competition, "standings")),
        },
    )


@public_page
def pairing(request: HttpRequest, kind: str = Competition.Kind.CLASSICAL) -> HttpResponse:
    now = timezone.now()
    competition = competition_for(request, kind)
    today = timezone.localdate(now)
    drafts = sees_drafts(request)
    past = competition.rounds.before_day(today)
    rounds = list(
        (past if drafts else past.published()).select_related("bye__member").order_by("-number")
    )
    me = own_participant_id(request, competition)
    tables = pairing_tables(rounds, me)
    closing = competition.season.closing()
    return render(
        request,
        "competition/pairing.html",
        {
            "competition": competition,
            "closing": closing,
            "coming": coming_rounds(
                competition,
                now,
                drafts,
                # Players enter their own results in the internal competition only.
                me if competition.players_enter_results else None,
                closing,
                seen_by=me,
            ),
            "past": [(r, tables[r.pk], r.results_are_provisional(now)) for r in rounds],
            "what_if_round": (
                what_if.round_to_ask(competition, today) if competition.offers_what_if else None
            ),
            "round_csv_url_name": url_name(competition, "round-csv"),
            "season_query": season_query(competition),
            "now": now,
            **season_picker(competition, url_name(competition, "pairing")),
        },
    )


def season_query(competition: Competition) -> str:
    """`seizoen=2026-2027`: a download names its season, so it is the season the page showed."""
    return urlencode({"seizoen": competition.season.name})


def _frozen_values(competition, participant, parts, settings) -> dict[tuple[int, int], int]:
    """{(ranking number, participant key): value} of the player and their opponents, that a
    frozen valuation counted each round with (the ranking before it); nothing for the other
    valuations, which count every round with the latest ranking's values."""
    if settings.revaluation != "frozen":
        return {}
    keys = {participant.pk} | {part[1] for part in parts.values() if part and part[1]}
    return {
        (after_round, key): value
        for after_round, key, value in Standing.objects.filter(
            ranking__competition=competition, participant_id__in=keys
        ).values_list("ranking__after_round", "participant_id", "value")
    }


@public_page
def player(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's rounds, each explained, read from the stored snapshots: the latest ranking
    gives the values and points, each ranking k how the player took part in round k."""
    participant = get_object_or_404(
        Participant.objects.select_related("member", "competition__season"), pk=pk
    )
    competition = participant.competition
    rankings = list(competition.rankings.order_by("after_round"))
    ranking = rankings[-1] if rankings else None
    standings = (
        {s.participant_id: s for s in ranking.standings.select_related("participant__member")}
        if ranking
        else {}
    )
    own = standings.get(participant.pk)
    settings = competition.engine_settings()
    lines = []
    if own is not None:
        parts = {r.after_round: r.appearance_of(participant.pk) for r in rankings[1:]}
        matches = {
            match.pk: str(match)
            for match in TeamMatch.objects.filter(
                pk__in=[part[2] for part in parts.values() if part and part[2]]
            ).select_related("team")
        }
        # A frozen valuation counts each round with the values of the ranking before it.
        then = _frozen_values(competition, participant, parts, settings)
        counted = 0  # the absences before, that count towards a limit or decay
        for number, points in enumerate(own.round_points, start=1):
            part = parts.get(number)
            opponent = standings.get(part[1]) if part and part[1] else None
            appearance = Appearance(part[0], part[1], None, part[3]) if part else None
            line = explain(
                appearance,
                opponent.participant.name if opponent else "",
                then.get((number - 1, participant.pk), own.valuation_value),
                then.get((number - 1, part[1]), opponent.valuation_value) if opponent else 0,
                points,
                settings,
                counted=counted,
                before_joining=number < participant.joined_round,
            )
            if part and counts_as_absence(part[0], part[3], settings):
                counted += 1
            match = matches.get(part[2]) if part else None
            lines.append((number, points, f"{line} ({match})" if match else line))
    forecast = (
        eligibility.eligibility(participant, ranking, own.attended) if own is not None else None
    )
    return render(
        request,
        "competition/player.html",
        {
            "participant": participant,
            "competition": competition,
            "ranking": ranking,
            "standing": own,
            "lines": lines,
            "rounds_total": sum(own.round_points) if own else 0,
            "own_value_counts": settings.own_value,
            # The values the table counts with: those of the ranking before each round when
            # frozen; else the ranking's own after full re-valuation, or the previous ranking's
            # (the valuation ranking).
            "frozen": settings.revaluation == "frozen",
            "revalued_fully": bool(ranking) and settings.revalues_fully(ranking.after_round),
            "eligibility": forecast,
            "verdict": eligibility.verdict(forecast, participant.name) if forecast else "",
            "what_counts": eligibility.what_counts(),
            "chart": histories.player_chart(participant, rankings, standings) if own else None,
        },
    )


@public_page
def accessibility(request: HttpRequest) -> HttpResponse:
    """The accessibility statement: what was tested, what does not work yet, whom to tell."""
    return render(request, "accessibility.html", {"arbiter_email": current_club().arbiter_address})


@public_page
def page(request: HttpRequest, slug: str) -> HttpResponse:
    return render(request, "competition/page.html", {"page": get_object_or_404(Page, slug=slug)})


@public_page
def prizes_page(request: HttpRequest) -> HttpResponse:
    """The prizes as they stand: the winners of a closed season, else each prize's leader now
    with what still decides it (the rounds to go and the attendance rule)."""
    competition = competition_for(request)
    return render(
        request,
        "competition/prizes.html",
        {
            "competition": competition,
            **vars(prizes.as_they_stand(competition)),  # the template reads the fields by name
            **season_picker(competition, "competition:prizes"),
        },
    )


@public_page(reads=what_if_question, cache=QUESTIONS)
def what_if_page(request: HttpRequest) -> HttpResponse:
    """Wat als: the ranking that would follow from results the visitor chooses for the round
    being played (or the next published pairing), and the likely pairing of the round after.
    The one public page that computes (an answer to a question, not a stored fact), once per
    question and data: the page cache keeps each answer under the question its address asks
    (docs/site.md, "Pages"). Bad input is answered with what was wrong and the form as stored
    (400, never stored), never guessed."""
    now = timezone.now()
    competition = competition_for(request)
    question = what_if.question_once(competition, timezone.localdate(now), page_cache.version())
    if question is None:
        return render(
            request, "competition/what_if.html", {"competition": competition, "question": None}
        )
    form = WhatIfForm(request.GET.dict(), question)
    problems = [] if form.is_valid() else form.problems()
    if problems:
        form = WhatIfForm({}, question)  # the form as stored: always valid
        form.is_valid()
    elif form.cleaned_data.get("leeg"):
        form = form.filled()
    results = form.results()
    missing = what_if.missing_boards(question, results)  # counted as draws
    answer = None if problems else what_if.answer(question, results)
    lines = {line.participant_id: line for line in answer.lines} if answer else {}
    names = question.names
    absence_label = dict(competition.absence_reasons())
    # A logged-in member's own board comes first (the page cache keeps their copy apart).
    own = own_participant_id(request, competition)
    boards = sorted(form.boards(), key=lambda pair: own not in (pair[0].white, pair[0].black))
    return render(
        request,
        "competition/what_if.html",
        {
            "competition": competition,
            "question": question,
            "round": question.round,
            "form": form,
            "own_participant_id": own,
            "boards": [
                {
                    "board": board,
                    "own": own in (board.white, board.black),
                    "name": field.html_name,
                    "id": field.id_for_label,
                    "label": field.label,
                    "value": field.value(),
                    "white": (board.white, names[board.white], lines.get(board.white)),
                    "black": (board.black, names[board.black], lines.get(board.black)),
                }
                for board, field in boards
            ],
            "absent": sorted(
                (names[key], absence_label[reason.value])
                for key, reason in (
                    (exchange.participant_key(player), reason)
                    for player, reason in question.absent.absent.items()
                )
            ),
            "bye_name": names.get(question.round.bye_id, ""),
            "after_absent": len(question.after_absent.absent),
            "problems": problems,
            "missing": missing,
            "answer": answer,
            "entered": any(board.result for board in question.boards),
            "choices": form.board_options,  # the same for every board: written out in the page
        },
        status=400 if problems else 200,
    )
