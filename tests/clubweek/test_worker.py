"""The worker's pass (`clubweek/worker.py`, run by `manage.py run_worker`): the pairing
appears at its time, once, never from stale data; waiting notices, pairing e-mails, crash
safety, two workers at once; and rankings that follow line-ups changed anywhere."""

import re
import threading
from datetime import date, datetime, timedelta
from io import StringIO

import pytest
import time_machine
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubweek import pairing_mail, worker
from competition import services as competition_services
from competition.keizer.scoring import Outcome as Scored
from competition.models import Absence, Competition, Game, Round, Season, Standing
from competition.services import pairing as pairing_services
from members.models import ExternalGame, Team, TeamMatch
from operations.models import WorkerHeartbeat
from tests.factories import (
    make_line_up,
    make_played_competition,
    make_round_1_with_two_cancelled,
    worked_example_season,
)
from tests.moments import AMSTERDAM, EVENING_4, at
from tests.races import at_once, errors_of, needs_row_locks
from tests.waiting import another_connection_waits_for_a_lock, wait_until

FRIDAY_20 = at(20)


def run_worker(moment) -> str:
    """The command's single pass, as cron or the loop runs it."""
    out = StringIO()
    with time_machine.travel(moment, tick=False):
        call_command("run_worker", stdout=out)
    return out.getvalue()


def run_pass(moment):
    with time_machine.travel(moment, tick=False):
        return worker.run_pass(moment)


def test_nothing_is_published_before_eight(round_4):
    run_worker(datetime(2026, 9, 18, 19, 59, 59, tzinfo=AMSTERDAM))
    round_4.refresh_from_db()
    assert not round_4.is_published and not round_4.games.exists()


def test_at_eight_the_round_is_paired_and_published_once(round_4):
    output = run_worker(FRIDAY_20)
    round_4.refresh_from_db()
    assert round_4.published_at == FRIDAY_20 and round_4.games.count() == 5
    assert "published: Ronde 4" in output
    games = list(round_4.games.values_list("board", "white_id", "black_id"))
    assert run_worker(datetime(2026, 9, 18, 21, 30, tzinfo=AMSTERDAM)) == ""
    round_4.refresh_from_db()
    assert round_4.published_at == FRIDAY_20
    assert list(round_4.games.values_list("board", "white_id", "black_id")) == games


def test_every_pass_records_the_workers_heartbeat_even_with_nothing_to_do(db):
    run_worker(at(10))
    assert WorkerHeartbeat.objects.status(at(10)).seen_at == at(10)
    run_worker(at(10, minute=20))
    assert WorkerHeartbeat.objects.status(at(10, minute=20)).seen_at == at(10, minute=20)
    assert WorkerHeartbeat.objects.count() == 1


def test_a_single_pass_with_a_failing_step_does_the_rest_and_exits_with_an_error(
    round_4, monkeypatch
):
    """For cron: the whole turn runs (the round is published), the heartbeat names the step,
    and the command's exit status says something failed."""

    def broken(now):
        raise RuntimeError("the no-show rule broke")

    monkeypatch.setattr(worker, "STEPS", with_step_replaced("no-show rule", broken))
    with pytest.raises(CommandError, match="failed: no-show rule"):
        run_worker(FRIDAY_20)
    assert Round.objects.get(pk=round_4.pk).is_published
    status = WorkerHeartbeat.objects.status(FRIDAY_20)
    assert status.seen_at == FRIDAY_20
    assert [(step.name, step.error) for step in status.failing] == [
        ("no-show rule", "RuntimeError: the no-show rule broke")
    ]


def with_step_replaced(name, run):
    steps = [step._replace(run=run) if step.name == name else step for step in worker.STEPS]
    assert len({step.name for step in steps}) == len(steps) and name in {s.name for s in steps}
    return tuple(steps)


def test_publication_is_claimed_once_under_the_rounds_lock(paired_round_4):
    """Issue 35: it was claimed three ways (the worker's row lock, the service's lock again, a
    conditional update and a second save). Now the round's lock is the one claim, taken once,
    and the publication is one write that leaves its history."""
    with CaptureQueriesContext(connection) as queries:
        assert run_pass(FRIDAY_20).published == [paired_round_4]
    sql = [query["sql"] for query in queries]
    writes = [q for q in sql if re.match(r'\s*UPDATE "competition_round" SET "published_at"', q)]
    assert len(writes) == 1
    locks = [q for q in sql if "FOR UPDATE" in q and 'FROM "competition_round"' in q]
    assert len(locks) == (1 if connection.features.has_select_for_update else 0)
    history = Round.history.filter(id=paired_round_4.pk).order_by("-history_id").first()
    assert history.history_change_reason == "Indeling gepubliceerd"


