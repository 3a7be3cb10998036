"""The club's own page (issue 40): its name, sender and week, changed by the arbiter with a
preview of what the change does to the coming rounds (`services.club_week.preview`: the rounds
not published yet move to the new week, published ones keep their publication) before it is
saved (`services.change_club`)."""

from __future__ import annotations

import hashlib
from datetime import date, time

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from arbiter.pages import arbiter_page, render
from club import logo
from club.models import WEEKDAYS, Club, current
from competition import services
from competition.schedule import next_weekday, week_of
from competition.services import club_week

GROUPS = (
    (
        gettext_lazy("Who the club is"),
        (
            *("name", "short_name", "place", "playing_address"),
            *("sender_name", "sender_address", "arbiter_address"),
        ),
    ),
    (
        gettext_lazy("The club's week"),
        (
            *("evening_weekday", "deadline_weekday", "deadline_time"),
            *("publication_weekday", "publication_time"),
            *("play_time", "results_final_time", "reminder_time"),
        ),
    ),
    (
        gettext_lazy("The club's policies"),
        (
            *("rounds_proposed", "attendance_required", "group_labels"),
            *("no_shows_before_cancellation", "team_match_days_after"),
            *("team_player_minimum_games", "leagues", "ranking_mail_length"),
        ),
    ),
)
WEEK = GROUPS[1][1]
TIMES = ("deadline_time", "publication_time", "play_time", "results_final_time", "reminder_time")


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = tuple(name for _legend, names in GROUPS for name in names)
        widgets = {name: forms.TimeInput(attrs={"type": "time"}, format="%H:%M") for name in TIMES}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Empty is a day too: the deadline's (DSC publishes on its Friday).
        self.fields["publication_weekday"].choices = [("", _("the deadline's day")), *WEEKDAYS]

    def clean(self):
        """The week in its order: the deadline, then the publication, then play, on any
        evening (`schedule.week_of`: the moments the site will use)."""
        data = super().clean()
        if self.errors:
            return data
        week = week_of(Club(**{name: data.get(name) for name in WEEK}))
        evening = next_weekday(date(2026, 1, 5), data["evening_weekday"])  # any such evening
        if week.publishes_before_the_deadline(evening):
            raise forms.ValidationError(
                _("The pairing would be published before the cancellation deadline."),
                code="early_publication",
            )
        if week.publishes_after_play_starts(evening):
            raise forms.ValidationError(
                _("The pairing would be published after play starts."), code="late_publication"
            )
        return data

    def groups(self):
        """The fields in groups of what they are about, for the page's fieldsets."""
        return [(legend, [self[name] for name in names]) for legend, names in GROUPS]


@arbiter_page("club.change_club")
def club_page(request: HttpRequest) -> HttpResponse:
    """Show, then save: "Laten zien wat het verandert" lists the coming rounds with their
    deadline and publication before and after; "Opslaan" saves and moves the unpublished."""
    club = current()
    form = ClubForm(request.POST or None, instance=Club.objects.get(pk=club.pk))
    changes = None
    today = timezone.localdate()
    if request.method == "POST" and form.is_valid():
        if "save" in request.POST and request.POST.get(SHOWN) == shown(form):
            moved = services.change_club(form.instance, today)
            messages.success(
                request,
                _("The club's data are saved; %(count)s coming rounds follow the new week.")
                % {"count": len(moved)},
            )
            return redirect("arbiter:club")
        if "save" in request.POST:
            messages.info(request, _("Check what it changes for the coming rounds, then save."))
        changes = club_week.preview(form.instance, today)
    elif request.method != "POST":
        changes = club_week.preview(form.instance, today)  # as it is: nothing moves
    return render(
        request,
        "arbiter/club.html",
        _("The club"),
        {
            "form": form,
            "changes": changes,
            "shown": shown(form) if form.is_bound else "",
            "logo_form": LogoForm(),
        },
    )


SHOWN = "getoond"  # the values whose changes the page showed: only those can be saved


def shown(form: ClubForm) -> str:
    """A digest of the form's values, carried by the page that showed their changes."""
    values = form.cleaned_data if form.is_valid() else {}
    text = "\n".join(f"{name}={values.get(name)}" for name in ClubForm.Meta.fields)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def form_data(club: Club, **changes) -> dict:
    """What the club's page would send for `club` with `changes` (times as "20:00", an empty
    day as "")."""
    data = {name: getattr(club, name) for name in ClubForm.Meta.fields} | changes
    for name, value in data.items():
        if isinstance(value, time):
            data[name] = value.strftime("%H:%M")
        elif value is None:
            data[name] = ""
    return data


def set_club(changes: dict, today: date) -> Club:
    """The club's row with `changes`, checked as the club's page checks them and saved by the
    page's rule for the coming rounds (`services.change_club`): for `manage.py new_club` and
    the demo. A value the page would refuse raises ValidationError with the page's message."""
    club = Club.objects.get(pk=current().pk)
    form = ClubForm(form_data(club, **changes), instance=club)
    if not form.is_valid():
        raise ValidationError(
            [f"{name}: {' '.join(errors)}" for name, errors in form.errors.items()]
        )
    services.change_club(form.instance, today)
    return current()


class LogoForm(forms.Form):
    logo = forms.FileField(label=gettext_lazy("logo"), required=False)

    def clean_logo(self):
        upload = self.cleaned_data.get("logo")
        if upload is None:
            return b""
        data = upload.read(logo.MAX_BYTES + 1)
        if problem := logo.problem(data):
            raise forms.ValidationError(problem, code="not_a_logo")
        return data


@require_POST
@arbiter_page("club.change_club")
def club_logo(request: HttpRequest) -> HttpResponse:
    """The logo beside the club's name in every page's menu: a new one, or none ("remove")."""
    form = LogoForm(request.POST, request.FILES)
    if "remove" in request.POST:
        logo.set_logo(b"")
        messages.success(request, _("The logo is removed."))
    elif form.is_valid() and form.cleaned_data["logo"]:
        logo.set_logo(form.cleaned_data["logo"])
        messages.success(request, _("The logo is saved."))
    else:
        for error in form.errors.get("logo", [_("Choose a file.")]):
            messages.error(request, error)
    return redirect("arbiter:club")
