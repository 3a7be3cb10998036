"""The new ranking by e-mail (issue 13, point 6): once an evening's results are final (23:30),
the worker e-mails the members who chose it their new position, their points of the round and
the top of the standings; once per round, however often the worker passes or how many run,
and never a backlog of older rankings.

The numbers are worked out by hand from the worked example (tests/competition/keizer/data):
ranking 2 is de Zeeuw 141, de Bruin 136, Jansen 93, Slager 92, de Jonge 90, Pietersen 87,
Bakker 70, de Oude 66½, de Vries 62½, de Wit 62 (values 50 down to 41), and round 3, valued
with those values, gives ranking 3: de Zeeuw 164½, de Bruin 159, Jansen 140, de Jonge 136,
de Vries 106½, Slager 92, Pietersen 88, de Oude 86½, de Wit 83½, Bakker 67½.
"""

import threading
from datetime import UTC, date, datetime, timedelta
from fractions import Fraction

import pytest
import time_machine
from django.db import connection
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from club.models import current as current_club
from clubweek import ranking_mail, worker
from competition import services
from competition.models import Competition, Game, Round
from members.models import Member
from tests.factories import FIRST_EVENING, make_played_competition, worked_example_season
from tests.moments import AMSTERDAM
from tests.races import needs_row_locks
from tests.waiting import another_connection_waits_for_a_lock, wait_until

EVENING_3 = date(2026, 9, 17)  # the worked example's round 3, a Thursday
FINAL_3 = datetime(2026, 9, 17, 23, 30, tzinfo=AMSTERDAM)  # DSC rule v: final at 23:30
SUBJECT_3 = "DSC: de nieuwe ranglijst na ronde 3"


def run_pass(moment):
    with time_machine.travel(moment, tick=False):
        return worker.run_pass(moment)


def choose_ranking_mail(competition, *names):
    """These players' members ask for the new ranking on their profile."""
    Member.objects.filter(participations__competition=competition, name__in=names).update(
        mail_ranking=True
    )


def ranking_mails(mailoutbox, subject=SUBJECT_3):
    """The new-ranking e-mails by address (the worker may send pairing e-mails beside them:
    the worked example's rounds were stored without theirs)."""
    mails = [m for m in mailoutbox if m.subject == subject]
    assert len({m.to[0] for m in mails}) == len(mails), "someone got it twice"
    return {m.to[0]: m for m in mails}


def subjects(mailoutbox) -> list[str]:
    return [m.subject for m in mailoutbox if "ranglijst" in m.subject]