def test_a_worker_that_was_down_catches_up(round_4):
    run_worker(datetime(2026, 9, 18, 21, 30, tzinfo=AMSTERDAM))
    round_4.refresh_from_db()
    assert round_4.published_at == datetime(2026, 9, 18, 21, 30, tzinfo=AMSTERDAM)


def test_the_arbiters_draft_is_published_as_reviewed(paired_round_4):
    round_4 = paired_round_4
    first = round_4.games.get(board=1)
    first.white_id, first.black_id = first.black_id, first.white_id
    first.save()
    run_worker(FRIDAY_20)
    first.refresh_from_db()
    assert round_4.games.count() == 5 and Round.objects.get(pk=round_4.pk).is_published
    assert Game.objects.get(pk=first.pk).white_id == first.white_id


def test_nothing_is_published_while_a_result_of_the_previous_round_is_missing(round_4):
    Game.objects.filter(round__number=3, board=2).update(result="")
    run_worker(FRIDAY_20)
    round_4.refresh_from_db()
    assert not round_4.is_published and not round_4.games.exists()


def test_an_inconsistent_draft_is_not_published(paired_round_4):
    round_4 = paired_round_4
    seated = round_4.games.first().white_id
    Absence.objects.create(round=round_4, participant_id=seated, reason="excused")
    run_worker(FRIDAY_20)
    round_4.refresh_from_db()
    assert not round_4.is_published


def test_a_missing_result_holds_the_pairing_tells_the_arbiter_once_and_the_site_says_so(
    round_4, jansen, client, mailoutbox
):
    Game.objects.filter(round__number=3, board=2).update(result="")
    run_pass(at(20))
    run_pass(at(20, 20))
    round_4.refresh_from_db()
    assert not round_4.is_published
    notices = [m for m in mailoutbox if "wacht" in m.subject]
    assert len(notices) == 1 and notices[0].to == ["wedstrijdleider@dscdrachten.nl"]
    assert "ronde 3 is niet compleet" in notices[0].body
    with time_machine.travel(at(21), tick=False):
        page = client.get(reverse("competition:pairing")).content.decode()
    assert "De indeling wacht op de uitslagen van de vorige ronde" in page
    Game.objects.filter(round__number=3, board=2).update(result="1/2-1/2")
    run_pass(at(21, 30))
    round_4.refresh_from_db()
    assert round_4.published_at == at(21, 30) and round_4.games.count() == 5


def test_every_paired_member_gets_board_colour_and_opponent_once(round_4, jansen, mailoutbox):
    run_pass(at(20))
    round_4.refresh_from_db()
    pairing_mails = [m for m in mailoutbox if "je indeling" in m.subject]
    assert len(pairing_mails) == 10
    first = round_4.games.select_related("white__member", "black__member").get(board=1)
    to_white = next(m for m in pairing_mails if m.to == [first.white.member.email])
    assert f"Bord 1: je speelt met wit tegen {first.black.name}." in to_white.body
    run_pass(at(20, 20))
    assert len([m for m in mailoutbox if "je indeling" in m.subject]) == 10


def test_the_bye_player_is_told_too(round_4, jansen, mailoutbox, example_competition):
    example_competition.bye_fraction = "1/2"  # the e-mail tells this competition's share
    example_competition.save()
    Absence.objects.create(
        round=round_4,
        participant=example_competition.participants.get(member__name="Jansen"),
        reason="excused",
    )
    run_pass(at(20))
    round_4.refresh_from_db()
    assert round_4.published_at == at(20)  # paired and published in one pass, bye included
    bye_mail = next(m for m in mailoutbox if m.to == [round_4.bye.member.email])
    # Bakker, last in ranking 3 (value 41), gets half of it.
    assert round_4.bye.name == "Bakker"
    assert "Je bent deze ronde vrij: je krijgt ½ van je waarde 41 = 20½ punten" in bye_mail.body
    assert not any(m.to == [jansen.email] for m in mailoutbox)


def test_past_evenings_are_not_mailed(example_competition, jansen, mailoutbox):
    run_pass(at(20))
    assert mailoutbox == []  # rounds 1-3 are published, but their evenings are over


