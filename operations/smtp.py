"""The SMTP connection the worker delivers with (`EMAIL_DELIVERY_BACKEND`): Django's SMTP backend,
whose connection tells the two halves of a message's dialogue apart.

- Until the message's final dot has been handed to the network (connecting, EHLO, STARTTLS,
  login, MAIL, RCPT, the DATA command, the message itself) the short `EMAIL_TIMEOUT` holds, so
  a dead server is noticed soon; a failure there means the server cannot have the message.
- The reply to the whole message may take `EMAIL_DATA_REPLY_TIMEOUT` (ten minutes: RFC 5321,
  4.5.3.2.6; a relay may scan the message before it answers). When it does not come, or the
  connection breaks while waiting, the server may have taken the message: `ReplyLost`, which
  the outbox never answers by sending the message again by itself.

The bytes sent are Django's (`message.as_bytes`): a DKIM signature covers exactly them.
"""

from __future__ import annotations

import functools
import re
import smtplib

from django.conf import settings
from django.core.mail.backends import smtp


class ReplyLost(smtplib.SMTPServerDisconnected):
    """The whole message was sent, and the server's reply to it did not come."""


class _RepliesToData:
    """`smtplib.SMTP.data` with the reply to the message given its own time, a lost reply told
    apart, and a refused DATA command followed by RSET (smtplib leaves the transaction open,
    so the next message on the connection would be refused as a nested MAIL)."""

    data_reply_timeout: float

    def data(self, msg):
        self.putcmd("data")
        code, reply = self.getreply()
        if code != 354:
            if code == 421:  # the server closes the channel
                self.close()
            else:
                self._rset()
            raise smtplib.SMTPDataError(code, reply)
        if isinstance(msg, str):
            msg = re.sub(r"(?:\r\n|\n|\r(?!\n))", "\r\n", msg).encode("ascii")
        quoted = re.sub(rb"(?m)^\.", b"..", msg)
        if not quoted.endswith(b"\r\n"):
            quoted += b"\r\n"
        self.send(quoted + b".\r\n")  # fails, before the final dot left, as "not connected"
        command_timeout = self.sock.gettimeout()
        self.sock.settimeout(self.data_reply_timeout)
        try:
            code, reply = self.getreply()
        except smtplib.SMTPServerDisconnected as lost:
            raise ReplyLost(
                f"no reply after the whole message was sent ({lost}; "
                f"waited at most {self.data_reply_timeout:g} s)"
            ) from lost
        self.sock.settimeout(command_timeout)
        return code, reply


class SMTP(_RepliesToData, smtplib.SMTP):
    def __init__(self, *args, data_reply_timeout: float, **kwargs):
        self.data_reply_timeout = data_reply_timeout
        super().__init__(*args, **kwargs)


class SMTP_SSL(_RepliesToData, smtplib.SMTP_SSL):  # smtplib's name
    def __init__(self, *args, data_reply_timeout: float, **kwargs):
        self.data_reply_timeout = data_reply_timeout
        super().__init__(*args, **kwargs)


class EmailBackend(smtp.EmailBackend):
    """Django's SMTP backend over the connection above. The environment's
    `EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend` means this one (settings)."""

    def __init__(self, *args, data_reply_timeout: float | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.data_reply_timeout = (
            settings.EMAIL_DATA_REPLY_TIMEOUT if data_reply_timeout is None else data_reply_timeout
        )

    @property
    def connection_class(self):
        connection = SMTP_SSL if self.use_ssl else SMTP
        return functools.partial(connection, data_reply_timeout=self.data_reply_timeout)
