from django.urls import path

from absences import views

app_name = "absences"
urlpatterns = [
    path("afmelden/", views.cancellations, name="mine"),
    path("afmelden/link/", views.by_link, name="by-link"),
]
