"""The admin site (/beheer/) with its list of models made once per set of rights and written
once per distinct list: the start page shows it, the menu of every other page shows it again,
and making it asks every model's admin for the account's rights (some 30 models).

`ClubAdminSite` is `admin.site` (`dsc_site.apps.ClubAdminConfig`); `app_list_html` writes
admin/app_list.html as the template writes it, kept by what it shows."""

from __future__ import annotations

from urllib.parse import quote

from django.contrib.admin import AdminSite
from django.urls import get_script_prefix
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from club.models import current

APP_LIST = "_club_admin_app_list"
WRITTEN_MAX = 256  # distinct lists kept (accounts' rights × languages × highlighted rows)
_written: dict[tuple, SafeString] = {}


class ClubAdminSite(AdminSite):
    _lists: dict[tuple, list[dict]] = {}

    @property
    def site_header(self) -> str:
        """ "DSC competitiebeheer": the club's short name from its row (issue 40)."""
        return _("%(club)s competition management") % {"club": current().short_name}

    @property
    def site_title(self) -> str:
        return _("%(club)s management") % {"club": current().short_name}

    def get_app_list(self, request, app_label=None):
        """Django's list, made once per set of rights: the index and `each_context` both ask
        for it, and with no object at hand the model admins' rights are the account's
        permissions (`rights`). One app's list is made as Django makes it. The list is shared:
        it is read, never changed."""
        if app_label is not None:
            return super().get_app_list(request, app_label)
        made = getattr(request, APP_LIST, None)
        if made is None:
            key = (rights(request.user), get_language(), get_script_prefix())
            made = self._lists.get(key)
            if made is None:
                made = super().get_app_list(request)
                if len(self._lists) >= WRITTEN_MAX:
                    self._lists.clear()
                self._lists[key] = made
            setattr(request, APP_LIST, made)
        return made


def rights(user) -> tuple:
    """What decides the list of models for an account: an active superuser may do everything;
    anyone else what their permissions (their own and their groups') say."""
    if user.is_active and user.is_superuser:
        return ("superuser",)
    return (user.is_active, user.is_staff, frozenset(user.get_all_permissions()))


def app_list_html(context, app_list: list[dict], show_changelinks: bool) -> SafeString:
    """admin/app_list.html for this list, written once per distinct list: what the template
    reads from it (names, addresses, rights), the language, and which of its addresses the
    page's path contains (the template marks those rows as current) make the key."""
    request = context.get("request")
    path = quote(request.path) if request is not None else ""
    rows = tuple(
        (
            str(app["app_label"]),
            str(app["name"]),
            str(app["app_url"]),
            str(app["app_url"]) in path,
            tuple(
                (
                    str(model["object_name"]),
                    str(model["name"]),
                    model.get("admin_url"),
                    model.get("add_url"),
                    bool(model.get("view_only")),
                    bool(model.get("admin_url")) and str(model["admin_url"]) in path,
                )
                for model in app["models"]
            ),
        )
        for app in app_list
    )
    key = (get_language(), bool(show_changelinks), request is None, rows)
    written = _written.get(key)
    if written is None:
        template = context.template.engine.get_template("admin/app_list.html")
        with context.push(app_list=app_list, show_changelinks=show_changelinks):
            written = mark_safe(template.render(context))
        if len(_written) >= WRITTEN_MAX:
            _written.clear()
        _written[key] = written
    return written
