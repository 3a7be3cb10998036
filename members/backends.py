"""The login: a username in any case, or the member's e-mail address (`accounts.account_for`)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from members.accounts import account_for


class MemberLoginBackend(ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        user = account_for(username)
        if user is None:
            # As long as a real check, so that the time taken tells nothing (Django's own).
            get_user_model()().set_password(password)
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None
