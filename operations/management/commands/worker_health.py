"""`python manage.py worker_health`: exit 0 and "ok" when the worker was seen recently, else
exit 1 with the reason (compose.yaml's health check of the worker; operations/health.py)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from operations.health import site_health


class Command(BaseCommand):
    help = "Check the database answers and the worker was seen recently."

    def handle(self, *args, **options):
        healthy, reason = site_health(timezone.now())
        if not healthy:
            raise CommandError(reason)
        self.stdout.write(reason)
