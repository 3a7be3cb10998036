"""How members get in: the arbiter's invitations, the login by username or e-mail address, and
the state of each member's account.

A member's e-mail address has one home, `Member.email`; the account (`auth.User`) holds the
username and the password only. An invitation creates the account (no password, no staff
rights) and mails a link to choose the password: Django's token machinery, single use, valid
for `INVITATION_LIFETIME` (14 days), dead once the password is set or a newer invitation is
sent (each invitation gives the account a new unusable password and a new `invited_at`, both
in the token's hash). A new password's link (`reset_tokens`) lives `PASSWORD_RESET_TIMEOUT`
(3 days). Both tokens hash the member's address too, so a change of address kills them. A
member changes their address on the profile: a signed link to the new address confirms it (3
days; the old address stays until then and is told afterwards); a member asks for at most
`ADDRESS_REQUESTS_PER_HOUR` such links an hour, since each is a mail to any address they type.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlencode

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core import signing
from django.db import transaction
from django.utils import formats, timezone
from django.utils.crypto import constant_time_compare
from django.utils.encoding import force_bytes
from django.utils.http import base36_to_int, urlsafe_base64_encode
from django.utils.text import slugify
from django.utils.translation import gettext as _

from base.links import link
from members import mail
from members.links import fingerprint
from members.models import AddressRequest, Member, PasswordResetRequest
from operations import letters
from operations.letters import Kind

User = get_user_model()


INVITATION_LIFETIME = timedelta(days=14)


class ResetTokens(PasswordResetTokenGenerator):
    """A new password's token: Django's (single use: it hashes the password and the last
    login), also dead once the member's address changes, and valid for `lifetime`."""

    key_salt = "members.accounts.ResetTokens"

    @property
    def lifetime(self) -> timedelta:
        return mail.reset_lifetime()

    def _make_hash_value(self, user, timestamp):
        address = Member.objects.filter(user=user).values_list("email", flat=True).first()
        return super()._make_hash_value(user, timestamp) + fingerprint(address or "")

    def check_token(self, user, token) -> bool:
        """Django's check, with this kind's own lifetime instead of the one setting."""
        if not (user and token):
            return False
        try:
            made = base36_to_int(token.split("-")[0])
        except ValueError:
            return False
        if self._num_seconds(self._now()) - made > self.lifetime.total_seconds():
            return False
        return any(
            constant_time_compare(self._make_token_with_timestamp(user, made, secret), token)
            for secret in [self.secret, *self.secret_fallbacks]
        )


class InvitationTokens(ResetTokens):
    """An invitation's token: a new password's token of its own kind (the one cannot stand in
    for the other) that lives 14 days and also dies when a newer invitation is sent."""

    key_salt = "members.accounts.InvitationTokens"

    @property
    def lifetime(self) -> timedelta:
        return INVITATION_LIFETIME

    def _make_hash_value(self, user, timestamp):
        member = Member.objects.filter(user=user).first()
        invited = member.invited_at.isoformat() if member and member.invited_at else ""
        return super()._make_hash_value(user, timestamp) + invited


reset_tokens = ResetTokens()
invitation_tokens = InvitationTokens()


class InvitationRefused(Exception):
    """Nothing was sent: each message names a member and why."""

    def __init__(self, messages: list[str]):
        super().__init__(" ".join(messages))
        self.messages = messages


@dataclass(frozen=True)
class AccountState:
    """What the arbiter's member list says about a member's way in."""

    code: str  # "active", "invited", "not_invited", "no_address"
    text: str

    @property
    def may_invite(self) -> bool:
        return self.code in ("invited", "not_invited")


def state(member: Member) -> AccountState:
    user = member.user
    if user is not None and user.has_usable_password():
        if member.activated_at is None:
            return AccountState("active", _("active"))
        day = formats.date_format(timezone.localtime(member.activated_at), "j F Y")
        return AccountState("active", _("active since %(day)s") % {"day": day})
    if not member.email:
        return AccountState("no_address", _("no e-mail address"))
    if member.invited_at is not None:
        day = formats.date_format(timezone.localtime(member.invited_at), "j F Y")
        return AccountState("invited", _("invited on %(day)s") % {"day": day})
    return AccountState("not_invited", _("not invited"))


