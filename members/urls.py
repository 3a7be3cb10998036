from django.urls import path

from members import views

app_name = "members"
urlpatterns = [
    path("teamspelers/", views.team_players, name="team-players"),
    path("profiel/", views.profile, name="profile"),
    path("profiel/kalender/", views.renew_calendar_link, name="renew-calendar-link"),
]
