"""The rapid evening on one arbiter's page (issue 14): who is present, the round being played with
its results, and the next round paired from the same page, round after round.

The page lives at one address per competition and evening (`?datum=`, today by default) and
reloads itself there after every step (POST, then a redirect to the same address). Each step
calls one service, in one transaction: `pair_rapid_round` ("Indeling maken"),
`finish_rapid_round` ("Opslaan en volgende ronde indelen"), `enter_results` ("Uitslagen
opslaan") and `withdraw_rapid_round` ("Indeling intrekken"). Every step names the round the
page showed (`ronde`), so a second tap or an old page is refused rather than applied to the
round after it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from arbiter.forms import RESULT_SHORTCUTS, SHORTCUT_HELP, ResultsForm
from arbiter.pages import arbiter_page, render, tell_refused
from competition import services
from competition.models import Absence, Competition, Game, Participant, Round

EVENING_PARAMETER = "datum"
PRESENCE_PREFIX = "speler-"
CARRIED = "aanwezigheid"  # the address carries a presence not stored yet (see `carried`)
ROUND_FIELD = "ronde"
ACTION_FIELD = "actie"
PAIR, NEXT, SAVE, WITHDRAW = "indelen", "volgende", "opslaan", "intrekken"


def reasons(competition: Competition) -> list[tuple[str, str]]:
    """What an absent player can be on a rapid evening: the round page's reasons, less the
    automatic cancellation (the no-show rule belongs to the internal competition)."""
    return [
        (value, label)
        for value, label in competition.absence_reasons()
        if value != Absence.Reason.AUTO
    ]


class PresenceForm(forms.Form):
    """Who is present in the next round: one choice per player (present, or absent and why),
    so nobody can be listed twice; a player named twice in what was sent, or a player of
    another competition, is refused."""

    def __init__(
        self,
        data,
        participants: list[Participant],
        absences: dict[int, str],
        reasons: list[tuple[str, str]],
    ):
        super().__init__(data)
        self.participants = participants
        for participant in participants:
            self.fields[f"{PRESENCE_PREFIX}{participant.pk}"] = forms.ChoiceField(
                label=participant.name,
                choices=[("", _("present")), *reasons],
                required=False,
                initial=absences.get(participant.pk, ""),
            )

    def clean(self):
        data = super().clean()
        names = {f"{PRESENCE_PREFIX}{p.pk}": p.name for p in self.participants}
        problems = [
            _("%(name)s is listed more than once.") % {"name": names[name]}
            for name in names
            if len(self.data.getlist(name)) > 1
        ]
        problems += [
            _("Player %(key)s does not play in this rapid competition.")
            % {"key": name[len(PRESENCE_PREFIX) :]}
            for name in self.data
            if name.startswith(PRESENCE_PREFIX) and name not in names
        ]
        if problems:
            raise forms.ValidationError(problems)
        return data

    def absences(self) -> dict[int, str]:
        return {
            p.pk: self.cleaned_data[f"{PRESENCE_PREFIX}{p.pk}"]
            for p in self.participants
            if self.cleaned_data.get(f"{PRESENCE_PREFIX}{p.pk}")
        }

    def rows(self):
        return [
            (participant, self[f"{PRESENCE_PREFIX}{participant.pk}"])
            for participant in self.participants
        ]


@dataclass
class Evening:
    """A rapid evening as stored: its rounds, the round being played (published, a result
    still missing), the next round's number and who was absent last, and why the next round
    cannot be paired here (empty when it can)."""

    competition: Competition
    day: date
    rounds: list[Round]
    current: Round | None
    next_number: int
    absences: dict[int, str]
    problems: list[str]

    @classmethod
    def read(cls, competition: Competition, day: date, today: date) -> Evening:
        rounds = list(
            competition.rounds.filter(date=day)
            .with_result_counts()
            .select_related("bye__member")
            .order_by("number")
        )
        latest = rounds[-1] if rounds else None
        playing = (
            latest is not None and latest.is_published and latest.games_done < latest.games_total
        )
        current = latest if playing else None
        return cls(
            competition=competition,
            day=day,
            rounds=rounds,
            current=current,
            next_number=(
                current.number + 1 if current else services.next_rapid_round_number(competition)
            ),
            absences=dict(latest.absences.values_list("participant_id", "reason"))
            if latest
            else {},
            problems=[] if current else services.rapid_evening_problems(competition, day, today),
        )

    def participants(self) -> list[Participant]:
        """Everyone who plays in the next round, by name (the arbiter looks names up)."""
        players = self.competition.participants.filter(joined_round__lte=self.next_number)
        return sorted(players.select_related("member"), key=lambda p: p.name.casefold())


@arbiter_page("competition.view_competition", "competition.add_round", "competition.change_round")
def evening(request: HttpRequest, pk: int) -> HttpResponse:
    """The rapid evening page: tonight's (or `?datum=`) rounds of the rapid competition."""
    now = timezone.now()
    competition = get_object_or_404(Competition, pk=pk)
    if not competition.pairs_on_the_evening:
        return HttpResponseBadRequest(
            _("Only the rapid competition plays its rounds one after another on an evening.")
        )
    today = timezone.localdate(now)
    asked = request.GET.get(EVENING_PARAMETER)
    try:
        day = date.fromisoformat(asked) if asked else today
    except ValueError:
        return HttpResponseBadRequest(  # plain text: what was typed is not markup
            _("%(text)r is not a date like 2026-11-24.") % {"text": asked},
            content_type="text/plain; charset=utf-8",
        )
    evening = Evening.read(competition, day, today)
    here = _address(competition, asked)
    if request.method == "POST":
        return _step(request, evening, here, now)
    presence = PresenceForm(
        None,
        evening.participants(),
        carried(request.GET, competition) or evening.absences,
        reasons(competition),
    )
    results = ResultsForm(None, round_=evening.current) if evening.current else None
    return _render(request, evening, presence, results, here)


