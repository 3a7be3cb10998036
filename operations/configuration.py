"""What a process does when the settings are wrong (issue 38, finding 1): it says why in one
line on stderr, with the time and its zone as every other line of the logs, and stops with
exit status 2, instead of a traceback or waiting for ever. `manage.py` (every command: migrate,
the worker, preflight) and the web process (`dsc_site.wsgi`) start through it."""

from __future__ import annotations

import sys

from django.core.exceptions import ImproperlyConfigured

from operations.logs import moment

CONFIGURATION_ERROR = 2  # the exit status of a process that refused to start


def settings_or_exit(status: int = CONFIGURATION_ERROR) -> None:
    """Read the settings; on a configuration mistake, say it and exit with `status`."""
    from django.conf import settings

    try:
        settings.INSTALLED_APPS  # noqa: B018 -- reading one loads them all
    except ImproperlyConfigured as mistake:
        refuse_to_start(str(mistake), status)


def refuse_to_start(reason: str, status: int = CONFIGURATION_ERROR) -> None:
    sys.stderr.write(f"{moment()} ERROR configuration: {reason}\n")
    sys.stderr.flush()
    sys.exit(status)