def test_the_email_tells_the_new_position_the_points_of_the_round_and_the_top(
    example_competition, jansen, mailoutbox
):
    choose_ranking_mail(
        example_competition, "Jansen", "de Vries", "Bakker", "de Wit", "de Oude", "Slager"
    )
    Member.objects.filter(name="Slager").update(email="")  # chose it, but has no address
    run_pass(FINAL_3)
    mails = ranking_mails(mailoutbox)
    assert sorted(mails) == [
        "Bakker@example.org",
        "deOude@example.org",
        "deVries@example.org",
        "deWit@example.org",
        "jansen@example.org",
    ]
    assert subjects(mailoutbox) == [SUBJECT_3] * 5  # nobody else, nobody twice

    jansen_mail = mails["jansen@example.org"].body
    assert "De uitslagen van ronde 3 op donderdag 17 september zijn definitief." in jansen_mail
    # 48 + 45 (Pietersen, 6th in ranking 2) + 0 + 47 (Slager, 4th) = 140; third in both.
    assert "Je staat nu op plaats 3 van 10 met 140 punten (waarde 48)." in jansen_mail
    assert "In de vorige ranglijst stond je ook op plaats 3." in jansen_mail
    assert "Ronde 3: won van Slager, waarde 47 → 47 punten." in jansen_mail
    top = [
        "De top 10:",
        "1. de Zeeuw: 164½",
        "2. de Bruin: 159",
        "3. Jansen: 140 ← jij",
        "4. de Jonge: 136",
        "5. de Vries: 106½",
        "6. Slager: 92",
        "7. Pietersen: 88",
        "8. de Oude: 86½",
        "9. de Wit: 83½",
        "10. Bakker: 67½",
    ]
    assert "\n".join(top) in jansen_mail
    assert "De hele ranglijst: http://127.0.0.1:8000/ranglijst/" in jansen_mail
    jansen_player = example_competition.participants.get(member__name="Jansen").pk
    assert f"http://127.0.0.1:8000/spelers/{jansen_player}/" in jansen_mail
    assert "http://127.0.0.1:8000/profiel/" in jansen_mail

    de_vries = mails["deVries@example.org"].body
    # 46 + 0 + 20½ (half of de Wit's 41) + 44 (beat Bakker, 7th in ranking 2) = 106½.
    assert "Je staat nu op plaats 5 van 10 met 106½ punten (waarde 46)." in de_vries
    assert "stond je op plaats 9: 4 plaatsen gestegen." in de_vries
    assert "Ronde 3: won van Bakker, waarde 44 → 44 punten." in de_vries
    assert "5. de Vries: 106½ ← jij" in de_vries and "3. Jansen: 140\n" in de_vries

    bakker = mails["Bakker@example.org"].body
    assert "Je staat nu op plaats 10 van 10 met 67½ punten (waarde 41)." in bakker
    assert "stond je op plaats 7: 3 plaatsen gedaald." in bakker
    assert "Ronde 3: verloor van de Vries → 0 punten." in bakker

    de_wit = mails["deWit@example.org"].body
    # 41 + 0 + 21 (half of de Vries's 42) + 21½ (half of de Oude's 43) = 83½.
    assert "Je staat nu op plaats 9 van 10 met 83½ punten (waarde 42)." in de_wit
    assert "stond je op plaats 10: 1 plaats gestegen." in de_wit
    assert "Ronde 3: remise tegen de Oude, de helft van waarde 43 → 21½ punten." in de_wit

    de_oude = mails["deOude@example.org"].body
    assert "In de vorige ranglijst stond je ook op plaats 8." in de_oude
    assert "Ronde 3: remise tegen de Wit, de helft van waarde 41 → 20½ punten." in de_oude


def test_a_member_below_the_top_finds_their_own_line_after_it(
    example_competition, jansen, mailoutbox
):
    club = current_club()
    club.ranking_mail_length = 3  # as the arbiter sets it on the club's page
    club.save()
    choose_ranking_mail(example_competition, "Bakker", "de Bruin")
    run_pass(FINAL_3)
    mails = ranking_mails(mailoutbox)
    bakker = mails["Bakker@example.org"].body
    assert "De top 3:\n1. de Zeeuw: 164½\n2. de Bruin: 159\n3. Jansen: 140\n…\n" in bakker
    assert "10. Bakker: 67½ ← jij\n" in bakker and "4. de Jonge" not in bakker
    assert "…" not in mails["deBruin@example.org"].body  # in the top: no extra line


@pytest.mark.parametrize(
    ("first_evening", "evening_3", "final_in_utc"),
    [
        # Summer time (UTC+2): 23:30 is 21:30 UTC.
        (FIRST_EVENING, EVENING_3, datetime(2026, 9, 17, 21, 30, tzinfo=UTC)),
        # The last Thursday of summer time, three days before the clocks go back.
        (date(2026, 10, 8), date(2026, 10, 22), datetime(2026, 10, 22, 21, 30, tzinfo=UTC)),
        # The first Thursday of winter time (UTC+1, from Sunday 25 October): 22:30 UTC.
        (date(2026, 10, 15), date(2026, 10, 29), datetime(2026, 10, 29, 22, 30, tzinfo=UTC)),
    ],
)
def test_the_new_ranking_goes_out_at_half_past_eleven_local_time_not_before(
    db, mailoutbox, first_evening, evening_3, final_in_utc
):
    competition, _ = make_played_competition(worked_example_season(), first_evening)
    Member.objects.update(email="lid@example.org", mail_ranking=True)
    round_3 = competition.rounds.get(number=3)
    assert round_3.date == evening_3
    run_pass(final_in_utc - timedelta(seconds=1))
    assert subjects(mailoutbox) == []
    assert Round.objects.get(pk=round_3.pk).ranking_mailed_at is None
    run_pass(final_in_utc)
    assert subjects(mailoutbox) == [SUBJECT_3] * 10
    assert Round.objects.get(pk=round_3.pk).ranking_mailed_at == final_in_utc


