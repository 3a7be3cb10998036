"""The rules for a password, wherever one is chosen: the invitation's page, the new password by
e-mail, the profile, the admin's forms and `createsuperuser`/`changepassword` (Django reads them
from `AUTH_PASSWORD_VALIDATORS`).

Django's own validators, each with the help under the field in the site's voice ("je"; Django's
Dutch says "uw") and, where Django's Dutch catalogue lacks it, the error in Dutch: at least 10
characters, not a commonly used password, not like the member's name, username or e-mail
address, not only digits. The name and the address live on the member
(`Member.name`, `Member.email`), not on the account, so the likeness is checked against those.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from members.models import Member


class LongEnough(password_validation.MinimumLengthValidator):
    def get_error_message(self) -> str:
        # Django 5.2.19 changed this message's msgid and its Dutch catalogue has not followed.
        return ngettext(
            "This password is too short: it needs at least %(min_length)d character.",
            "This password is too short: it needs at least %(min_length)d characters.",
            self.min_length,
        ) % {"min_length": self.min_length}

    def get_help_text(self) -> str:
        return ngettext(
            "Your password has at least %(min_length)d character.",
            "Your password has at least %(min_length)d characters.",
            self.min_length,
        ) % {"min_length": self.min_length}


class NotCommon(password_validation.CommonPasswordValidator):
    def get_help_text(self) -> str:
        return _("It is not a commonly used password.")


class NotOnlyDigits(password_validation.NumericPasswordValidator):
    def get_help_text(self) -> str:
        return _("It is not only digits.")


class NotLikeTheMember(password_validation.UserAttributeSimilarityValidator):
    """Django's likeness test (the whole value and each of its words), against the account's
    username and the member's name and address."""

    def validate(self, password: str, user=None) -> None:
        if not user:
            return
        password = password.lower()
        for what, value in self.personal(user):
            value = value.lower()
            for part in [*re.split(r"\W+", value), value]:
                if password_validation.exceeds_maximum_length_ratio(
                    password, self.max_similarity, part
                ):
                    continue
                if SequenceMatcher(a=password, b=part).quick_ratio() >= self.max_similarity:
                    raise ValidationError(
                        _("This password is too much like your %(what)s.") % {"what": what},
                        code="password_too_similar",
                    )

    @staticmethod
    def personal(user) -> list[tuple[str, str]]:
        """What the password may not look like, each with how the message names it."""
        found = [(_("username"), user.get_username())]
        member = Member.objects.filter(user_id=user.pk).first() if user.pk else None
        if member is not None:
            found += [(_("name"), member.name), (_("e-mail address"), member.email)]
        found += [(_("name"), user.get_full_name()), (_("e-mail address"), user.email)]
        return [(what, value) for what, value in found if value]

    def get_help_text(self) -> str:
        return _("It is not like your name, username or e-mail address.")