def test_a_pairing_published_on_the_evening_is_mailed_only_before_play_starts(
    paired_round_4, jansen, mailoutbox
):
    """Play starts at 19:45 (the rules' club week): a pairing mailed after that would reach
    players already at the board, so a late publication, or a worker catching up on the
    evening, sends nothing. Before 19:45 the e-mail still helps and goes out."""
    competition_services.publish(paired_round_4, at(19, 50, day=EVENING_4))
    run_pass(at(19, 50, day=EVENING_4))
    run_pass(at(23, day=EVENING_4))
    assert [m for m in mailoutbox if "je indeling" in m.subject] == []
    paired_round_4.refresh_from_db()
    assert paired_round_4.pairing_mailed_at is None


def test_a_pairing_published_on_the_evening_before_play_is_still_mailed(
    paired_round_4, jansen, mailoutbox
):
    competition_services.publish(paired_round_4, at(19, 40, day=EVENING_4))
    run_pass(at(19, 44, day=EVENING_4))
    assert len([m for m in mailoutbox if "je indeling" in m.subject]) == 10


def test_a_worker_killed_while_publishing_leaves_nothing_half_done(round_4, monkeypatch):
    """Killed after the engine paired the round, before its publication was stored."""

    def crash(*args):
        raise SystemExit("killed")

    monkeypatch.setattr(pairing_services, "_publish_locked", crash)
    with pytest.raises(SystemExit):
        run_pass(at(20))
    round_4.refresh_from_db()
    assert not round_4.is_published and not round_4.games.exists()
    monkeypatch.undo()
    run_pass(at(20, 5))
    round_4.refresh_from_db()
    assert round_4.is_published and round_4.games.count() == 5


def test_a_worker_killed_while_mailing_mails_again_next_time(
    round_4, jansen, mailoutbox, monkeypatch
):
    real = pairing_mail.pairing

    def crash(round_):
        raise ConnectionError("smtp down")

    monkeypatch.setattr(pairing_mail, "pairing", crash)
    assert run_pass(at(20)).failed == {"pairing e-mail": "ConnectionError: smtp down"}
    assert Round.objects.get(pk=round_4.pk).pairing_mailed_at is None
    monkeypatch.setattr(pairing_mail, "pairing", real)
    run_pass(at(20, 1))
    assert len([m for m in mailoutbox if "je indeling" in m.subject]) == 10


@needs_row_locks
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("trial", range(10))
def test_two_workers_at_once_publish_and_mail_once(round_4, jansen, mailoutbox, trial):
    """A free race, many times: one publication, ten pairing e-mails, no false alarm."""

    def as_worker():
        worker.run_pass(at(20) + timedelta(seconds=1))

    with time_machine.travel(at(20, 0, 1), tick=False):
        errors = errors_of(at_once(as_worker, as_worker))
    assert errors == []
    round_4.refresh_from_db()
    assert round_4.is_published and round_4.games.count() == 5
    assert len([m for m in mailoutbox if "je indeling" in m.subject]) == 10
    assert [m.subject for m in mailoutbox if "wacht" in m.subject] == []


@override_settings(SITE_URL="https://dsc.example.org/")
def test_links_in_the_pairing_email_point_at_the_sites_address(round_4, jansen, mailoutbox):
    run_pass(at(20))
    [to_jansen] = [m for m in mailoutbox if m.to == [jansen.email]]
    assert "https://dsc.example.org/indeling/" in to_jansen.body


def test_a_line_up_entered_outside_the_admin_reaches_the_rankings_in_the_next_pass(db):
    """De Wit cancelled round 1 in time (⅓); a line-up for the day after, written by a
    command or another service rather than the admin, makes it a team absence (⅔)."""
    competition, pk = make_round_1_with_two_cancelled()
    de_wit = competition.participants.get(pk=pk["de-wit"])

    def round_1_points():
        ranking = competition.rankings.get(after_round=1)
        return ranking.standings.get(participant=de_wit).round_points[0], ranking.appearance_of(
            de_wit.pk
        )[0]

    assert round_1_points() == (14, Scored.EXCUSED)  # a third of his value 42
    team = Team.objects.create(season=competition.season.name, name="DSC 2", league="FSB")
    match = TeamMatch.objects.create(team=team, date=date(2026, 9, 4), opponent="Sneek")
    ExternalGame.objects.create(
        match=match, board=1, member=de_wit.member, colour="black", opponent_name="Y"
    )
    assert round_1_points() == (14, Scored.EXCUSED)  # nothing recomputes by itself
    run_pass(at(12))
    # Round 1's ranking is final: the change waits for the arbiter's reason (issue 35).
    assert round_1_points() == (14, Scored.EXCUSED)
    assert Competition.objects.get(pk=competition.pk).held_since == at(12)
    run_pass(at(12, 1))  # held once: the same change is not held anew
    assert Competition.objects.get(pk=competition.pk).held_since == at(12)
    held = Competition.objects.get(pk=competition.pk).held_inputs
    competition_services.correct_rankings(competition, "Opstelling DSC 2 ingevoerd", held)
    assert round_1_points() == (28, Scored.TEAM)  # two thirds of 42
    assert competition.rankings.get(after_round=1).correction == "Opstelling DSC 2 ingevoerd"
    assert Competition.objects.get(pk=competition.pk).held_since is None


