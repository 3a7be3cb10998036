"""Subjects that say what and which round, in the words of the body (issue 37): one e-mail of
every kind (tests/mail_samples.py), round 4 on Thursday 24 September 2026."""

from datetime import date
from types import SimpleNamespace

from absences.mail import confirmation_subject
from absences.models import Registration
from operations.letters import Kind
from tests.mail_samples import one_of_each, smtp_server

__all__ = ["one_of_each", "smtp_server"]

ROUND_4 = "ronde 4 op donderdag 24 september"


def subject(one_of_each, kind: Kind) -> str:
    return one_of_each[kind].message["Subject"]


def body(one_of_each, kind: Kind) -> str:
    return one_of_each[kind].message.get_body(("plain",)).get_content()


def test_every_subject_starts_with_the_clubs_prefix_once(one_of_each):
    for kind in one_of_each:
        assert subject(one_of_each, kind).startswith("DSC: "), kind
        assert subject(one_of_each, kind).count("DSC:") == 1, kind


def test_the_new_password_mail_has_the_prefix_like_the_others(one_of_each):
    assert subject(one_of_each, Kind.PASSWORD_RESET) == (
        "DSC: een nieuw wachtwoord voor de competitiesite"
    )


def test_the_subjects_about_a_round_name_it_and_its_day_as_the_body_does(one_of_each):
    assert subject(one_of_each, Kind.PAIRING) == f"DSC: je indeling voor {ROUND_4}"
    assert subject(one_of_each, Kind.REMINDER) == f"DSC: {ROUND_4}: afmelden tot vandaag 18:00"
    assert subject(one_of_each, Kind.CONFIRMATION) == f"DSC: je afmelding voor {ROUND_4}"
    assert subject(one_of_each, Kind.FORFEIT) == f"DSC: Jansen kan niet komen, {ROUND_4}"
    assert subject(one_of_each, Kind.RANKING) == "DSC: de nieuwe ranglijst na ronde 3"
    assert subject(one_of_each, Kind.CORRECTION) == "DSC: de ranglijst na ronde 3 is gecorrigeerd"
    assert "donderdag 24 september" in body(one_of_each, Kind.PAIRING)
    assert "donderdag 24 september" in body(one_of_each, Kind.REMINDER)
    assert ROUND_4 in body(one_of_each, Kind.CONFIRMATION)
    assert ROUND_4 in body(one_of_each, Kind.FORFEIT)
    assert "ronde 3 op donderdag 17 september" in body(one_of_each, Kind.RANKING)
    for kind in one_of_each:
        assert "-2026" not in subject(one_of_each, kind), kind


def consequence(number: int, day: int, outcome: str) -> SimpleNamespace:
    return SimpleNamespace(
        round=SimpleNamespace(number=number, date=date(2026, 10, day)), outcome=outcome
    )


def test_the_confirmation_says_whether_it_was_a_cancellation_or_a_registration():
    excused, present = Registration.Outcome.EXCUSED, Registration.Outcome.PRESENT
    assert confirmation_subject([consequence(5, 1, present)]) == (
        "je aanmelding voor ronde 5 op donderdag 1 oktober"
    )
    assert confirmation_subject([consequence(5, 1, excused), consequence(6, 8, excused)]) == (
        "je afmelding voor ronde 5 op donderdag 1 oktober en ronde 6 op donderdag 8 oktober"
    )
    assert confirmation_subject([consequence(5, 1, excused), consequence(6, 8, present)]) == (
        "je afmelding voor ronde 5 op donderdag 1 oktober; "
        "je aanmelding voor ronde 6 op donderdag 8 oktober"
    )
