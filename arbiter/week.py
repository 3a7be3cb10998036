"""The arbiter's start page (/beheer/): this week of the internal competition above the admin's
list of models, and what is taken from it (a result the players disagree on, a team match a
member claimed, an e-mail that did not arrive)."""

from __future__ import annotations

from datetime import datetime

from django.contrib import admin, messages
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from arbiter.pages import arbiter_page, tell_refused
from base.page_cache import public_page
from clubweek import worker as clubweek_worker
from competition import exchange, reports, services
from competition.keizer.scoring import Outcome
from competition.models import Absence, Competition, Game, Round
from competition.outcomes import OUTCOME_WORDS
from members.models import Member
from operations import outbox
from operations.models import DailyBackup, OutgoingMail, WorkerHeartbeat


@public_page
@arbiter_page()
def start_page(request: HttpRequest) -> HttpResponse:
    """The admin's index, with the week first for whoever runs the competition (other staff,
    such as the board writing articles, get the usual list only).

    Stored like a member's own copy of a public page (`base.page_cache`): once per change of
    what it shows and minute, for this session alone; a visitor never gets it (the admin's
    login answers them, and a redirect is not stored). What it shows of operations (the
    worker's heartbeat, the outbox, the backups) makes the logged-in copies old when written
    (`PERSONAL_MODELS`)."""
    if not request.user.has_perm("competition.view_round"):
        return admin.site.index(request)
    return admin.site.index(request, extra_context=this_week(timezone.now()))


def this_week(now: datetime) -> dict:
    """What the arbiter has to do this week, read from what is stored: the coming rounds
    with their stage and who is absent, open team-match claims, missing results, and when the
    worker (which publishes the pairing) was last seen."""
    today = timezone.localdate(now)
    competitions = list(Competition.objects.current(today))  # the current season's, in order
    competition = next((c for c in competitions if c.follows_the_club_week), None)
    rounds = []
    claims = []
    to_decide = []
    if competition is not None:
        week = list(competition.rounds.this_week(today).with_result_counts().order_by("number"))
        team = exchange.team_match_absences(competition, week)
        names = (
            {
                p.pk: p.name
                for p in competition.participants.filter(
                    pk__in=[participant for _round, participant in team]
                ).select_related("member")
            }
            if team
            else {}
        )
        # The players' names as `Participant.name` gives them, read with the rows.
        absences = (
            Absence.objects.filter(round__in=week)
            .annotate(participant_name=name_of("participant"))
            .order_by("participant__member__name", "participant__guest_name")
        )
        forfeits = (
            Game.objects.filter(round__in=week, result__in=list(Game.DEFAULTERS))
            .annotate(white_name=name_of("white"), black_name=name_of("black"))
            .order_by()  # sorted by name below: no join of the season for the model's order
        )
        for round_ in week:
            defaulted = sorted(  # cancelled after publication, or did not come
                game.white_name if player == game.white_id else game.black_name
                for game in forfeits
                if game.round_id == round_.pk
                for player in game.defaulters()
            )
            cancelled = [  # a line-up's team reason takes precedence (exchange)
                a
                for a in absences
                if a.round_id == round_.pk and (round_.pk, a.participant_id) not in team
            ]
            in_team = sorted(
                (names[p], str(match))
                for (round_id, p), match in team.items()
                if round_id == round_.pk
            )
            rounds.append(
                {
                    "round": round_,
                    "stage": round_.stage(now),
                    "absences": cancelled,
                    "line_ups": in_team,
                    "defaulted": defaulted,
                    # "Indeling maken" only when it can work; otherwise what the round waits for.
                    "pairing_problems": (
                        services.pairing_problems(round_)
                        if round_.stage(now) in (Round.Stage.OPEN, Round.Stage.CLOSED)
                        else []
                    ),
                    "absent": len(cancelled) + len(in_team) + len(defaulted),
                }
            )
        claims = exchange.open_team_claims(competition)
        to_decide = reports.games_to_decide(competition, now)
    # Rounds of the current season's competitions (read above: each round names its own).
    by_pk = {c.pk: c for c in competitions}
    missing = list(
        Round.objects.filter(competition__in=list(by_pk))
        .missing_results(today)
        .with_result_counts()
        .order_by()
    )
    for round_ in missing:
        round_.competition = by_pk[round_.competition_id]
    # By date, then in the competitions' own order (one season), without joining them again.
    order = {pk: place for place, pk in enumerate(by_pk)}
    missing.sort(key=lambda round_: (round_.date, order[round_.competition_id]))
    worker = WorkerHeartbeat.objects.status(now)
    return {
        "show_week": True,
        "week_competition": competition,
        "rapid_competition": next((c for c in competitions if c.pairs_on_the_evening), None),
        "week_rounds": rounds,
        "team_claims": claims,
        "to_decide": to_decide,
        "missing_results": missing,
        "member_options": member_options(Member.objects.active().order_by("name")),
        "stages": Round.Stage,
        "lost_by_default": OUTCOME_WORDS[Outcome.FORFEIT_LOSS],
        "worker": worker,
        "failing_steps": [
            {"label": clubweek_worker.label_of(step.name), "since": step.since, "error": step.error}
            for step in worker.failing
        ],
        "mail": OutgoingMail.objects.status(now),
        "failed_backup": DailyBackup.objects.failing(),
        "held_changes": list(Competition.objects.open().filter(held_since__isnull=False)),
    }