def test_a_setting_changed_behind_the_admins_back_waits_in_every_season_not_closed(
    example_competition,
):
    """Next season is being prepared while this one runs (so it is not the current season),
    and last season is still open while this one has begun: a setting changed behind the
    admin's back (which shows it read-only once a round is paired) reaches each one's worker
    pass, which holds it for the arbiter's reason, since ranking 0 and the rankings of final
    rounds are published (issue 35); a closed season stays as it is."""
    future, _pk = make_played_competition(worked_example_season(1), date(2030, 9, 5))
    closed, _pk = make_played_competition(worked_example_season(1), date(2020, 9, 3))
    Season.objects.filter(pk=closed.season_id).update(is_closed=True)
    for competition in (example_competition, future, closed):
        Competition.objects.filter(pk=competition.pk).update(top_value=60)  # as the admin saves

    def top(competition):
        return Standing.objects.filter(ranking__competition=competition, position=1).values_list(
            "value", flat=True
        )

    run_pass(at(12))
    assert set(top(example_competition)) == set(top(closed)) == {50}
    ranking_0 = Standing.objects.filter(ranking__competition=future, ranking__after_round=0)
    assert set(ranking_0.filter(position=1).values_list("value", flat=True)) == {50}  # final
    assert set(top(future)) == {50, 60}  # its later rankings, not final in 2030, follow
    held = dict(Competition.objects.values_list("pk", "held_since"))
    assert held == {example_competition.pk: at(12), future.pk: at(12), closed.pk: None}
    future.refresh_from_db()
    competition_services.correct_rankings(future, "Topwaarde 60 afgesproken", future.held_inputs)
    assert set(top(future)) == {60}


def test_a_failing_refresh_does_not_keep_the_pass_from_publishing(round_4, monkeypatch, caplog):
    def broken(competition):
        raise RuntimeError("engine trouble")

    monkeypatch.setattr(competition_services, "refresh_rankings", broken)
    done = run_pass(at(20))
    assert done.published == [round_4]
    assert done.failed["rankings"].endswith("RuntimeError: engine trouble")
    assert "refreshing the rankings" in caplog.text


def test_a_round_with_a_player_away_for_a_team_match_is_published_by_itself(round_4):
    jansen = round_4.competition.participants.get(member__name="Jansen")
    make_line_up(jansen, round_4.date + timedelta(days=1))
    run_pass(at(20))
    round_4.refresh_from_db()
    assert round_4.is_published and jansen.pk not in round_4.seated_ids()


@needs_row_locks
@pytest.mark.django_db(transaction=True)
def test_a_worker_that_skips_a_round_another_is_publishing_does_not_report_it(
    round_4, jansen, mailoutbox, monkeypatch
):
    """Worker A holds round 4 (paired, not yet committed); worker B runs a whole pass at that
    moment. B must neither publish it nor tell the arbiter it waits: A is publishing it."""
    holding, release = threading.Event(), threading.Event()
    publish_locked = pairing_services._publish_locked  # under the round's lock, paired
    first = threading.Event()

    def slow_publish(round_, now):
        if not first.is_set():
            first.set()
            holding.set()
            release.wait(60)
        return publish_locked(round_, now)

    monkeypatch.setattr(pairing_services, "_publish_locked", slow_publish)
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

    now = at(20, 0, 1)
    a = threading.Thread(target=as_worker, args=(lambda: worker.publish_due_rounds(now),))
    b = threading.Thread(target=as_worker, args=(lambda: worker.run_pass(now), b_done))
    with time_machine.travel(now, tick=False):
        a.start()
        wait_until(holding.is_set, "worker A to hold the round")
        b.start()
        wait_until(
            lambda: b_done.is_set() or another_connection_waits_for_a_lock(), "worker B to finish"
        )
        release.set()
        a.join()
        b.join()
    assert errors == []
    round_4.refresh_from_db()
    assert round_4.is_published and round_4.waiting_notice_at is None
    assert [m.subject for m in mailoutbox if "wacht" in m.subject] == []
