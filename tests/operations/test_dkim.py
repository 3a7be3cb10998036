"""DKIM (issue 25, point 4): with the club's key set, every e-mail the worker delivers is signed,
and the signature verifies against the matching public key on the bytes the SMTP server
received; a changed message or another key does not verify; without a key nothing is signed.
Each message is signed once (issue 36): the worker's check that it can be written and the
sending use the same signed bytes. The header is dkimpy's (`dkim.sign`) byte for byte; only its
RSA signature is made by `cryptography` (issue 36)."""

import email.parser
import re
from pathlib import Path

import dkim
import pytest
import time_machine
from cryptography.hazmat.primitives import serialization
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from operations import outbox, signatures
from operations.letters import Kind, Letter, send
from tests.dkim_keys import key_pair
from tests.hypothesis_profiles import examples
from tests.mail_samples import one_of_each, smtp_server

__all__ = ["one_of_each", "smtp_server"]

SELECTOR = "dsc2026"
DOMAIN = "dscdrachten.nl"


def dns(record: bytes):
    """A resolver that knows only the club's selector record."""

    def txt(name: bytes, timeout: int = 5) -> bytes | None:
        return record if name == f"{SELECTOR}._domainkey.{DOMAIN}.".encode() else None

    return txt


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    folder = tmp_path_factory.mktemp("dkim")
    return key_pair(folder, "club"), key_pair(folder, "other")


@pytest.fixture
def club_key(settings, keys):
    (private, _record), _other = keys
    settings.DKIM_PRIVATE_KEY_FILE = private
    settings.DKIM_SELECTOR, settings.DKIM_DOMAIN = SELECTOR, DOMAIN
    return keys


def test_every_email_is_signed_and_verifies_against_the_clubs_public_key(club_key, one_of_each):
    (_private, record), (_other, other_record) = club_key
    for kind, arrived in one_of_each.items():
        message = arrived.message
        signature = " ".join(message["DKIM-Signature"].split())
        assert f"d={DOMAIN};" in signature and f"s={SELECTOR};" in signature, kind
        signed = {h.strip().lower() for h in signature.split(" h=")[1].split(";")[0].split(":")}
        assert {"from", "to", "subject", "date", "message-id"} <= signed, kind
        if message["List-Unsubscribe"]:
            assert {"list-unsubscribe", "list-unsubscribe-post"} <= signed, kind
        assert dkim.verify(arrived.data, dnsfunc=dns(record)), kind
        assert not dkim.verify(arrived.data, dnsfunc=dns(other_record)), kind
        changed = arrived.data.replace(b"Beste ", b"Beste  meneer ", 1)
        if changed != arrived.data:
            assert not dkim.verify(changed, dnsfunc=dns(record)), kind


def test_without_a_key_nothing_is_signed(one_of_each):
    assert all(a.message["DKIM-Signature"] is None for a in one_of_each.values())


def test_each_message_is_signed_once_and_sent_as_signed(club_key, smtp_server, monkeypatch, db):
    (_private, record), _other = club_key
    signed_data = []

    def counted(data, *args, **kwargs):
        signed_data.append(data)
        return real_sign(data, *args, **kwargs)

    real_sign = signatures.dkim_signature
    monkeypatch.setattr(signatures, "dkim_signature", counted)
    smtp_server.mailbox.refused = {"weg@example.org"}
    addresses = ["een@example.org", "weg@example.org", "twee@example.org", "drie@example.org"]
    send([Letter(Kind.ARBITER, a, f"Bericht aan {a}", ["Tekst."]) for a in addresses])
    assert outbox.deliver(timezone.now()) == 3
    arrived = smtp_server.mailbox.arrived
    assert len(arrived) == 3 and len(signed_data) == len(addresses)  # the refused one too
    for message in arrived:  # the bytes that were signed, with their one signature in front
        [signed] = [data for data in signed_data if message.data.endswith(data)]
        assert message.data.startswith(b"DKIM-Signature:")
        assert b"DKIM-Signature:" not in signed
        assert dkim.verify(message.data, dnsfunc=dns(record))


# dkimpy's header, byte for byte (issue 36): the signature is made by `cryptography`, the rest
# must stay what dkimpy writes for the same message, key, selector, domain and second.

RELAXED = (b"relaxed", b"relaxed")
FIRST_FIELD = re.compile(rb"DKIM-Signature:.*?\r\n(?![ \t])", re.DOTALL)


def dkimpys(data: bytes, private: str, at: int) -> bytes:
    """What dkimpy writes for `data` with the club's settings at second `at`: relaxed/relaxed,
    the recommended headers and the one-click unsubscribe, those present."""
    present = {name.lower().encode() for name in email.parser.BytesHeaderParser().parsebytes(data)}
    wanted = [*dkim.DKIM.SHOULD, b"list-unsubscribe-post"]
    with time_machine.travel(at, tick=False):
        return dkim.sign(
            data,
            SELECTOR.encode(),
            DOMAIN.encode(),
            Path(private).read_bytes(),
            canonicalize=RELAXED,
            include_headers=[name for name in wanted if name in present],
        )


def ours(data: bytes, private: str, at: int) -> bytes:
    key = serialization.load_pem_private_key(Path(private).read_bytes(), password=None)
    with time_machine.travel(at, tick=False):
        return signatures.dkim_signature(data, SELECTOR.encode(), DOMAIN.encode(), key)


def test_the_signature_sent_is_the_one_dkimpy_writes(club_key, one_of_each):
    (private, _record), _other = club_key
    for kind, arrived in one_of_each.items():
        header = FIRST_FIELD.match(arrived.data).group()
        at = int(re.search(rb"\bt=(\d+);", header)[1])
        assert dkimpys(arrived.data[len(header) :], private, at) == header, kind


