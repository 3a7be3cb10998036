from django.urls import path

from competition import downloads, result_entry, views

app_name = "competition"
urlpatterns = [
    path("", views.home, name="home"),
    path("ranglijst/", views.standings, name="standings"),
    path("ranglijst/<int:round_number>/", views.standings, name="standings-round"),
    path("ranglijst/<int:round_number>.csv", downloads.standings_csv, name="standings-csv"),
    path("indeling/", views.pairing, name="pairing"),
    path("indeling/<int:round_number>/afdrukken/", downloads.pairing_print, name="pairing-print"),
    path("indeling/<int:round_number>/uitslagbriefjes/", downloads.slips_print, name="slips-print"),
    path("ranglijst/afdrukken/", downloads.standings_print, name="standings-print"),
    path(
        "ranglijst/<int:round_number>/afdrukken/",
        downloads.standings_print,
        name="standings-round-print",
    ),
    path("indeling/<int:round_number>.csv", downloads.round_csv, name="round-csv"),
    path("rapid/ranglijst/", views.standings, {"kind": "rapid"}, name="rapid-standings"),
    path(
        "rapid/ranglijst/<int:round_number>/",
        views.standings,
        {"kind": "rapid"},
        name="rapid-standings-round",
    ),
    path(
        "rapid/ranglijst/<int:round_number>.csv",
        downloads.standings_csv,
        {"kind": "rapid"},
        name="rapid-standings-csv",
    ),
    path("rapid/indeling/", views.pairing, {"kind": "rapid"}, name="rapid-pairing"),
    path(
        "rapid/indeling/<int:round_number>/afdrukken/",
        downloads.pairing_print,
        {"kind": "rapid"},
        name="rapid-pairing-print",
    ),
    path(
        "rapid/indeling/<int:round_number>/uitslagbriefjes/",
        downloads.slips_print,
        {"kind": "rapid"},
        name="rapid-slips-print",
    ),
    path(
        "rapid/ranglijst/afdrukken/",
        downloads.standings_print,
        {"kind": "rapid"},
        name="rapid-standings-print",
    ),
    path(
        "rapid/ranglijst/<int:round_number>/afdrukken/",
        downloads.standings_print,
        {"kind": "rapid"},
        name="rapid-standings-round-print",
    ),
    path(
        "rapid/indeling/<int:round_number>.csv",
        downloads.round_csv,
        {"kind": "rapid"},
        name="rapid-round-csv",
    ),
    path("spelers/<int:pk>/", views.player, name="player"),
    path("reglement/", views.page, {"slug": "reglement"}, name="rules"),
    path("toegankelijkheid/", views.accessibility, name="accessibility"),
    path("prijzen/", views.prizes_page, name="prizes"),
    path("wat-als/", views.what_if_page, name="what-if"),
    path("partij/<int:pk>/", result_entry.own_game, name="own-game"),
    path("partij/link/", result_entry.by_link, name="result-by-link"),
]