def test_only_the_newest_final_ranking_is_mailed_never_a_backlog(
    example_competition, round_4, jansen, mailoutbox
):
    """The first pass after deployment (or after a worker was down for weeks) finds rounds 1-3
    final and unmailed: only round 3, the standings as they are now, goes out. The next round
    goes out at its own 23:30 once all its results are in, or at once when the last result
    comes later."""
    choose_ranking_mail(example_competition, "Jansen")
    run_pass(datetime(2026, 9, 18, 20, tzinfo=AMSTERDAM))  # the Friday: round 4 is published
    assert subjects(mailoutbox) == [SUBJECT_3]
    mailed = dict(example_competition.rounds.values_list("number", "ranking_mailed_at"))
    assert mailed == {1: None, 2: None, 3: datetime(2026, 9, 18, 18, tzinfo=UTC), 4: None}
    run_pass(datetime(2026, 9, 20, 12, tzinfo=AMSTERDAM))
    assert subjects(mailoutbox) == [SUBJECT_3]  # rounds 1 and 2: never

    round_4.refresh_from_db()
    games = list(round_4.games.order_by("board"))
    services.enter_results(round_4, {game.pk: "1-0" for game in games[:-1]})
    run_pass(datetime(2026, 9, 24, 23, 40, tzinfo=AMSTERDAM))
    assert subjects(mailoutbox) == [SUBJECT_3]  # a result of round 4 is missing
    with time_machine.travel(datetime(2026, 9, 24, 23, 50, tzinfo=AMSTERDAM), tick=False):
        services.enter_results(round_4, {games[-1].pk: "1/2-1/2"})
    run_pass(datetime(2026, 9, 24, 23, 51, tzinfo=AMSTERDAM))
    assert subjects(mailoutbox) == [SUBJECT_3, "DSC: de nieuwe ranglijst na ronde 4"]


def test_an_older_ranking_is_never_mailed_after_a_newer_one(
    example_competition, jansen, mailoutbox
):
    """Ranking 3 went out; then a result of round 3 is taken away, so ranking 2 is the newest
    stored again. Round 2 was never mailed, and is not mailed now: the e-mails never go back."""
    choose_ranking_mail(example_competition, "Jansen")
    run_pass(FINAL_3)
    Game.objects.filter(round__competition=example_competition, round__number=3, board=1).update(
        result=""
    )
    services.refresh_rankings(example_competition, "Uitslag bord 1 was verkeerd ingevoerd")
    assert not example_competition.rankings.filter(after_round=3).exists()
    run_pass(FINAL_3 + timedelta(hours=1))
    assert subjects(mailoutbox) == [SUBJECT_3]
    assert example_competition.rounds.get(number=2).ranking_mailed_at is None


def test_a_second_pass_and_a_result_changed_after_the_email_send_nothing_more(
    example_competition, jansen, mailoutbox
):
    choose_ranking_mail(example_competition, "Jansen", "Slager")
    run_pass(FINAL_3)
    run_pass(FINAL_3 + timedelta(minutes=20))
    assert subjects(mailoutbox) == [SUBJECT_3] * 2
    # The arbiter corrects Jansen–Slager to a draw the next day: the standings change.
    game = Game.objects.get(round__competition=example_competition, round__number=3, board=2)
    with time_machine.travel(datetime(2026, 9, 18, 10, tzinfo=AMSTERDAM), tick=False):
        services.enter_results(game.round, {game.pk: "1/2-1/2"}, reason="typo")
    # 48 + 45 + 0 + 23½ (half of Slager's 47) = 116½.
    assert example_competition.rankings.get(after_round=3).standings.get(
        participant__member__name="Jansen"
    ).total == Fraction(233, 2)
    # The ranking e-mail is not sent again; its readers hear of the correction, once.
    run_pass(datetime(2026, 9, 18, 10, 5, tzinfo=AMSTERDAM))
    run_pass(datetime(2026, 9, 18, 10, 10, tzinfo=AMSTERDAM))
    corrected = "DSC: de ranglijst na ronde 3 is gecorrigeerd"
    assert subjects(mailoutbox) == [SUBJECT_3] * 2 + [corrected] * 2
    assert Round.objects.get(pk=game.round_id).ranking_mailed_at == FINAL_3


