"""Test-only URLs: one fails like a bug would, one logs as the site's code does
(tests/operations/test_logs.py)."""

import logging

from django.http import HttpResponse
from django.urls import path


def broken(request):
    raise RuntimeError("a bug\nover two lines")


def logs(request):
    logging.getLogger("competition.services").warning("something worth knowing")
    return HttpResponse("ok")


urlpatterns = [path("kapot/", broken), path("meldt/", logs)]
