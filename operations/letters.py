"""Every e-mail of the site takes one shape here: a `Letter` (its kind, one recipient, a subject
and paragraphs of plain Dutch text), made into a message that looks like the club's.

- From "DSC Drachten" (`MAIL_FROM_NAME`), Reply-To the arbiter on what a member reads, so that
  an answer reaches a person; Message-ID on the site's own domain and Date in the club's time,
  set when the row is written (`operations.outbox`), so a retry is the same message.
- A plain-text part and an HTML part made from the same paragraphs: the HTML is the text,
  escaped, with its links made clickable; no remote images, no styles from elsewhere. An
  `Action` is a link the reader follows: the text part gives its words and the full address,
  the HTML part a button with the words alone, so that the mail fits a phone (360 px); any
  address that stays visible wraps.
- Every subject starts with the club's short name ("DSC: ", `subject_of`), added here and
  nowhere else.
- A mail the member can turn off carries `List-Unsubscribe` with one-click POST (RFC 8058): the
  sender passes the signed address that turns off exactly that kind for that member
  (`members.unsubscribe`), and the footer of both parts says it too.
- Password resets and invitations to one address are limited (`LIMITS`): beyond the limit a
  letter is dropped quietly, and the page that asked answers the same either way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.utils import formataddr
from enum import StrEnum

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import current
from operations.models import OutgoingMail


class Kind(StrEnum):
    PAIRING = "pairing"
    FORFEIT = "forfeit"
    CONFIRMATION = "confirmation"
    RANKING = "ranking"
    CORRECTION = "correction"
    REMINDER = "reminder"
    AUTO_CANCELLED = "auto-cancelled"
    INVITATION = "invitation"
    ADDRESS = "address"
    PASSWORD_RESET = "password-reset"
    ARBITER = "arbiter"  # the site's notices to the arbiter
    ERROR = "error"  # error reports to ADMINS (operations.reports)

    @property
    def answered_by_the_arbiter(self) -> bool:
        """Mail a member reads: an answer goes to the arbiter (Reply-To)."""
        return self not in (Kind.ARBITER, Kind.ERROR)


# At most this many letters of a kind to one address an hour; the rest are dropped.
LIMITS = {Kind.PASSWORD_RESET: 3, Kind.INVITATION: 3}
LIMIT_PERIOD = timedelta(hours=1)


@dataclass(frozen=True)
class Action:
    """A link the reader follows. The text part: "words: address" ("words (note): address"),
    or the address alone when the sentence before says what it is (`alone`); the HTML part: a
    button with the words, the note beside it."""

    words: str
    url: str
    note: str = ""
    alone: bool = False

    @property
    def text(self) -> str:
        if self.alone:
            return self.url
        if self.note:
            return _("%(words)s (%(note)s): %(link)s") % {
                "words": self.words,
                "note": self.note,
                "link": self.url,
            }
        return _("%(words)s: %(link)s") % {"words": self.words, "link": self.url}


# A paragraph: a text (which may hold line breaks), an action, or lines of both.
Paragraph = str | Action | list[str | Action]


@dataclass(frozen=True)
class Letter:
    kind: Kind
    to: str
    subject: str  # without the prefix: `message` adds the club's short name
    paragraphs: list[Paragraph] = field(default_factory=list)
    unsubscribe: str = ""  # the one-click address that turns this kind off for the recipient


def arbiter() -> str:
    club = current()
    return formataddr((_("%(club)s arbiter") % {"club": club.short_name}, club.arbiter_address))


def sender() -> str:
    """The From of every e-mail: the club's sender by name (`club.current()`)."""
    club = current()
    return formataddr((club.sender_name, club.sender_address))


def footer(letter: Letter) -> list[str]:
    lines = [f"{current().sender_name} · {settings.SITE_URL}"]
    if letter.unsubscribe:
        lines.append(
            _("No more of these e-mails? One click turns them off: %(link)s")
            % {"link": letter.unsubscribe}
        )
    return lines


def lines(paragraph: Paragraph) -> list[str | Action]:
    return paragraph if isinstance(paragraph, list) else [paragraph]


def as_text(paragraph: Paragraph) -> str:
    return "\n".join(line.text if isinstance(line, Action) else line for line in lines(paragraph))


def subject_of(letter: Letter) -> str:
    """The subject line: the prefix and the letter's subject on one line (a line break in a
    name ends no header)."""
    return f"{current().short_name}: " + " ".join(letter.subject.split())


def message(letter: Letter) -> EmailMultiAlternatives:
    """The letter as Django's message: text and HTML, the club's headers; `kind` rides along
    for the outbox row."""
    ending = footer(letter)
    text = "\n\n".join(
        [*(as_text(paragraph) for paragraph in letter.paragraphs), "-- \n" + "\n".join(ending)]
    )
    headers = {}
    if letter.unsubscribe:
        headers["List-Unsubscribe"] = f"<{letter.unsubscribe}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    subject = subject_of(letter)
    mail = EmailMultiAlternatives(
        subject,
        text,
        sender(),
        [letter.to],
        reply_to=[arbiter()] if letter.kind.answered_by_the_arbiter else [],
        headers=headers,
    )
    html = render_to_string(
        "mail/letter.html",
        {
            "subject": subject,
            "paragraphs": [lines(paragraph) for paragraph in letter.paragraphs],
            "site": settings.SITE_URL,
            "site_name": current().sender_name,
            "unsubscribe": letter.unsubscribe,
        },
    )
    mail.attach_alternative(html, "text/html")
    mail.kind = letter.kind
    return mail


def over_limit(kind: Kind, address: str, now: datetime, planned: int = 0) -> bool:
    """Whether one more letter of `kind` to `address` would pass its limit (`planned`: those
    about to be written beside it)."""
    limit = LIMITS.get(kind)
    if limit is None:
        return False
    since = now - LIMIT_PERIOD
    return OutgoingMail.objects.to_address_since(kind, address, since).count() + planned >= limit


def within_limits(letters: list[Letter], now: datetime) -> list[Letter]:
    kept: list[Letter] = []
    for letter in letters:
        planned = sum(_same_limit(other) == _same_limit(letter) for other in kept)
        if not over_limit(letter.kind, letter.to, now, planned):
            kept.append(letter)
    return kept


def _same_limit(letter: Letter) -> tuple[str, str]:
    return letter.kind, letter.to.lower()


def send(letters: list[Letter], now: datetime | None = None) -> int:
    """Into the outbox, in the caller's transaction; returns how many were written (letters
    without an address, and those beyond their kind's limit, are not)."""
    letters = within_limits([letter for letter in letters if letter.to], now or timezone.now())
    if not letters:
        return 0
    return get_connection().send_messages([message(letter) for letter in letters])