def test_the_rapid_competition_sends_no_ranking_email(example_competition, jansen, mailoutbox):
    """The rapid competition's rounds are played several on one evening: no e-mail for them.
    Its players are the same members (matched by name), who chose the new ranking."""
    rapid = Competition.objects.create(season=example_competition.season, kind="rapid")
    services.load_season(rapid, worked_example_season(), FIRST_EVENING, timezone.now())
    assert rapid.rankings.filter(after_round=3).exists()
    choose_ranking_mail(example_competition, "Jansen")
    run_pass(FINAL_3)
    assert [m.to for m in mailoutbox if "ranglijst" in m.subject] == [["jansen@example.org"]]
    assert subjects(mailoutbox) == [SUBJECT_3]
    assert rapid.rounds.get(number=3).ranking_mailed_at is None


def test_a_worker_killed_while_mailing_the_ranking_mails_it_next_time(
    example_competition, jansen, mailoutbox, monkeypatch
):
    choose_ranking_mail(example_competition, "Jansen")

    def crash(round_):
        raise ConnectionError("smtp down")

    monkeypatch.setattr(ranking_mail, "new_ranking", crash)
    assert run_pass(FINAL_3).failed == {"ranking e-mail": "ConnectionError: smtp down"}
    assert example_competition.rounds.get(number=3).ranking_mailed_at is None
    monkeypatch.undo()
    run_pass(FINAL_3 + timedelta(minutes=1))
    assert list(ranking_mails(mailoutbox)) == ["jansen@example.org"]


@needs_row_locks
@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_mail_the_new_ranking_once(
    example_competition, jansen, mailoutbox, monkeypatch
):
    """Worker A has claimed round 3 and is sending (not committed yet); worker B runs a whole
    pass at that moment, finds the round still due and waits for A's claim. When A commits,
    B's claim finds the round taken: each member who chose it gets exactly one e-mail."""
    choose_ranking_mail(example_competition, "Jansen", "de Vries", "Bakker")
    # The pairings were e-mailed in their week, so B's pass meets A only at the ranking claim.
    example_competition.rounds.update(pairing_mailed_at=FINAL_3 - timedelta(days=6))
    holding, release = threading.Event(), threading.Event()
    send = ranking_mail.new_ranking

    def slow_send(round_):
        if not holding.is_set():
            holding.set()
            release.wait(60)
        return send(round_)

    monkeypatch.setattr(ranking_mail, "new_ranking", slow_send)
    errors, b_done = [], threading.Event()

    def as_worker(body, done=None):
        try:
            body()
        except Exception as error:  # surfaced below
            errors.append(error)
        finally:
            connection.close()
            if done:
                done.set()

    now = FINAL_3 + timedelta(seconds=1)
    a = threading.Thread(target=as_worker, args=(lambda: worker.mail_rankings(now),))
    b = threading.Thread(target=as_worker, args=(lambda: worker.run_pass(now), b_done))
    with time_machine.travel(now, tick=False):
        a.start()
        wait_until(holding.is_set, "worker A to claim round 3")
        b.start()
        wait_until(
            lambda: another_connection_waits_for_a_lock("ranking_mailed_at"),
            "worker B to wait for A's claim",
        )
        release.set()
        a.join()
        b.join()
    assert errors == [] and b_done.is_set()
    assert sorted(ranking_mails(mailoutbox)) == [
        "Bakker@example.org",
        "deVries@example.org",
        "jansen@example.org",
    ]
    assert example_competition.rounds.get(number=3).ranking_mailed_at == now


def test_the_profile_says_what_the_new_ranking_email_brings(jansen_client):
    page = jansen_client.get(reverse("members:profile")).content.decode()
    assert "De nieuwe ranglijst" in page
    assert (
        "Na elke clubavond van de interne competitie, zodra de uitslagen definitief zijn: je "
        "nieuwe plaats, je punten van die ronde en de top van de ranglijst."
    ) in page


@override_settings(SITE_URL="https://dsc.example.org/")
def test_links_in_the_ranking_email_point_at_the_sites_address(
    example_competition, jansen, mailoutbox
):
    choose_ranking_mail(example_competition, "Jansen")
    run_pass(FINAL_3)
    to_jansen = ranking_mails(mailoutbox)["jansen@example.org"]
    assert "De hele ranglijst: https://dsc.example.org/ranglijst/" in to_jansen.body
