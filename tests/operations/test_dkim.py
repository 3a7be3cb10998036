"""DKIM (issue 25, point 4): with the club's key set, every e-mail the worker delivers is signed,
and the signature verifies against the matching public key on the bytes the SMTP server
received; a changed message or another key does not verify; without a key nothing is signed.
Each message is signed once (issue 36): the worker's check that it can be written and the
sending use the same signed bytes."""

import dkim
import pytest
from django.utils import timezone

from operations import outbox
from operations.letters import Kind, Letter, send
from tests.dkim_keys import key_pair
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
    signatures = []

    def counted(data, *args, **kwargs):
        signatures.append(data)
        return real_sign(data, *args, **kwargs)

    real_sign = dkim.sign
    monkeypatch.setattr(dkim, "sign", counted)
    smtp_server.mailbox.refused = {"weg@example.org"}
    addresses = ["een@example.org", "weg@example.org", "twee@example.org", "drie@example.org"]
    send([Letter(Kind.ARBITER, a, f"Bericht aan {a}", ["Tekst."]) for a in addresses])
    assert outbox.deliver(timezone.now()) == 3
    arrived = smtp_server.mailbox.arrived
    assert len(arrived) == 3 and len(signatures) == len(addresses)  # the refused one too
    for message in arrived:  # the bytes that were signed, with their one signature in front
        [signed] = [data for data in signatures if message.data.endswith(data)]
        assert message.data.startswith(b"DKIM-Signature:")
        assert b"DKIM-Signature:" not in signed
        assert dkim.verify(message.data, dnsfunc=dns(record))
