"""What a visitor takes away from the public pages: the printed evening kit (the pairing list
for the wall, the result slips, the standings poster) and the CSV files for a spreadsheet. The
same sheets of a draft are printed from the arbiter's round page (`arbiter.rounds`)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from base.page_cache import public_page
from competition import printing, spreadsheets
from competition.models import Competition, Game, Round
from competition.views import competition_for, url_name


def printed_round(request: HttpRequest, round_number: int, kind: str) -> Round:
    """A published round of the competition asked for (its printed sheets, its CSV); a draft
    is printed only from the admin (`RoundAdmin.print_pairing_view`), so these pages show the
    same to everyone."""
    competition = competition_for(request, kind)
    return get_object_or_404(
        competition.rounds.published().select_related("competition__season", "bye__member"),
        number=round_number,
    )


def pairing_print_context(round_: Round, back_url: str) -> dict:
    """What the wall list and the result slips show of a round (its draft too, from the
    admin), with the address the screen view leads back to."""
    return {
        "competition": round_.competition,
        "round": round_,
        "draft": not round_.is_published,
        "back_url": back_url,
    }


def same_season(request: HttpRequest) -> str:
    """The query that keeps the season asked for (?seizoen=) on a link onward."""
    name = request.GET.get("seizoen")
    return f"?{urlencode({'seizoen': name})}" if name else ""


def pairing_page_url(request: HttpRequest, competition: Competition) -> str:
    return reverse(url_name(competition, "pairing")) + same_season(request)


def render_pairing_print(request: HttpRequest, round_: Round, back_url: str) -> HttpResponse:
    return render(
        request,
        "competition/print/pairing.html",
        {
            **pairing_print_context(round_, back_url),
            "sheets": printing.pairing_sheets(round_),
            "per_sheet": printing.BOARDS_PER_SHEET,
        },
    )


def render_slips_print(request: HttpRequest, round_: Round, back_url: str) -> HttpResponse:
    return render(
        request,
        "competition/print/slips.html",
        {
            **pairing_print_context(round_, back_url),
            "sheets": printing.slip_sheets(round_),
            "tick_boxes": [result.label for result in Game.OVER_THE_BOARD],
            "per_sheet": printing.SLIPS_PER_SHEET,
        },
    )


@public_page
def pairing_print(
    request: HttpRequest, round_number: int, kind: str = Competition.Kind.CLASSICAL
) -> HttpResponse:
    """The pairing list for the wall: board, White, Black and a box for the result."""
    round_ = printed_round(request, round_number, kind)
    return render_pairing_print(request, round_, pairing_page_url(request, round_.competition))


@public_page
def slips_print(
    request: HttpRequest, round_number: int, kind: str = Competition.Kind.CLASSICAL
) -> HttpResponse:
    """A result slip per board, `SLIPS_PER_SHEET` to a page, to cut and hand out."""
    round_ = printed_round(request, round_number, kind)
    return render_slips_print(request, round_, pairing_page_url(request, round_.competition))


@public_page
def standings_print(
    request: HttpRequest, round_number: int | None = None, kind: str = Competition.Kind.CLASSICAL
) -> HttpResponse:
    """The standings poster (A4 landscape): the latest ranking, or the one asked for."""
    now = timezone.now()
    competition = competition_for(request, kind)
    if round_number is None:
        ranking = competition.latest_ranking()
        if ranking is None:
            raise Http404("No ranking yet")
    else:
        ranking = get_object_or_404(
            competition.rankings.defer("appearances"), after_round=round_number
        )
    last = competition.rounds.filter(number=ranking.after_round).first()
    back = reverse(url_name(competition, "standings-round"), args=[ranking.after_round])
    return render(
        request,
        "competition/print/standings.html",
        {
            "competition": competition,
            "ranking": ranking,
            "evening": last.date if last else None,
            "provisional": last if last and last.results_are_provisional(now) else None,
            "sheets": printing.poster_sheets(ranking),
            "per_sheet": printing.POSTER_PER_SHEET,
            "with_groups": competition.participants.exclude(group="").exists(),
            "back_url": back + same_season(request),
        },
    )


@public_page
def standings_csv(
    request: HttpRequest, round_number: int, kind: str = Competition.Kind.CLASSICAL
) -> HttpResponse:
    """A ranking as a CSV file for a spreadsheet, read from its stored snapshot."""
    competition = competition_for(request, kind)
    ranking = get_object_or_404(competition.rankings.defer("appearances"), after_round=round_number)
    standings = _("Standings")  # outside the f-string, where makemessages reads it
    name = spreadsheets.file_name(competition, f"{standings} {round_number}")
    return spreadsheets.download(spreadsheets.ranking_rows(ranking), name)


@public_page
def round_csv(
    request: HttpRequest, round_number: int, kind: str = Competition.Kind.CLASSICAL
) -> HttpResponse:
    """A published round's boards and results as a CSV file (never a draft: the same file for
    everybody, so the page cache may keep it)."""
    round_ = printed_round(request, round_number, kind)
    name = spreadsheets.file_name(
        round_.competition, _("Round %(number)s") % {"number": round_number}
    )
    return spreadsheets.download(spreadsheets.round_rows(round_), name)