DUTCH = "Uitslag ronde 3: één bord van Jan-Willem ‘de Vries’ mist nog – graag vóór vrijdag"
ODD_MESSAGES = {
    "Dutch subject, Django's own encoding": None,  # made in the test, by Django
    "long folded headers": (
        b"From: DSC Drachten <dsc@dscdrachten.nl>\r\nTo: a@example.org,\r\n b@example.org,"
        b"\r\n\tc@example.org\r\nSubject: "
        + b"lang " * 40
        + b"\r\nList-Unsubscribe: <https://"
        + b"x" * 300
        + b">\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n\r\nTekst.\r\n"
    ),
    "empty body": b"From: dsc@dscdrachten.nl\r\nSubject: leeg\r\n\r\n",
    "no body at all": b"From: dsc@dscdrachten.nl\r\nSubject: niets",
    "blank lines and spaces at the end": (
        b"From: dsc@dscdrachten.nl\r\nSubject:   veel   ruimte \t \r\n\r\n"
        b"Tekst  \t\r\n\r\n \r\n\r\n"
    ),
    "bare LF, bare CR, CR CR LF": (
        b"From: dsc@dscdrachten.nl\nSubject: regels\r\nTo: a@example.org\n\nEen\nTwee\rDrie\r\r\n"
    ),
    "a field twice": (
        b"From: dsc@dscdrachten.nl\r\nSubject: een\r\nSubject: twee\r\nReceived: x\r\n\r\nT\r\n"
    ),
    "8-bit body and header": (
        "From: dsc@dscdrachten.nl\r\nSubject: één\r\n\r\nBeste Jan-Willem, één\r\n".encode()
    ),
}


@pytest.mark.parametrize("case", ODD_MESSAGES)
def test_the_header_is_dkimpys_for_odd_messages(keys, case):
    from django.core.mail import EmailMessage

    (private, record), _other = keys
    data = ODD_MESSAGES[case]
    if data is None:
        message = EmailMessage(
            DUTCH, "Beste één,\n\nTot vrijdag.\n", "dsc@dscdrachten.nl", ["a@x.nl"]
        )
        data = message.message().as_bytes(linesep="\r\n")
    at = 1_700_000_000  # dkimpy does not verify a signature made in the future
    header = ours(data, private, at)
    assert header == dkimpys(data, private, at)
    assert dkim.verify(header + data, dnsfunc=dns(record))


WORD = st.text(
    st.characters(min_codepoint=0x21, max_codepoint=0x7E, exclude_characters=":") | st.just("é"),
    min_size=1,
    max_size=12,
).map(str.encode)
BLANK = st.sampled_from([b" ", b"  ", b"\t", b" \t "])
SPACE = BLANK | st.sampled_from([b"\r\n ", b"\r\n\t", b"\n "])  # a fold, too
TRAILING = st.sampled_from([b"", b" ", b"\t ", b"\r\n "])  # the last: a line of white space
LINE_END = st.sampled_from([b"\r\n", b"\n"])
NAMES = [b"To", b"Cc", b"Subject", b"Date", b"Message-ID", b"Reply-To", b"List-Id"]
NAMES += [b"List-Unsubscribe", b"List-Unsubscribe-Post", b"MIME-Version", b"X-Mailer", b"Received"]


@st.composite
def messages(draw) -> bytes:
    """Raw messages: one From (dkimpy's verifier refuses a second one, as RFC 5322 does) and
    the other recommended fields and others, some twice, in any order, values with
    odd white space and folds; line ends CRLF or LF; bodies with trailing white space, blank
    lines at the end, bare CRs, or none at all."""
    names = [*draw(st.lists(st.sampled_from(NAMES), max_size=12)), b"From"]
    names = draw(st.permutations(names))
    head = b""
    for name in names:
        words = draw(st.lists(WORD, max_size=30))
        value = b"".join(draw(SPACE) + word for word in words)
        head += name + b":" + value + draw(TRAILING) + draw(LINE_END)
    lines = draw(st.lists(st.lists(WORD | BLANK | st.just(b"\r"))))
    body = b"".join(b"".join(line) + draw(LINE_END) for line in lines)
    if not draw(st.booleans()):
        return head + draw(LINE_END) + body + draw(st.sampled_from([b"", b"\r\n\r\n", b" \r\n"]))
    return head  # no empty line: no body


@settings(max_examples=examples(50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=messages(), at=st.integers(1_000_000_000, 1_700_000_000))
def test_the_header_is_dkimpys_for_any_message(keys, data, at):
    (private, record), _other = keys
    header = ours(data, private, at)
    assert header == dkimpys(data, private, at)
    assert dkim.verify(header + data, dnsfunc=dns(record))


def test_a_key_in_the_older_pkcs1_form_signs_too(settings, keys, tmp_path):
    """`openssl genrsa` before OpenSSL 3 wrote "BEGIN RSA PRIVATE KEY" (PKCS#1), 3.0 writes
    PKCS#8: a club's key of either kind signs."""
    (private, record), _other = keys
    key = serialization.load_pem_private_key(Path(private).read_bytes(), password=None)
    older = tmp_path / "older.pem"
    older.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.TraditionalOpenSSL,
            serialization.NoEncryption(),
        )
    )
    assert older.read_bytes().startswith(b"-----BEGIN RSA PRIVATE KEY-----")
    settings.DKIM_PRIVATE_KEY_FILE = str(older)
    settings.DKIM_SELECTOR, settings.DKIM_DOMAIN = SELECTOR, DOMAIN
    data = b"From: dsc@dscdrachten.nl\r\nSubject: Proef\r\n\r\nTekst.\r\n"
    assert dkim.verify(signatures.sign(data) + data, dnsfunc=dns(record))