def name_of(participant: str) -> Coalesce:
    """A participant's name as `Participant.name` gives it (the member's, else the guest's),
    from a row that refers to it: no participant or member objects for a sentence."""
    return Coalesce(f"{participant}__member__name", f"{participant}__guest_name")


def member_options(members) -> str:
    """The phoning member's select's options, one per active member: written here, as the
    template wrote them, in a tenth of its time (some 150 members)."""
    return mark_safe(
        "".join(
            f'<option value="{pk}">{escape(name)}</option>'
            for pk, name in members.values_list("pk", "name")
        )
    )


@arbiter_page("competition.change_round")
def decide_result(request: HttpRequest, pk: int) -> HttpResponse:
    """The arbiter takes one of the results the players entered (the start page's buttons);
    the results page changes anything else."""
    if request.method != "POST":
        return redirect("admin:index")
    game = get_object_or_404(Game.objects.select_related("round"), pk=pk)
    result = request.POST.get("result", "")
    try:
        services.decide_result(game, result, user=request.user)
    except services.CompetitionError as refused:
        tell_refused(request, refused)
    else:
        messages.success(
            request,
            _("Round %(number)s, board %(board)s: %(result)s.")
            % {
                "number": game.round.number,
                "board": game.board,
                "result": Game.Result(result).label,
            },
        )
    return redirect("admin:index")


@arbiter_page("competition.change_absence")
def decide_team_claim(request: HttpRequest, pk: int) -> HttpResponse:
    """The arbiter's word on a team match a member claimed (the start page's buttons)."""
    if request.method != "POST":
        return redirect("admin:index")
    absence = get_object_or_404(
        Absence.objects.select_related("round", "participant__member"), pk=pk
    )
    decision = request.POST.get("decision")
    if decision not in ("confirm", "refuse"):
        return HttpResponseBadRequest(_("Confirm or refuse the claim."))
    confirmed = decision == "confirm"
    try:
        services.decide_team_claim(absence, confirmed=confirmed)
    except services.CompetitionError as refused:
        tell_refused(request, refused)
    else:
        text = (
            _("%(name)s: team match in round %(number)s confirmed.")
            if confirmed
            else _("%(name)s: team match in round %(number)s refused (cancelled in time).")
        )
        messages.success(
            request, text % {"name": absence.participant.name, "number": absence.round.number}
        )
    return redirect("admin:index")


@arbiter_page("operations.change_outgoingmail")
def send_mail_again(request: HttpRequest, pk: int) -> HttpResponse:
    """An e-mail that failed for good, or may have arrived, sent again (the start page's
    button)."""
    if request.method != "POST":
        return redirect("admin:index")
    try:
        row = outbox.send_again(pk, timezone.now())
    except OutgoingMail.DoesNotExist:
        messages.error(request, _("That e-mail is no longer waiting to be sent again."))
    else:
        messages.success(
            request,
            _("The e-mail to %(address)s is sent again in the worker's next pass.")
            % {"address": row.recipient},
        )
    return redirect("admin:index")


@arbiter_page("operations.change_outgoingmail")
def leave_mail_as_sent(request: HttpRequest, pk: int) -> HttpResponse:
    """An e-mail that may have arrived, not sent again (the start page's other button)."""
    if request.method != "POST":
        return redirect("admin:index")
    try:
        row = outbox.leave_as_sent(pk, timezone.now())
    except OutgoingMail.DoesNotExist:
        messages.error(request, _("That e-mail is no longer waiting for a decision."))
    else:
        messages.success(
            request, _("The e-mail to %(address)s is not sent again.") % {"address": row.recipient}
        )
    return redirect("admin:index")
