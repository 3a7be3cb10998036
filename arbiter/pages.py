"""The frame of every arbiter page: who may open it (`arbiter_page`, the one access helper, and
`may` for a permission as the admin reads it), the admin's look around it (`render`) and how a
refusal is told (`tell_refused`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.template.response import TemplateResponse

from competition.services import CompetitionError


def may(user, permission: str) -> bool:
    """A permission as the admin reads it: who may change a model may also view it."""
    app, codename = permission.split(".")
    action, _, model = codename.partition("_")
    if action == "view":
        return user.has_perm(permission) or user.has_perm(f"{app}.change_{model}")
    return user.has_perm(permission)


def arbiter_page(*permissions: str) -> Callable:
    """A page of the arbiter's application: behind the admin's login for staff accounts (never
    cached, CSRF-checked, like every admin page), and refused (403) to an account without every
    one of `permissions` (`may`)."""

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def checked(request: HttpRequest, *args, **kwargs):
            if not all(may(request.user, permission) for permission in permissions):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return admin.site.admin_view(checked)

    return decorate


def render(
    request: HttpRequest, template: str, title: str, context: dict, status: int = 200
) -> TemplateResponse:
    """An arbiter's page in the admin's frame: its header, menu and messages."""
    return TemplateResponse(
        request,
        template,
        {**admin.site.each_context(request), "title": title, **context},
        status=status,
    )


def tell_refused(request: HttpRequest, refused: CompetitionError) -> None:
    """Why a step was refused (nothing was changed), as the page's error messages."""
    for message in refused.messages:
        messages.error(request, message)
