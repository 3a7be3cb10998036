"""A round's steps for the arbiter: its page (the round's own fields, who is absent and why,
the draft's boards to review), the pairing, the publication, the results and the printed
evening kit. Each step reads the round once, calls one service and comes back to the round's
page; a refusal changes nothing and says why."""

from __future__ import annotations

import copy
from dataclasses import dataclass

from django import forms
from django.contrib import messages
from django.contrib.admin.models import ADDITION, CHANGE, LogEntry
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from arbiter.forms import (
    SHORTCUT_HELP,
    AbsenceFormSet,
    BoardFormSet,
    ChangeReasonForm,
    CorrectionReasonForm,
    ResultsForm,
    RoundForm,
)
from arbiter.pages import arbiter_page, may, posted, render, tell_refused
from competition import downloads, exchange, reports, services
from competition.amounts import format_amount
from competition.models import Game, Round

CHANGE_ROUND = "competition.change_round"
# The admin's own helpers, which its date and time pickers need (a model admin's media has it).
ADMIN_SCRIPT = forms.Media(js=["admin/js/core.js"])


def round_or_404(pk: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("competition__season", "bye__member"), pk=pk
    )


def back(round_: Round) -> HttpResponse:
    return redirect("arbiter:round", round_.pk)


# -- the round's page ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Rights:
    """What an account may do with a kind of row of a round's page (the admin's reading of
    the model's permissions): see them, and while `open`, add, change or delete them."""

    view: bool
    add: bool = False
    change: bool = False
    delete: bool = False

    @classmethod
    def of(cls, user, model: str, open_: bool) -> Rights:
        def has(action: str) -> bool:
            return may(user, f"competition.{action}_{model}")

        return cls(
            view=has("view"),
            add=open_ and has("add"),
            change=open_ and has("change"),
            delete=open_ and has("delete"),
        )

    @property
    def editable(self) -> bool:
        return self.add or self.change or self.delete


@dataclass(frozen=True)
class Editable:
    """What of a round its page lets this account change: its own fields until it is
    published, the draft's boards, who is absent and why. A page that showed a draft (its
    boards' rows were sent) is read as a draft's page even when the round was published
    meanwhile: the service then refuses it (`services.OutOfDate`) instead of the page dropping
    what it showed."""

    fields: bool
    games: Rights
    absences: Rights

    @classmethod
    def of(cls, user, round_: Round | None, showed_a_draft: bool = False) -> Editable:
        if round_ is None:  # a new round: its fields first, then its page
            return cls(may(user, "competition.add_round"), Rights(False), Rights(False))
        change = may(user, CHANGE_ROUND)
        draft = not round_.is_published or showed_a_draft
        return cls(
            fields=change and draft,
            games=Rights.of(user, "game", change and draft),
            absences=Rights.of(user, "absence", change),
        )

    @property
    def anything(self) -> bool:
        return self.fields or self.games.editable or self.absences.editable


