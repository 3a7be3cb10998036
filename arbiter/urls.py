"""Every address of the arbiter's application, under /beheer/ (before the admin's own), and the
addresses these pages had while they lived in the admin: those answer with a permanent redirect
that keeps the method and the query (308), since arbiters keep bookmarks."""

from django.http import HttpRequest
from django.http.response import HttpResponseRedirectBase
from django.urls import path, reverse

from arbiter import (
    club_page,
    competitions,
    invitations,
    rapid_evening,
    rounds,
    season_end,
    tournament_import,
    week,
)

app_name = "arbiter"
urlpatterns = [
    path("", week.start_page, name="week"),
    path("ronde/nieuw/", rounds.new_round, name="new-round"),
    path("ronde/<int:pk>/", rounds.round_page, name="round"),
    path("ronde/<int:pk>/indelen/", rounds.pair, name="pair"),
    path("ronde/<int:pk>/publiceren/", rounds.publish, name="publish"),
    path("ronde/<int:pk>/uitslagen/", rounds.results, name="results"),
    path("ronde/<int:pk>/afdrukken/", rounds.print_pairing, name="print-pairing"),
    path("ronde/<int:pk>/uitslagbriefjes/", rounds.print_slips, name="print-slips"),
    path("partij/<int:pk>/beslissen/", week.decide_result, name="decide"),
    path("afwezigheid/<int:pk>/teamwedstrijd/", week.decide_team_claim, name="team-claim"),
    path("e-mail/<int:pk>/opnieuw/", week.send_mail_again, name="send-mail-again"),
    path("e-mail/<int:pk>/niet-opnieuw/", week.leave_mail_as_sent, name="leave-mail-as-sent"),
    path("leden/uitnodigen/", invitations.invite, name="invite-all"),
    path("leden/<int:pk>/uitnodigen/", invitations.invite, name="invite"),
    path("seizoen/<int:pk>/afsluiten/", season_end.close, name="close-season"),
    path("seizoen/<int:pk>/heropenen/", season_end.reopen, name="reopen-season"),
    path("seizoen/nieuw/", competitions.new_season, name="new-season"),
    path("vereniging/", club_page.club_page, name="club"),
    path("vereniging/logo/", club_page.club_logo, name="club-logo"),
    path(
        "seizoen/keizerforclubs/",
        tournament_import.import_tournament,
        name="import-keizerforclubs",
    ),
    path("competitie/<int:pk>/rapidavond/", rapid_evening.evening, name="rapid-evening"),
    path("competitie/<int:pk>/keizer/", competitions.keizer, name="keizer"),
    path("competitie/<int:pk>/ranglijst-0/", competitions.ranking_zero, name="ranking-zero"),
    path("competitie/<int:pk>/nieuwe-speler/", competitions.newcomer, name="newcomer"),
    path("competitie/<int:pk>/wijziging/", competitions.held_change, name="held-change"),
    path("competitie/<int:pk>/seizoensbestand/", competitions.season_file, name="season-file"),
    path("competitie/<int:pk>/trf/", competitions.trf, name="trf"),
]


class HttpResponseMoved(HttpResponseRedirectBase):
    """Permanently moved; the request is to be repeated there as it was (a POST stays one)."""

    status_code = 308


def moved(name: str):
    def redirect(request: HttpRequest, **kwargs) -> HttpResponseMoved:
        query = request.META.get("QUERY_STRING", "")
        url = reverse(f"arbiter:{name}", kwargs=kwargs)
        return HttpResponseMoved(f"{url}?{query}" if query else url)

    return redirect


OLD = "competition/"  # the admin's addresses of the competition's models
urlpatterns += [
    path(f"{OLD}{old}", moved(new))
    for old, new in (
        ("round/add/", "new-round"),
        ("round/<int:pk>/change/", "round"),
        ("round/<int:pk>/pair/", "pair"),
        ("round/<int:pk>/publish/", "publish"),
        ("round/<int:pk>/results/", "results"),
        ("round/<int:pk>/print/", "print-pairing"),
        ("round/<int:pk>/slips/", "print-slips"),
        ("game/<int:pk>/decide/", "decide"),
        ("absence/<int:pk>/team-claim/", "team-claim"),
        ("season/new/", "new-season"),
        ("competition/<int:pk>/rapid-evening/", "rapid-evening"),
        ("competition/<int:pk>/ranking-zero/", "ranking-zero"),
        ("competition/<int:pk>/newcomer/", "newcomer"),
        ("competition/<int:pk>/season-file/", "season-file"),
        ("competition/<int:pk>/trf/", "trf"),
    )
]