def not_yet_in() -> list[Member]:
    """Everyone the arbiter can invite: active members with an address and no login yet."""
    return [
        member
        for member in Member.objects.active().exclude(email="").select_related("user")
        if state(member).may_invite
    ]


def invitation_problems(members: list[Member], now: datetime) -> list[str]:
    """Why these members cannot be invited, one message per member (empty: all can be)."""
    problems = []
    for member in members:
        if not member.email:
            problems.append(
                _("%(name)s has no e-mail address: add it first.") % {"name": member.name}
            )
        elif state(member).code == "active":
            problems.append(
                _("%(name)s already has an account; a forgotten password is renewed by e-mail.")
                % {"name": member.name}
            )
        elif letters.over_limit(Kind.INVITATION, member.email, now):
            problems.append(
                _("%(name)s was invited %(count)s times in the last hour: try again later.")
                % {"name": member.name, "count": letters.LIMITS[Kind.INVITATION]}
            )
        elif others := sharing_the_address(member):
            problems.append(
                _("%(name)s has the same e-mail address as %(others)s: give each their own.")
                % {"name": member.name, "others": ", ".join(other.name for other in others)}
            )
    return problems


def sharing_the_address(member: Member, address: str | None = None) -> list[Member]:
    """The other members with this address (the member's own by default), in any case."""
    address = member.email if address is None else address
    return list(Member.objects.filter(email__iexact=address).exclude(pk=member.pk))


def invite(members: list[Member], now: datetime) -> int:
    """Invite each member: an account without a password where there is none, a new
    `invited_at`, and an e-mail with the link to choose the password (every earlier link of
    theirs stops working). Refused as a whole, sending nothing, when any member cannot be
    invited (`invitation_problems`). Returns the number of e-mails sent."""
    with transaction.atomic():
        locked = list(
            Member.objects.select_for_update(of=("self",))
            .select_related("user")
            .filter(pk__in=[m.pk for m in members])
            .order_by("pk")
        )
        if problems := invitation_problems(locked, now):
            raise InvitationRefused(problems)
        for member in locked:
            if member.user is None:
                member.user = User.objects.create_user(username=free_username(member.name))
            member.user.set_unusable_password()  # a new one: earlier links stop working
            member.user.save(update_fields=["password"])
            member.invited_at = now
            member.save(update_fields=["user", "invited_at"])
        return mail.invitations(
            [(member, invitation_link(member)) for member in locked], INVITATION_LIFETIME, now
        )


def invitation_link(member: Member) -> str:
    uid = urlsafe_base64_encode(force_bytes(member.user.pk))
    return link("members:invitation", uid, invitation_tokens.make_token(member.user))


def free_username(name: str) -> str:
    """A username from the member's name ("jan-de-zeeuw"), numbered when it is taken."""
    base = slugify(name)[:140] or "lid"
    candidate, number = base, 1
    while User.objects.filter(username__iexact=candidate).exists():
        number += 1
        candidate = f"{base}-{number}"
    return candidate


def activate(user, now: datetime) -> None:
    """The member chose their password through an invitation or a reset link: from now on the
    account is active (the arbiter's list says since when)."""
    Member.objects.filter(user=user, activated_at=None).update(activated_at=now)


def account_for(login: str):
    """The account someone means when logging in with `login`: a username in any case, or the
    e-mail address of exactly one member with an account. None when there is none (or the
    address is shared, so that it names nobody in particular)."""
    login = (login or "").strip()
    if not login:
        return None
    users = list(User.objects.filter(username__iexact=login)[:2])
    exact = [user for user in users if user.username == login]
    if exact or len(users) == 1:
        return (exact or users)[0]
    if "@" in login:
        members = list(
            Member.objects.filter(email__iexact=login, user__isnull=False).select_related("user")[
                :2
            ]
        )
        if len(members) == 1:
            return members[0].user
    return None


def users_with_address(address: str) -> list:
    """The active accounts of the members with this e-mail address, for a password reset."""
    return [
        member.user
        for member in Member.objects.filter(email__iexact=address, user__is_active=True)
        .select_related("user")
        .order_by("pk")
    ]


def ask_for_reset(address: str, now: datetime) -> None:
    """The password-reset form's one step, the same whoever the address belongs to."""
    PasswordResetRequest.objects.create(address=address[:254], asked_at=now)


