"""Delivery for development (`make run`): each message kept whole as an .eml file in the
checkout's `.mail/` folder, and one line on the console naming who gets what. The console
backend printed every message whole: the first `make run` (the worker publishing the demo's
round and mailing its 40 players) wrote some 2,500 lines (issue 37)."""

from __future__ import annotations

import sys
from pathlib import Path

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend


def folder() -> Path:
    return Path(getattr(settings, "DEV_MAIL_DIR", "") or settings.BASE_DIR / ".mail")


class EmailBackend(BaseEmailBackend):
    def send_messages(self, email_messages) -> int:
        where = folder()
        where.mkdir(parents=True, exist_ok=True)
        taken = len(list(where.glob("*.eml")))
        for number, message in enumerate(email_messages, start=taken + 1):
            path = where / f"{number:05d}.eml"
            path.write_bytes(message.message().as_bytes())
            sys.stdout.write(f"e-mail aan {', '.join(message.to)}: {message.subject} ({path})\n")
        sys.stdout.flush()
        return len(email_messages)