@arbiter_page("competition.view_round")
def round_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A round: its club evening and publication time, the bye, who is absent and why, and
    the draft's boards to review. Stored together by `services.save_round`, which checks them
    as a whole; a page opened before the round was paired or published is shown again as it is
    now instead of being applied.

    A draft with boards is shown to be read (issue 37): the boards as a list like the public
    pairing with each player's place, value and last colours (`_review`), Wijzigen per board
    (`?bord=N`: that board's selects, no script needed), the round's own fields and its delete
    link folded in a closed <details>. Every board is still sent (hidden fields), so a save
    goes through the same checks as before."""
    return _round_page(request, round_or_404(pk))


@arbiter_page("competition.add_round")
def new_round(request: HttpRequest) -> HttpResponse:
    """A round of its own (the seasons' rounds are made with the season): its fields first."""
    return _round_page(request, None)


def _round_page(request: HttpRequest, round_: Round | None) -> HttpResponse:
    editable = Editable.of(request.user, round_, showed_a_draft(request))
    if request.method == "POST" and not editable.anything:
        raise PermissionDenied
    players = list(round_.competition.participants.names().items()) if round_ else []
    names = dict(players)
    games = list(round_.games.order_by("board")) if round_ else []
    absences = list(round_.absences.order_by("pk")) if round_ else []
    data = request.POST if request.method == "POST" else None
    form = RoundForm(  # on a copy: the page keeps saying what is stored
        data if editable.fields else None,
        instance=copy.copy(round_) if round_ else Round(),
        players=players if round_ else None,
    )
    boards = BoardFormSet(
        data if editable.games.editable else None,
        prefix="games",
        form_kwargs={"players": players},
        initial=[
            {"id": g.pk, "board": g.board, "white": g.white_id, "black": g.black_id} for g in games
        ],
    ).allow(editable.games)
    absent = AbsenceFormSet(
        data if editable.absences.editable else None,
        prefix="absences",
        form_kwargs={
            "players": players,
            "reasons": round_.competition.absence_reasons() if round_ else None,
        },
        initial=[
            {"id": a.pk, "participant": a.participant_id, "reason": a.reason} for a in absences
        ],
    ).allow(editable.absences)
    # A draft with boards to review: a read-only list, one board at a time made editable.
    review = round_ is not None and not round_.is_published and bool(games)
    review = review and editable.games.editable
    now = timezone.now()
    # A published round whose results are final: a changed absence corrects its ranking, and
    # the page asks why (the service refuses the change without it).
    correcting = (
        round_ is not None
        and round_.is_published
        and not round_.results_are_provisional(now)
        and editable.absences.editable
    )
    reason_form = CorrectionReasonForm(data, prefix="correction") if correcting else None
    if reason_form is not None:
        reason_form.fields["reason"].required = False
    sent = [part for part in (form, boards, absent, reason_form) if part and part.is_bound]
    problems = []
    if sent and all(part.is_valid() for part in sent):
        target = form.instance if form.is_bound else round_
        try:
            services.save_round(
                target,
                absences=absent.absences() if absent.is_bound else None,
                boards=boards.boards() if boards.is_bound else None,
                based_on=boards.shown() if boards.is_bound else None,
                reason=reason_form.cleaned_data["reason"].strip() if reason_form else "",
                now=now,
            )
        except services.OutOfDate as stale:  # nothing saved: the page as it is now
            tell_refused(request, stale)
            return back(round_)
        except services.CompetitionError as refused:
            problems = refused.messages
        else:
            LogEntry.objects.log_actions(  # the admin's "recent actions", as before
                request.user.pk, [target], CHANGE if round_ else ADDITION, single_object=True
            )
            messages.success(request, _("%(round)s is saved.") % {"round": target})
            return back(target)
    return render(
        request,
        "arbiter/round.html",
        str(round_) if round_ else _("New round"),
        {
            "round": round_,
            "form": form,
            "boards": boards,
            "absent": absent,
            "games": games,
            "game_rows": game_rows(games, names),
            "review": review,
            **(_review(request, round_, boards, names) if review else {}),
            "absence_rows": absence_rows(absent) if editable.absences.editable else "",
            "absences": [(a, names[a.participant_id]) for a in absences],
            "reason_form": reason_form,
            "editable": editable,
            "problems": problems,
            "pairing_problems": services.pairing_problems(round_) if round_ else [],
            "errors": bool(problems) or any(part.errors for part in sent),
            "media": ADMIN_SCRIPT + form.media,
            **_about(round_, names),
        },
    )


def game_rows(games: list[Game], names: dict[int, str]) -> SafeString:
    """The pairing's boards as the round page shows them when they cannot change (board,
    white, black, result), written here as the template wrote them: a template loop over
    some 75 boards took a sixth of the page's time."""
    labels = {value: str(label) for value, label in Game.Result.choices}
    return mark_safe(
        "".join(
            f'\n              <tr class="form-row"><td>{game.board}</td>'
            f"<td>{escape(names[game.white_id])}</td><td>{escape(names[game.black_id])}</td>"
            f"<td>{escape(labels.get(game.result, game.result) or '-')}</td></tr>\n"
            "              "
            for game in games
        )
    )


def _review(request: HttpRequest, round_: Round, boards: BoardFormSet, names) -> dict:
    """The draft as a list to read: each player's place and value in the ranking it was
    paired from and their last colours (`services.pairing_basis`, a few queries for the
    whole round), a forced repeat named at its board. Only the board asked for
    (`?bord=N`) or one with an error shows its selects; the others keep their values as
    hidden fields, so a save sends every board to `services.save_round` as before."""
    ranking, basis = services.pairing_basis(round_)
    asked = request.GET.get("bord", "")
    return {
        "review_ranking": ranking,
        "recent_games": services.RECENT_GAMES,
        "review_rows": review_rows(
            boards,
            names,
            basis,
            round_.pairing_warnings or [],
            int(asked) if asked.isdigit() else None,
            request.path,
        ),
    }


def review_rows(
    boards: BoardFormSet,
    names: dict[int, str],
    basis: dict,
    repeats: list[dict],
    asked: int | None,
    path: str,
) -> SafeString:
    """The draft's boards as rows to read (board, White, Black, Wijzigen), written here for
    speed as `game_rows` is; the board asked for and a board with an error as selects."""
    met = {frozenset((r["first"], r["second"])): r["rounds"] for r in repeats}
    words = {"white": _("white"), "black": _("black")}
    change, cancel, save = _("Change"), _("Cancel the change"), _("Save")
    remove, board_word = _("Delete this board"), _("board")
    written = []
    for row in boards:
        number = row["board"].value()
        anchor = f"bord-{escape(number)}"
        keys = [_key(row["white"].value()), _key(row["black"].value())]
        if row.errors or str(number) == str(asked) or any(key not in names for key in keys):
            deleted = (
                f'<div class="delete-board">{row["DELETE"]} <label for="'
                f'{row["DELETE"].id_for_label}">{escape(remove)}</label></div>'
                if "DELETE" in row.fields
                else ""
            )
            board = (  # the number stays as it is unless it is what was wrong
                _labelled(row, "board", _("board"))
                if row["board"].errors
                else f'<input type="hidden" name="{row.add_prefix("board")}" '
                f'value="{escape(number)}">{escape(number)}'
            )
            sides = "".join(
                _labelled(row, side, words[side], shown=True) for side in ("white", "black")
            )
            written.append(
                f'\n<tr class="form-row review-row editing" id="{anchor}">'
                f'<td class="field-board">{row["id"]}{board}</td>'
                f'<td class="field-players" colspan="2">{sides}{deleted}</td>'
                f'<td class="review-action"><input type="submit" name="_save" '
                f'value="{escape(save)}" class="default"> <a href="{escape(path)}#{anchor}">'
                f"{escape(cancel)}</a></td></tr>\n"
            )
            continue
        hidden = "".join(
            f'<input type="hidden" name="{row.add_prefix(name)}" value="{escape(value)}">'
            for name, value in (("board", number), ("white", keys[0]), ("black", keys[1]))
        )
        cells = "".join(
            f'<td class="field-{side}"><span class="player">{escape(names.get(key, "?"))}'
            f'</span> <span class="basis">{escape(_basis_text(basis.get(key), words))}</span></td>'
            for side, key in zip(("white", "black"), keys, strict=True)
        )
        repeat = met.get(frozenset(keys))
        note = (
            '<tr class="repeat-note"><td></td><td colspan="3">'
            + escape(
                _("%(first)s and %(second)s already met this period (round %(rounds)s).")
                % {
                    "first": names.get(keys[0], "?"),
                    "second": names.get(keys[1], "?"),
                    "rounds": ", ".join(str(r) for r in repeat),
                }
            )
            + "</td></tr>"
            if repeat
            else ""
        )
        written.append(
            f'\n<tr class="form-row review-row" id="{anchor}"><td class="field-board">'
            f"{row['id']}{hidden}{escape(number)}</td>{cells}"
            f'<td class="review-action"><a href="?bord={escape(number)}#{anchor}">'
            f'{escape(change)}<span class="visually-hidden"> '
            f"{escape(board_word)} {escape(number)}</span></a></td></tr>{note}\n"
        )
    return mark_safe("".join(written))


def _key(value) -> int | None:
    return int(value) if str(value).isdigit() else None


def _basis_text(basis, words: dict[str, str]) -> str:
    """ "place 3 · value 88 · white, black, white" for a player of a draft under review."""
    if basis is None:
        return ""
    standing = (
        _("place %(place)s · value %(value)s") % {"place": basis.place, "value": basis.value}
        if basis.place is not None
        else _("not in the ranking yet")
    )
    played = ", ".join(words[c] for c in basis.colours) if basis.colours else _("no game yet")
    return f"{standing} · {played}"


def absence_rows(rows: AbsenceFormSet) -> SafeString:
    """The absences' rows as arbiter/_absence_row.html writes each (that template stays the
    empty row the page adds from): some 20 rows with selects of every player, where the
    template's work per row took a fifth of the page's time."""
    player, reason, delete = (
        conditional_escape(text)
        for text in (capfirst(_("player")), capfirst(_("reason")), _("Delete?"))
    )
    written = []
    for row in rows:
        deleted = (
            f'<td class="delete">{_labelled(row, "DELETE", delete)}</td>'
            if "DELETE" in row.fields
            else ""
        )
        written.append(
            f'\n<tr class="form-row">\n  <td class="field-participant">{row["id"]}'
            f'{_labelled(row, "participant", player)}</td>\n  <td class="field-reason">'
            f"{_labelled(row, 'reason', reason)}</td>\n  {deleted}\n</tr>\n"
        )
    return mark_safe("".join(written))


def _labelled(row: forms.Form, name: str, label: str, shown: bool = False) -> str:
    """A row's field with its label and its errors: the label hidden, as the row template
    writes it, or `shown` above it (a board's "Wit" and "Zwart" under review)."""
    bound = row[name]
    errors = row.errors.get(name)
    if shown:
        return (
            f'<div class="side"><label for="{bound.id_for_label}">{capfirst(label)}</label>'
            f"{errors if errors else ''}{bound}</div>"
        )
    return (
        f'<label for="{bound.id_for_label}" class="visually-hidden">{label}</label>'
        f"{errors if errors else ''}{bound}"
    )


def showed_a_draft(request: HttpRequest) -> bool:
    """The page sent was a draft's: it had the boards' rows (a published round's page has
    none), even when it showed no board yet."""
    return request.method == "POST" and "games-TOTAL_FORMS" in request.POST


def _about(round_: Round | None, names: dict[int, str]) -> dict:
    """What the round's page says above its fields: the pairing's forced repeats and who is
    away for a team match (from the line-ups)."""
    if round_ is None:
        return {}
    team = exchange.team_match_absences(round_.competition, [round_])
    return {
        "pairing_warnings": services.pairing_warning_texts(round_),
        "team_absences": sorted((names[p], str(match)) for (_r, p), match in team.items()),
        "team_share": format_amount(round_.competition.team_fraction),
    }


# -- pairing and publication --------------------------------------------------------------------


@arbiter_page(CHANGE_ROUND)
def pair(request: HttpRequest, pk: int) -> HttpResponse:
    """Indeling maken: the engine pairs the round (again), as a draft to review."""
    round_ = round_or_404(pk)
    if request.method != "POST":
        return back(round_)
    try:
        warnings = services.make_pairing(round_)
    except services.CompetitionError as refused:
        tell_refused(request, refused)
    else:
        messages.info(request, _("The pairing is made; review it and publish."))
        if warnings:
            messages.warning(request, _("The pairing has repeated meetings; see the warnings."))
    return back(round_)


@arbiter_page(CHANGE_ROUND)
def publish(request: HttpRequest, pk: int) -> HttpResponse:
    """Indeling publiceren; before the cancellation deadline only after a confirmation that
    names who is e-mailed the pairing (members can still cancel in time until then)."""
    now = timezone.now()
    round_ = round_or_404(pk)
    if request.method != "POST":
        return back(round_)
    early = not round_.is_published and round_.cancels_in_time(now)
    if early and "confirm" not in request.POST:
        recipients = list(round_.pairing_recipients())
        return render(
            request,
            "arbiter/publish_early.html",
            _("Publish round %(number)s before the deadline?") % {"number": round_.number},
            {
                "round": round_,
                "recipients": recipients,
                "without_mail": round_.pairing_non_recipients(),
            },
        )
    try:
        published = services.publish(round_, now)
    except services.CompetitionError as refused:
        tell_refused(request, refused)
    else:
        if published:
            messages.success(request, _("The pairing is published."))
        else:
            messages.warning(request, _("The pairing was already published."))
    return back(round_)


# -- results ------------------------------------------------------------------------------------


@arbiter_page(CHANGE_ROUND)
def results(request: HttpRequest, pk: int) -> HttpResponse:
    """Every board's result, typed with shortcuts. Before the evening the arbiter confirms
    first; after the results became final (23:30 on the evening) a change needs a reason, kept
    in the game's history."""
    now = timezone.now()
    round_ = round_or_404(pk)
    data = posted(request)  # a POST, or what was typed before a login
    form = ResultsForm(data, round_=round_)
    final = round_.is_published and not round_.results_are_provisional(now)
    reason_form = ChangeReasonForm(data) if final else None
    early = round_.date > timezone.localdate(now)
    ask_early = False
    if request.method == "POST" and form.is_valid() and (not final or reason_form.is_valid()):
        typed = form.results()
        reason = reason_form.cleaned_data["reason"].strip() if final else ""
        changed_final = round_.results_changed_after_final(typed, now)
        if early and "confirm_early" not in request.POST:
            ask_early = True  # before the evening: the arbiter confirms first
        elif changed_final and not reason:
            reason_form.add_error(
                "reason",
                _("Say why: the result of board %(boards)s was final already.")
                % {"boards": ", ".join(str(game.board) for game in changed_final)},
            )
            for field in form.fields.values():  # the cursor goes to the reason
                field.widget.attrs.pop("autofocus", None)
            reason_form.fields["reason"].widget.attrs["autofocus"] = True
        else:
            try:
                changed = services.enter_results(round_, typed, reason=reason)
            except services.CompetitionError as refused:
                for message in refused.messages:
                    form.add_error(None, message)
            else:
                messages.success(
                    request,
                    _("%(count)s result(s) saved; the rankings are up to date.")
                    % {"count": changed},
                )
                return redirect("arbiter:results", round_.pk)
    rows = form.rows()
    reported = reports.reported_games(form.games)  # what the players entered
    return render(
        request,
        "arbiter/results.html",
        _("Results of round %(number)s") % {"number": round_.number},
        {
            "round": round_,
            "form": form,
            "rows": [(game, field, reported[game.pk].reports) for game, field in rows],
            "reason_form": reason_form,
            "ask_early": ask_early,
            "shortcut_help": SHORTCUT_HELP,
            "outcomes": Game.Result.choices,
        },
    )


# -- the evening kit on paper -------------------------------------------------------------------
# A draft too: the arbiter may print before publishing. Behind the admin's login (never
# cached), where the public addresses show only published rounds.


@arbiter_page(CHANGE_ROUND)
def print_pairing(request: HttpRequest, pk: int) -> HttpResponse:
    round_ = round_or_404(pk)
    return downloads.render_pairing_print(request, round_, reverse("arbiter:round", args=[pk]))


@arbiter_page(CHANGE_ROUND)
def print_slips(request: HttpRequest, pk: int) -> HttpResponse:
    round_ = round_or_404(pk)
    return downloads.render_slips_print(request, round_, reverse("arbiter:round", args=[pk]))
