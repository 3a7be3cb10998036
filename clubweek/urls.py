from django.urls import path

from clubweek import feeds

app_name = "clubweek"
urlpatterns = [
    path("kalender.ics", feeds.club_feed, name="club-calendar"),
    path("kalender/<slug:token>.ics", feeds.member_feed, name="member-calendar"),
]
