"""A real SMTP server for tests (aiosmtpd) on a loopback port: started, stopped and started
again on the same port, refusing chosen recipients, and keeping what arrived as the bytes the
worker sent. Tests wait for an event the server sets, never for a fixed time."""

from __future__ import annotations

import asyncio
import email
import email.policy
import threading
from dataclasses import dataclass, field

import pytest
from aiosmtpd.controller import Controller

from tests.processes import STARTUP, free_port


@dataclass
class Arrived:
    recipients: list[str]
    data: bytes

    @property
    def message(self) -> email.message.EmailMessage:
        return email.message_from_bytes(self.data, policy=email.policy.default)


@dataclass
class Mailbox:
    """The server's handler: refuses `refused` (550), keeps the rest in `arrived`. With `hold`
    set, the server keeps the `hold`-th message waiting (after keeping it) until `release`."""

    refused: set[str] = field(default_factory=set)
    arrived: list[Arrived] = field(default_factory=list)
    hold: int | None = None
    held: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refused:
            return "550 5.1.1 No such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.arrived.append(Arrived(list(envelope.rcpt_tos), envelope.original_content))
        if self.hold is not None and len(self.arrived) == self.hold:
            self.held.set()
            await asyncio.get_running_loop().run_in_executor(None, self.release.wait, STARTUP)
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[email.message.EmailMessage]:
        return [a.message for a in self.arrived if address in a.recipients]


class SMTPServer:
    def __init__(self):
        self.port = free_port()
        self.mailbox = Mailbox()
        self._controller: Controller | None = None

    def start(self) -> None:
        self._controller = Controller(self.mailbox, hostname="127.0.0.1", port=self.port)
        self._controller.start()

    def stop(self) -> None:
        if self._controller is not None:
            self.mailbox.release.set()
            self._controller.stop()
            self._controller = None


@pytest.fixture
def smtp_server(settings):
    """A running server, and the site's delivery pointed at it (the outbox in front)."""
    server = SMTPServer()
    server.start()
    settings.EMAIL_BACKEND = "operations.outbox.OutboxBackend"
    settings.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_TIMEOUT = STARTUP
    yield server
    server.stop()
