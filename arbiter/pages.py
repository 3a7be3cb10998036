"""The frame of every arbiter page: who may open it (`arbiter_page`, the one access helper, and
`may` for a permission as the admin reads it), the admin's look around it (`render`), how a
refusal is told (`tell_refused`), and typed work kept across a login (`posted`): a form sent
after the session ended is kept in the new session, and once the arbiter has logged in the
same page shows it again, filled as it was sent, saved only when sent again."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, QueryDict
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _

from competition.services import CompetitionError


def may(user, permission: str) -> bool:
    """A permission as the admin reads it: who may change a model may also view it."""
    app, codename = permission.split(".")
    action, _, model = codename.partition("_")
    if action == "view":
        return user.has_perm(permission) or user.has_perm(f"{app}.change_{model}")
    return user.has_perm(permission)


UNSENT = "arbiter.unsent_form"


def arbiter_page(*permissions: str) -> Callable:
    """A page of the arbiter's application: behind the admin's login for staff accounts (never
    cached, CSRF-checked, like every admin page), and refused (403) to an account without every
    one of `permissions` (`may`). A form posted without a login (the session ended) is kept
    for the page to show again after the login (`posted`)."""

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def checked(request: HttpRequest, *args, **kwargs):
            if not all(may(request.user, permission) for permission in permissions):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        behind_login = admin.site.admin_view(checked)

        @wraps(view)
        def page(request: HttpRequest, *args, **kwargs):
            if request.method == "POST" and not admin.site.has_permission(request):
                keep_unsent(request)
            return behind_login(request, *args, **kwargs)

        return page

    return decorate


def keep_unsent(request: HttpRequest) -> None:
    """The form that reached us without a login, for this page after the login."""
    fields = [
        (k, v) for k, values in request.POST.lists() if k != "csrfmiddlewaretoken" for v in values
    ]
    request.session[UNSENT] = {"path": request.path, "fields": fields}


def posted(request: HttpRequest) -> QueryDict | None:
    """The form's data: what was posted, or once after a login what was typed on this page
    before the session ended (with a message saying so); None for a page just opened."""
    if request.method == "POST":
        return request.POST
    kept = request.session.get(UNSENT)
    if not kept or kept.get("path") != request.path:
        return None
    del request.session[UNSENT]
    data = QueryDict(mutable=True)
    for key, value in kept["fields"]:
        data.appendlist(key, value)
    messages.warning(
        request,
        _(
            "You were logged out before this form was saved: what you typed is back. Check it "
            "and save again."
        ),
    )
    return data


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
