"""The words the letters share, as a member reads them (no database: the round and the player
are read by their fields)."""

from datetime import date
from types import SimpleNamespace

from members.letter_words import dear, email_of, evening


def test_a_letter_greets_the_member_by_name():
    assert dear("de Wit") == "Beste de Wit,"


def test_an_evening_is_named_by_its_round_and_its_day_in_words():
    """As the body of the pairing mail writes the day (issue 37), not 24-09-2026."""
    evening_4 = SimpleNamespace(number=4, date=date(2026, 9, 24))
    assert evening(evening_4) == "ronde 4 op donderdag 24 september"


def test_a_players_address_is_their_members_and_a_guest_has_none():
    member = SimpleNamespace(email="jansen@example.org")
    assert email_of(SimpleNamespace(member=member, member_id=7)) == "jansen@example.org"
    assert email_of(SimpleNamespace(member=None, member_id=None)) == ""
    assert email_of(None) == ""