def _address(competition: Competition, asked: str | None) -> str:
    """The page's own address: the evening as asked (today's when not asked)."""
    url = reverse("arbiter:rapid-evening", args=[competition.pk])
    return f"{url}?{urlencode({EVENING_PARAMETER: asked})}" if asked else url


def carried(query, competition: Competition) -> dict[int, str] | None:
    """A presence carried in the address: "Uitslagen opslaan" stores only the results, and
    a presence changed for the next round waits there until that round is paired."""
    if CARRIED not in query:
        return None
    known = {value for value, _label in reasons(competition)}
    return {
        int(name[len(PRESENCE_PREFIX) :]): value
        for name, value in query.items()
        if name.startswith(PRESENCE_PREFIX)
        and name[len(PRESENCE_PREFIX) :].isdigit()
        and value in known
    }


def _step(request, evening: Evening, here: str, now: datetime):
    """One step of the evening: check what was sent, call its service, come back here."""
    action = request.POST.get(ACTION_FIELD)
    number = request.POST.get(ROUND_FIELD, "")
    if action not in (PAIR, NEXT, SAVE, WITHDRAW) or not number.isdigit():
        return HttpResponseBadRequest(_("Choose a step of the evening."))
    shown = None
    if action != PAIR:  # the round the page showed, on this evening
        shown = (
            evening.competition.rounds.with_result_counts()
            .filter(number=int(number), date=evening.day)
            .first()
        )
        if shown is None:
            messages.error(request, _("The page was out of date; nothing was changed."))
            return redirect(here)
    presence = PresenceForm(
        request.POST, evening.participants(), evening.absences, reasons(evening.competition)
    )
    results = ResultsForm(request.POST, round_=shown) if action in (NEXT, SAVE) else None
    forms_valid = (action in (SAVE, WITHDRAW) or presence.is_valid()) and (
        results is None or results.is_valid()
    )
    if forms_valid:
        try:
            done, target = _call(action, evening, shown, int(number), presence, results, now)
        except services.CompetitionError as refused:
            if isinstance(refused, services.OutOfDate) or action == WITHDRAW:
                # Nothing typed to keep: the page as it is now, with the reason.
                tell_refused(request, refused)
                return redirect(here)
            (results or presence).add_error(None, refused.messages)
        else:
            messages.success(request, done)
            return redirect(target or here)
    if action in (SAVE, WITHDRAW):  # the presence was not what was checked: as it was sent
        presence.is_valid()
    shown_evening = replace(evening, current=shown or evening.current)
    return _render(request, shown_evening, presence, results, here, status=400)


