from django.urls import path

from members import account_views, views

app_name = "members"
urlpatterns = [
    path("teamspelers/", views.team_players, name="team-players"),
    path("profiel/", views.profile, name="profile"),
    path("profiel/wachtwoord/", account_views.PasswordChangeView.as_view(), name="password"),
    path("profiel/e-mail/", account_views.ask_for_new_address, name="new-address"),
    path("profiel/e-mail/bevestigen/", account_views.confirm_address, name="confirm-address"),
    path("e-mail/uitzetten/", account_views.unsubscribe, name="unsubscribe"),
    path("welkom/<uidb64>/<token>/", account_views.InvitationView.as_view(), name="invitation"),
    path("profiel/kalender/", views.renew_calendar_link, name="renew-calendar-link"),
]
