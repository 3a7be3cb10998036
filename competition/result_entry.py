"""`/partij/<game>/`: a player enters the result of their own game on the evening (DSC rule q);
`/partij/link/`: the same from the pairing e-mail's link, without a password.

Personal (who is logged in decides everything on it), so never a `@public_page`. The rules are
`services.report_problems` and `services.report_result`; the page shows what they decided.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from competition import reports, services
from competition.forms import ResultEntryForm
from competition.models import Game, Participant, ResultReport
from competition.reports import Verdict
from members import links

GAME_DETAILS = ("round__competition__season", "white__member", "black__member")


@login_required
def own_game(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.published().select_related(*GAME_DETAILS), pk=pk)
    player = game.player_of(request.user)
    if player is None:  # refused before anything is read or written
        return render(
            request, "competition/own_game.html", {"game": game, "not_yours": True}, status=403
        )
    return _game_page(request, game, player, request.user, member=None)


@never_cache
@links.refuse_outdated(instead="competition:home")
def by_link(request: HttpRequest) -> HttpResponse:
    """ "Uitslag doorgeven" from the pairing e-mail, without a password (`members.links`): the
    same page for the link's member and game only, while the evening takes the players'
    results; it grants no login session."""
    found = links.read(request.GET.get("code", ""), (links.RESULT,))
    game = None
    if found is not None:
        game = (
            Game.objects.published()
            .select_related(*GAME_DETAILS)
            .filter(round_id=found.round_id)
            .filter(Q(white__member=found.member) | Q(black__member=found.member))
            .first()
        )
    if game is None:
        response = render(request, "competition/own_game.html", {"invalid_link": True}, status=400)
    elif not game.round.results_are_provisional(timezone.now()):
        response = render(
            request,
            "competition/own_game.html",
            {"game": game, "round": game.round, "link_over": True},
            status=410,
        )
    else:
        player = game.player_of_member(found.member)
        response = _game_page(request, game, player, found.member.user, member=found.member)
    return response


def _game_page(request: HttpRequest, game: Game, player: Participant, user, member):
    """The game's page for one of its players; a POST enters their result (`services`)."""
    now = timezone.now()
    form = ResultEntryForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            verdict = services.report_result(
                game, user, form.cleaned_data["result"], now, member=member
            )
        except services.CompetitionError as refused:  # nothing was changed
            for message in refused.messages:
                messages.error(request, message)
        else:
            game.refresh_from_db()
            _tell(request, game, player, verdict)
        return redirect(request.get_full_path())
    reported = reports.reported_game(game, game.reports.select_related("participant__member"))
    problems = services.report_problems(game, player, now)
    own = reported.report_of(player.pk)
    return render(
        request,
        "competition/own_game.html",
        {
            "game": game,
            "round": game.round,
            "player": player,
            "opponent": game.opponent_of(player.pk),
            "own_report": own,
            "their_report": reported.report_of(game.opponent_id(player.pk)),
            "differ": reported.verdict is Verdict.DIFFER,
            "problems": problems,
            "form": form,
            "choices": _choices(game, own),
            "provisional": game.round.results_are_provisional(now),
        },
        status=400 if form.errors else 200,
    )


def _choices(game: Game, own: ResultReport | None) -> list[dict]:
    """The buttons: each result a player may enter, with who wins in words."""
    says = {
        Game.Result.WHITE_WINS: _("%(name)s wins") % {"name": game.white.name},
        Game.Result.DRAW: _("Draw"),
        Game.Result.BLACK_WINS: _("%(name)s wins") % {"name": game.black.name},
    }
    return [
        {
            "value": choice.value,
            "label": choice.label,
            "says": says[choice],
            "chosen": own is not None and own.result == choice.value,
        }
        for choice in Game.OVER_THE_BOARD
    ]


def _tell(request: HttpRequest, game: Game, player: Participant, verdict: Verdict) -> None:
    opponent = game.opponent_of(player.pk).name
    if verdict is Verdict.AGREED:
        messages.success(
            request,
            _(
                "%(opponent)s entered the same result: %(result)s stands (provisional until "
                "%(time)s)."
            )
            % {
                "opponent": opponent,
                "result": game.get_result_display(),
                "time": formats.time_format(timezone.localtime(game.round.results_final_at)),
            },
        )
    elif verdict is Verdict.DIFFER:
        messages.warning(
            request,
            _("Your result is saved, but %(opponent)s entered another: the arbiter decides.")
            % {"opponent": opponent},
        )
    else:
        messages.success(
            request,
            _("Your result is saved. It stands once %(opponent)s enters the same.")
            % {"opponent": opponent},
        )
