"""A club moving from KeizerForClubs brings its tournament (issue 39, point 4): the arbiter
uploads its `.s3db` file, sees what the site reads in it (players, rounds, the settings, and
whether our points are the ones KeizerForClubs stored), and then imports it as a new
competition (`services.import_season`). A damaged or foreign file is refused with a clear
message and changes nothing."""

from __future__ import annotations

import base64
import tempfile
from datetime import date

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from arbiter.pages import arbiter_page, render
from base.validators import validate_name
from competition import services
from competition.keizer import keizerforclubs
from competition.keizer.season_file import SeasonFileError
from competition.keizer_form import summary
from competition.models import Competition

SESSION_KEY = "keizerforclubs_import"
MAX_FILE_BYTES = 2_000_000  # a tournament of 60 players and 40 rounds is some 100 kB


class TournamentForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("KeizerForClubs tournament"),
        help_text=gettext_lazy("The tournament's .s3db file."),
    )
    name = forms.CharField(
        label=gettext_lazy("season"),
        max_length=20,
        help_text="2026-2027",
        validators=[validate_name],
    )
    first_evening = forms.DateField(label=gettext_lazy("first club evening"))


def problem_words(error: keizerforclubs.TournamentFileError) -> str:
    """What is wrong with the file, in the arbiter's words."""
    details = error.details
    words = {
        "not_sqlite": _("This is not a KeizerForClubs tournament (.s3db) file."),
        "damaged": _("The file is damaged: it cannot be read as a KeizerForClubs tournament."),
        "missing": _(
            "This is not a KeizerForClubs tournament: the table %(table)s %(column)s is missing."
        ),
        "no_players": _("The tournament has no players."),
        "bad_name": _("Player %(player)s has no name, or one that is not plain text."),
        "same_name": _(
            "Two players are called %(name)s; the site keeps one member per name. Tell them "
            "apart in KeizerForClubs first."
        ),
        "no_rounds": _("The tournament has no round with results yet."),
        "round_missing": _("Round %(round)s is missing from the tournament."),
        "unplayed": _(
            "Round %(round)s, board %(board)s has no result, and it is not the last round: "
            "enter it in KeizerForClubs first."
        ),
        "unknown_result": _("Round %(round)s, board %(board)s has an unknown result (%(code)s)."),
        "unknown_player": _(
            "Round %(round)s, board %(board)s names player %(player)s, who is not in the "
            "tournament."
        ),
        "twice": _("Player %(player)s plays twice in round %(round)s."),
        "byes": _("Round %(round)s has more than one bye; the site pairs one bye a round."),
        "option": _(
            "The tournament uses the option %(option)s, which the site does not count with."
        ),
    }
    return words[error.problem] % details


def _read(content: bytes) -> keizerforclubs.Tournament:
    with tempfile.NamedTemporaryFile(suffix=".s3db") as file:
        file.write(content)
        file.flush()
        return keizerforclubs.read(file.name)


@arbiter_page("competition.add_season")
def import_tournament(request: HttpRequest) -> HttpResponse:
    """Upload, then the preview, then "Importeren" (the file waits in the session between)."""
    if request.method == "POST" and "import" in request.POST:
        stored = request.session.pop(SESSION_KEY, None)
        if stored is None:
            messages.error(request, _("The preview has expired; upload again."))
            return redirect("arbiter:import-keizerforclubs")
        tournament = _read(base64.b64decode(stored["file"]))
        try:
            competition = services.import_season(
                stored["name"],
                Competition.Kind.CLASSICAL,
                tournament.season,
                date.fromisoformat(stored["first_evening"]),
                timezone.now(),
            )
        except (SeasonFileError, services.CompetitionError) as error:
            messages.error(request, str(getattr(error, "messages", [error])[0]))
            return redirect("arbiter:import-keizerforclubs")
        messages.success(
            request,
            _("The tournament is imported: %(players)s players, %(rounds)s rounds.")
            % {"players": len(tournament.season.players), "rounds": len(tournament.season.rounds)},
        )
        return redirect("admin:competition_competition_change", competition.pk)
    form = TournamentForm(request.POST or None, request.FILES or None)
    preview = None
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        content = upload.read(MAX_FILE_BYTES + 1)
        if len(content) > MAX_FILE_BYTES:
            form.add_error("file", _("The file is larger than a tournament file can be."))
        else:
            try:
                tournament = _read(content)
                services.season_import_rows(  # refuses what the import refuses; stores nothing
                    form.cleaned_data["name"],
                    Competition.Kind.CLASSICAL,
                    tournament.season,
                    form.cleaned_data["first_evening"],
                    timezone.now(),
                )
            except keizerforclubs.TournamentFileError as error:
                form.add_error("file", problem_words(error))
            except SeasonFileError as error:
                form.add_error(
                    None,
                    _("The tournament cannot be imported: %(problem)s") % {"problem": error},
                )
            except services.CompetitionError as error:
                form.add_error(None, error.messages)
            else:
                preview = _preview(tournament) | {
                    "name": form.cleaned_data["name"],
                    "first_evening": form.cleaned_data["first_evening"],
                }
                request.session[SESSION_KEY] = {
                    "file": base64.b64encode(content).decode(),
                    "name": form.cleaned_data["name"],
                    "first_evening": form.cleaned_data["first_evening"].isoformat(),
                }
    return render(
        request,
        "arbiter/import_tournament.html",
        _("Import a KeizerForClubs tournament"),
        {"form": form, "preview": preview},
    )


def _preview(tournament: keizerforclubs.Tournament) -> dict:
    compared, differing = keizerforclubs.differences(tournament)
    names = {player.id: player.name for player in tournament.season.players}
    return {
        "players": [
            (player.name, player.withdrawn_after_round is not None)
            for player in tournament.season.players
        ],
        "rounds": len(tournament.season.rounds),
        "left_out": tournament.left_out,
        "compared": compared,
        "differing": [
            (
                _("total") if number == 0 else _("round %(number)s") % {"number": number},
                names[player],
                number_format(float(ours), 2),
                number_format(float(theirs), 2),
            )
            for number, player, ours, theirs in differing
        ],
        "settings": summary(tournament.season.settings),
    }
