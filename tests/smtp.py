"""A real SMTP server for tests (aiosmtpd) on a loopback port: started, stopped and started
again on the same port, keeping what arrived as the bytes the worker sent, and troubled on
demand, by a message's first recipient, at each stage of the dialogue: refusing the address,
refusing or hanging up at the DATA command, hanging up in the middle of the message, refusing
the whole message, answering it slowly, never, or hanging up instead. Tests wait for an event
the server sets, never for a fixed time."""

from __future__ import annotations

import asyncio
import email
import email.policy
import socket
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP

from tests.processes import STARTUP, free_port

HANG_UP = "hang up"  # close the connection without a reply
SILENT = "silent"  # keep the message and never answer (until `release`, or the server stops)


@dataclass(frozen=True)
class Slow:
    """Keep the message, and answer it (250) only this many seconds later: a queueing relay
    behind a slow scanner. A client that hangs up before then is recorded in `gave_up`."""

    seconds: float


def larger_than_the_kernel_buffers() -> int:
    """A message size that cannot all be handed to the kernel while the server reads nothing:
    more than the most a TCP socket's send buffer may grow to, with a megabyte to spare (the
    server's receive buffer is made small for such a test, see `TroubledSMTP`)."""
    most = int(Path("/proc/sys/net/ipv4/tcp_wmem").read_text().split()[-1])
    return most + 2**20


@dataclass
class Arrived:
    recipients: list[str]
    data: bytes

    @property
    def message(self) -> email.message.EmailMessage:
        return email.message_from_bytes(self.data, policy=email.policy.default)


@dataclass
class Mailbox:
    """The server's handler: keeps what arrives in `arrived`, except where told otherwise for a
    message's first recipient:
    - `refused`: the address is refused at RCPT (550);
    - `at_data_command`: the DATA command is answered with this reply instead of 354, or the
      server hangs up (`HANG_UP`);
    - `mid_data`: the server hangs up after the message's first line, long before its end;
    - `after_data`: the end of the message is answered with this reply, nothing kept (a
      refusal such as "554 5.7.1 spam"); or the message is kept and then `SILENT`, `HANG_UP`
      or `Slow`.
    With `hold` set, the server keeps the `hold`-th message waiting (after keeping it) until
    `release`."""

    refused: set[str] = field(default_factory=set)
    at_data_command: dict[str, str] = field(default_factory=dict)
    mid_data: set[str] = field(default_factory=set)
    after_data: dict[str, str | Slow] = field(default_factory=dict)
    arrived: list[Arrived] = field(default_factory=list)
    gave_up: list[str] = field(default_factory=list)  # recipients whose sender hung up waiting
    hold: int | None = None
    held: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refused:
            return "550 5.1.1 No such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        trouble = self.after_data.get(envelope.rcpt_tos[0])
        if isinstance(trouble, str) and trouble[:1].isdigit():
            return trouble  # refused: nothing kept
        self.arrived.append(Arrived(list(envelope.rcpt_tos), envelope.original_content))
        loop = asyncio.get_running_loop()
        if self.hold is not None and len(self.arrived) == self.hold:
            self.held.set()
            await loop.run_in_executor(None, self.release.wait, STARTUP)
        if trouble == HANG_UP:
            server.transport.close()  # aiosmtpd then cancels this handler, in the wait below
        if trouble in (HANG_UP, SILENT):
            await loop.run_in_executor(None, self.release.wait, STARTUP)
        if isinstance(trouble, Slow):
            try:
                await loop.run_in_executor(None, self.release.wait, trouble.seconds)
            except asyncio.CancelledError:  # the client hung up (aiosmtpd cancels the handler)
                self.gave_up.append(envelope.rcpt_tos[0])
                raise
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[email.message.EmailMessage]:
        return [a.message for a in self.arrived if address in a.recipients]

    def copies(self) -> dict[str, int]:
        """How often each Message-ID arrived."""
        counts: dict[str, int] = {}
        for arrived in self.arrived:
            message_id = arrived.message["Message-ID"]
            counts[message_id] = counts.get(message_id, 0) + 1
        return counts


class TroubledSMTP(SMTP):
    """aiosmtpd's server, with the troubles at the DATA command and in the middle of the
    message that its handler hooks cannot reach."""

    def connection_made(self, transport):
        super().connection_made(transport)
        if self.event_handler.mid_data:
            # A small receive buffer, so that a large message cannot sit in it whole: the
            # sender is still sending when the server hangs up.
            transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)

    async def smtp_DATA(self, arg):
        mailbox: Mailbox = self.event_handler
        recipient = self.envelope.rcpt_tos[0] if self.envelope.rcpt_tos else None
        trouble = mailbox.at_data_command.get(recipient)
        if trouble == HANG_UP:
            self.transport.close()
        elif trouble:
            await self.push(trouble)
        elif recipient in mailbox.mid_data:
            await self.push("354 End data with <CR><LF>.<CR><LF>")
            await self._reader.readuntil(b"\r\n")
            self.transport.abort()  # unread data waiting: the sender's kernel gets a reset
        else:
            await super().smtp_DATA(arg)


class TroubledController(Controller):
    def factory(self):
        return TroubledSMTP(self.handler, **self.SMTP_kwargs)


class SMTPServer:
    def __init__(self):
        self.port = free_port()
        self.mailbox = Mailbox()
        self._controller: Controller | None = None

    def start(self) -> None:
        self._controller = TroubledController(
            self.mailbox, hostname="127.0.0.1", port=self.port, data_size_limit=None
        )
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
    settings.EMAIL_DELIVERY_BACKEND = "operations.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_TIMEOUT = STARTUP
    yield server
    server.stop()
