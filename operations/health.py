"""`/gezond/`: 200 "ok" when a visitor's request like this one would be served, the database
answers, the worker was seen recently and no step of its last pass failed, the mail server
takes the outbox's mail and the day's backup did not fail; else 503 with the reason in one
plain line (mail trouble is named as mail trouble, not as a worker that is down). For health
checks and monitors: answered by the first middleware, before sessions and login; never
cached.

"Would be served" (issue 38, finding 2: every page answered 400 while this said "ok"): the
request's host is one ALLOWED_HOSTS allows, and with the https redirect on, the request came
marked https by the proxy (X-Forwarded-Proto), as Caddy marks a visitor's. The container's
check asks as Caddy does (`operations.healthcheck`); a monitor asks through Caddy."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from operations.logs import HEALTH_PATH
from operations.models import DailyBackup, OutgoingMail, WorkerHeartbeat


def served(request: HttpRequest) -> str:
    """Why a visitor's request like this one would not be served ("" when it would)."""
    try:
        request.get_host()
    except DisallowedHost:
        host = request.META.get("HTTP_HOST") or request.META.get("SERVER_NAME", "")
        return (
            f"host {host} is not in ALLOWED_HOSTS ({', '.join(settings.ALLOWED_HOSTS)}): "
            "every page answers 400"
        )
    if settings.SECURE_SSL_REDIRECT and not request.is_secure():
        return (
            "not marked https by the proxy (X-Forwarded-Proto): every page answers a "
            "redirect to https"
        )
    return ""


def site_health(now: datetime) -> tuple[bool, str]:
    try:
        worker = WorkerHeartbeat.objects.status(now)
        mail = OutgoingMail.objects.status(now)
        backup = DailyBackup.objects.failing()
    except DatabaseError:
        return False, "database unavailable"
    if worker.seen_at is None:
        return False, "worker never seen"
    if worker.late:
        return False, f"worker not seen since {timezone.localtime(worker.seen_at):%Y-%m-%d %H:%M}"
    if worker.failing:
        return False, "; ".join(
            f"worker step {step.name} failing since "
            f"{timezone.localtime(step.since):%Y-%m-%d %H:%M}: {step.error.splitlines()[0][:120]}"
            for step in worker.failing
        )
    if mail.late:
        since = timezone.localtime(mail.held_up_since)
        return False, (
            f"mail not delivered since {since:%Y-%m-%d %H:%M}: {mail.held_up} waiting "
            f"({mail.last_error.splitlines()[0][:120] if mail.last_error else 'no reason'})"
        )
    if backup is not None:
        failed = timezone.localtime(backup.failed_at)
        return (
            False,
            f"backup failed at {failed:%Y-%m-%d %H:%M}: {backup.error.splitlines()[0][:120]}",
        )
    return True, "ok"


class HealthMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path != HEALTH_PATH:
            return self.get_response(request)
        refused = served(request)
        healthy, reason = (False, refused) if refused else site_health(timezone.now())
        response = HttpResponse(
            f"{reason}\n", status=200 if healthy else 503, content_type="text/plain; charset=utf-8"
        )
        response["Cache-Control"] = "no-store"
        # A 503 here is the answer a monitor asks for, not an error of the site: not logged
        # as one (Django would log it, and mail it to ADMINS, every time a check asks).
        response._has_been_logged = True
        return response