def _call(action, evening: Evening, shown, number, presence, results, now):
    """The step's one service; returns the sentence for the arbiter and where to go (None:
    the page's own address)."""
    if action == PAIR:
        round_, warnings = services.pair_rapid_round(
            evening.competition, evening.day, presence.absences(), number, now
        )
        return _paired(round_, warnings), None
    if action == NEXT:
        round_, warnings = services.finish_rapid_round(
            shown, results.results(), presence.absences(), now
        )
        return (
            _("Results of round %(number)s saved.") % {"number": shown.number}
            + " "
            + _paired(round_, warnings)
        ), None
    if action == SAVE:
        changed = services.save_rapid_results(shown, results.results(), now)
        done = _("%(count)s result(s) saved; the rankings are up to date.") % {"count": changed}
        # A presence changed for the next round is kept in the address until it is paired.
        presence_sent = presence.absences() if presence.is_valid() else evening.absences
        if presence_sent != evening.absences:
            return done, _with_presence(evening, presence_sent)
        return done, None
    services.withdraw_rapid_round(shown)
    return _("The pairing of round %(number)s is withdrawn.") % {"number": shown.number}, None


def _paired(round_: Round, warnings: list[str]) -> str:
    text = _("Round %(number)s is paired and published: %(boards)s board(s).") % {
        "number": round_.number,
        "boards": round_.games.count(),
    }
    if warnings:
        text += " " + _("The pairing has repeated meetings; see the warnings.")
    return text


def _with_presence(evening: Evening, absences: dict[int, str]) -> str:
    url = reverse("arbiter:rapid-evening", args=[evening.competition.pk])
    query = {EVENING_PARAMETER: evening.day.isoformat(), CARRIED: "1"}
    query |= {f"{PRESENCE_PREFIX}{pk}": reason for pk, reason in sorted(absences.items())}
    return f"{url}?{urlencode(query)}"


def _render(request, evening: Evening, presence, results, here, status: int = 200):
    current = evening.current
    absent = sum(1 for _p, field in presence.rows() if field.value())
    context = {
        "competition": evening.competition,
        "evening": evening,
        "current": current,
        "results": results,
        "boards": _boards(results) if results is not None else [],
        "presence": presence,
        "present_count": len(presence.rows()) - absent,
        "player_count": len(presence.rows()),
        "warnings": services.pairing_warning_texts(current) if current else [],
        "can_withdraw": current is not None and current.games_done == 0,
        "shortcut_help": SHORTCUT_HELP,
        "outcomes": Game.Result.choices,
        "here": here,
        "fields": {"round": ROUND_FIELD, "action": ACTION_FIELD, "date": EVENING_PARAMETER},
        "actions": {"pair": PAIR, "next": NEXT, "save": SAVE, "withdraw": WITHDRAW},
    }
    title = _("Rapid evening %(day)s") % {"day": formats.date_format(evening.day, "l j F Y")}
    return render(request, "arbiter/rapid_evening.html", title, context, status=status)


def _boards(results: ResultsForm):
    """Each board with its result field and its tap targets: (what a tap puts in the field,
    the button's label, every way of typing that result), so the page's script marks the
    button of a typed shortcut too. A tap puts in the label ("½-½"), which the field reads
    like any shortcut and which fits the field on a phone, where "1/2-1/2" does not."""
    typed = {}
    for shortcut, result in RESULT_SHORTCUTS.items():
        typed.setdefault(result.value, [result.value.lower(), result.label.lower()]).append(
            shortcut
        )
    taps = [
        (result.label, result.label, " ".join(typed[result.value]))
        for result in Game.OVER_THE_BOARD
    ]
    return [(game, field, taps) for game, field in results.rows()]