def answer_reset_requests(now: datetime) -> int:
    """The worker's step: each request claimed once, answered with the link to choose a new
    password for every active account of that address (none for an unknown one; at most three
    an hour to one address: `operations.letters.LIMITS`). Answered requests older than a day
    are forgotten. Returns how many requests were answered."""
    answered = 0
    for pk in PasswordResetRequest.objects.due().values_list("pk", flat=True):
        with transaction.atomic():
            claimed = PasswordResetRequest.objects.filter(pk=pk, answered_at__isnull=True)
            request = claimed.select_for_update(skip_locked=True).first()
            if request is None:
                continue  # another worker's
            for user in users_with_address(request.address):
                uid = urlsafe_base64_encode(force_bytes(user.pk))
                mail.password_reset(user.member, uid, reset_tokens.make_token(user))
            claimed.update(answered_at=now)
            answered += 1
    PasswordResetRequest.objects.filter(answered_at__lt=now - timedelta(days=1)).delete()
    return answered


ADDRESS_SALT = "members.accounts.address"
ADDRESS_LINK_DAYS = 3
# A confirmation goes to whatever address the member types: at most this many an hour.
ADDRESS_REQUESTS_PER_HOUR = 3


class AddressRefused(Exception):
    """The new address cannot be taken; nothing was changed or sent."""


def address_problem(member: Member, new_address: str) -> str | None:
    if new_address.lower() == member.email.lower():
        return _("That is your address already.")
    if sharing_the_address(member, new_address):
        return _("Another member has this address; ask the arbiter.")
    return None


def ask_for_new_address(member: Member, new_address: str, now: datetime) -> None:
    """A confirmation link to the new address; the old one stays until it is followed. Refused,
    sending nothing, beyond `ADDRESS_REQUESTS_PER_HOUR` asks of this member in the last hour
    (the member's row is locked, so two asks at once are counted one after the other)."""
    with transaction.atomic():
        member = Member.objects.select_for_update().get(pk=member.pk)
        if problem := address_problem(member, new_address):
            raise AddressRefused(problem)
        if AddressRequest.objects.asked_by(member, now - letters.LIMIT_PERIOD).count() >= (
            ADDRESS_REQUESTS_PER_HOUR
        ):
            raise AddressRefused(
                _(
                    "You asked for a confirmation link %(count)s times in the last hour: try "
                    "again later."
                )
                % {"count": ADDRESS_REQUESTS_PER_HOUR}
            )
        AddressRequest.objects.forget_before(now - timedelta(days=1))
        AddressRequest.objects.create(member=member, address=new_address[:254], asked_at=now)
        code = signing.dumps([member.pk, member.email, new_address], salt=ADDRESS_SALT)
        mail.confirm_new_address(
            member,
            new_address,
            link("members:confirm-address") + "?" + urlencode({"code": code}),
            now,
        )


def address_change(code: str) -> tuple[Member, str]:
    """The member and the new address a confirmation link asks for; refused when the link is
    damaged, older than 3 days, or no longer fits (the address changed since, or another
    member has the new one now)."""
    return _address_change(code, for_update=False)


def _address_change(code: str, for_update: bool) -> tuple[Member, str]:
    try:
        member_id, old_address, new_address = signing.loads(
            code, salt=ADDRESS_SALT, max_age=timedelta(days=ADDRESS_LINK_DAYS)
        )
    except (signing.BadSignature, ValueError, TypeError):
        raise AddressRefused(_("This link is not valid or older than 3 days.")) from None
    members = Member.objects.select_for_update() if for_update else Member.objects
    member = members.filter(pk=member_id).first()
    if member is None or member.email != old_address:
        raise AddressRefused(_("This link has been used already or no longer fits."))
    if problem := address_problem(member, new_address):
        raise AddressRefused(problem)
    return member, new_address


def change_address(code: str) -> Member:
    """Follow a confirmation link: the member's address becomes the new one (the old address
    is told)."""
    with transaction.atomic():
        member, new_address = _address_change(code, for_update=True)
        old_address, member.email = member.email, new_address
        member.save(update_fields=["email"])
    if old_address:
        mail.address_changed(member, old_address)
    return member
