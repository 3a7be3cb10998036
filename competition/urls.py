from django.urls import path

from competition import result_entry, views

app_name = "competition"
urlpatterns = [
    path("", views.home, name="home"),
    path("ranglijst/", views.standings, name="standings"),
    path("ranglijst/<int:round_number>/", views.standings, name="standings-round"),
    path("indeling/", views.pairing, name="pairing"),
    path("rapid/ranglijst/", views.standings, {"kind": "rapid"}, name="rapid-standings"),
    path(
        "rapid/ranglijst/<int:round_number>/",
        views.standings,
        {"kind": "rapid"},
        name="rapid-standings-round",
    ),
    path("rapid/indeling/", views.pairing, {"kind": "rapid"}, name="rapid-pairing"),
    path("spelers/<int:pk>/", views.player, name="player"),
    path("reglement/", views.page, {"slug": "reglement"}, name="rules"),
    path("prijzen/", views.prizes_page, name="prizes"),
    path("wat-als/", views.what_if_page, name="what-if"),
    path("partij/<int:pk>/", result_entry.own_game, name="own-game"),
]
