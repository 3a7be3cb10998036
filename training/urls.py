from django.urls import path

from training import views

app_name = "training"
urlpatterns = [
    path("training/", views.article_list, name="list"),
    path("training/<slug:slug>/", views.article, name="article"),
]
