"""The preview a member confirms: the request as it was shown, signed, with the fingerprint of
what it would do. Bevestigen carries it back; anything else than that very request (another
selection, another reason, no preview at all, an old one) is shown again, never applied."""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing
from django.db.models import Max

from absences.models import Registration
from absences.services import Consequence, digest, participant_of
from competition import eligibility as eligibility_rules
from competition.keizer.scoring import Outcome as Scored
from competition.models import Absence, Round
from members.models import Member

SALT = "absences.preview"
MAX_AGE = 60 * 60  # a preview left open longer is shown again


def _request(member: Member, data: dict) -> dict:
    """The request, and the member's latest change to those evenings: a preview made before
    another change (an old tab, the back button) is not a preview of what is there now."""
    reported_at = data.get("reported_at")
    latest = Registration.objects.filter(member=member, round__in=data["rounds"]).aggregate(
        latest=Max("pk")
    )["latest"]
    return {
        "after": latest,
        "member": member.pk,
        "rounds": sorted(round_.pk for round_ in data["rounds"]),
        "action": data["action"],
        "reason": data["reason"],
        "reported_at": reported_at.isoformat() if reported_at else "",
    }


def sign(member: Member, data: dict, consequences: list[Consequence]) -> str:
    """The token for the preview of `data` (a valid CancellationForm's cleaned data)."""
    return signing.dumps({**_request(member, data), "digest": digest(consequences)}, salt=SALT)


def previewed(token: str, member: Member, data: dict) -> str | None:
    """The digest of the preview behind `token` if it previewed exactly this request."""
    try:
        shown = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.BadSignature:  # missing, forged or expired
        return None
    digest_ = shown.pop("digest", None)
    return digest_ if shown == _request(member, data) else None


# What an evening becomes for the attendance rule once a change is confirmed (the engine's
# outcome it will be scored as; None: open again). A member's team match is a claim, scored as
# cancelled in time until a line-up or the arbiter confirms it (see `services.apply`).
SCORED_AS = {
    Registration.Outcome.EXCUSED: Scored.EXCUSED,
    Registration.Outcome.LATE: Scored.LATE,
    Registration.Outcome.FORFEIT: Scored.FORFEIT_LOSS,
    Registration.Outcome.PRESENT: None,
}


@dataclass(frozen=True)
class EligibilityPreview:
    """The forecast once the previewed change is made, and how the preview words it."""

    eligibility: eligibility_rules.Eligibility
    sentence: str  # "Met deze afmelding mag je nog 2 keer missen."
    team_claim: bool  # a team match that counts only once it is confirmed
    name: str | None = None  # the member the arbiter acts for (third person), else None


def eligibility(
    member: Member,
    consequences: list[Consequence],
    action: str,
    by_arbiter: bool,
    for_member: bool = False,
) -> EligibilityPreview | None:
    """The prize eligibility forecast as it will be after the change previewed; None when
    nothing changes or the competition has no such rule. `for_member`: the arbiter acts for
    the member, and the sentence speaks of them by name."""
    changing = [c for c in consequences if c.changes_anything]
    if not changing:
        return None
    competition = changing[0].round.competition
    participant = participant_of(member, competition)
    standing = participant.latest_standing() if participant else None
    if standing is None:
        return None
    team_claim = False
    planned: dict[int, Scored | None] = {}
    for consequence in changing:
        if consequence.outcome == Registration.Outcome.TEAM:
            team_claim = not by_arbiter
            planned[consequence.round.pk] = Scored.EXCUSED if team_claim else Scored.TEAM
        else:
            planned[consequence.round.pk] = SCORED_AS[consequence.outcome]
    # Registering again for an evening cancelled automatically ends the automatic
    # cancellation of every later unpublished evening (`services._register_again`).
    present = [c.round for c in changing if c.outcome == Registration.Outcome.PRESENT]
    automatic = Absence.objects.filter(
        round__in=present, participant=participant, reason=Absence.Reason.AUTO
    ).values_list("round__number", flat=True)
    ends_auto_after = min(automatic, default=None)

    def change(round_: Round, stored: Scored | None) -> Scored | None:
        if round_.pk in planned:
            return planned[round_.pk]
        if (
            ends_auto_after is not None
            and round_.number > ends_auto_after
            and stored == Scored.AUTO
            and not round_.is_published
        ):
            return None
        return stored

    forecast = eligibility_rules.eligibility(
        participant, standing.ranking, standing.attended, change
    )
    if forecast is None:
        return None
    cancelling = action == Registration.Action.CANCEL
    name = member.name if for_member else None
    return EligibilityPreview(
        forecast, eligibility_rules.verdict_after(forecast, cancelling, name), team_claim, name
    )
