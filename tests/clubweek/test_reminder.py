"""The Friday reminder (issue 23, point 4): on the deadline's day from 09:00 until 18:00, once
per round, to the members who chose it and are still registered, with the link to cancel."""

import time_machine

from clubweek.worker import run_pass
from competition import services
from members.models import Member
from tests.moments import at


def choose_reminder(*names):
    Member.objects.filter(name__in=names).update(mail_reminder=True)


def reminders(mailoutbox):
    return [m for m in mailoutbox if "afmelden tot" in m.subject.lower()]


def test_the_reminder_goes_once_to_who_chose_it_and_is_still_registered(
    jansen, round_4, mailoutbox
):
    choose_reminder("Jansen", "Pietersen", "de Wit")
    de_wit = round_4.competition.participants.get(member__name="de Wit")
    services.record_absence(round_4, de_wit, "excused")
    with time_machine.travel(at(8, 59), tick=False):
        run_pass(at(8, 59))
    assert reminders(mailoutbox) == []
    with time_machine.travel(at(9), tick=False):
        run_pass(at(9))
        run_pass(at(9, 1))
    sent = reminders(mailoutbox)
    assert sorted(m.to[0] for m in sent) == ["Pietersen@example.org", "jansen@example.org"]
    mine = next(m for m in sent if m.to == ["jansen@example.org"])
    assert mine.subject == "DSC: ronde 4 op donderdag 24 september: afmelden tot vandaag 18:00"
    assert "Ronde 4 is op donderdag 24 september" in mine.body
    assert "Ik kan niet komen: http" in mine.body


def test_no_reminder_after_the_deadline_or_by_default(jansen, round_4, mailoutbox):
    with time_machine.travel(at(12), tick=False):
        run_pass(at(12))  # nobody chose it
    choose_reminder("Jansen")
    with time_machine.travel(at(18), tick=False):
        run_pass(at(18))  # the deadline: too late to remind
    assert reminders(mailoutbox) == []
