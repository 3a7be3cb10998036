from django.urls import path

from absences import feeds, views

app_name = "absences"
urlpatterns = [
    path("afmelden/", views.cancellations, name="mine"),
    path("kalender.ics", feeds.club_feed, name="club-calendar"),
    path("kalender/<slug:token>.ics", feeds.member_feed, name="member-calendar"),
]
