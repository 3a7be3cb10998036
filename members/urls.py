from django.urls import path

from members import account_views, views

app_name = "members"
urlpatterns = [
    path("teamspelers/", views.team_players, name="team-players"),
    path("profiel/", views.profile, name="profile"),
    path("welkom/<uidb64>/<token>/", account_views.InvitationView.as_view(), name="invitation"),
    path("profiel/kalender/", views.renew_calendar_link, name="renew-calendar-link"),
]
