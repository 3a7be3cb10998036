"""The admin's list of models (the start page's, and every admin page's menu) made once per
set of rights and written once per distinct list (`dsc_site.admin_site`): what each account
sees is still what Django's own list and template show it."""

from django.contrib import admin
from django.contrib.auth.models import Permission, User
from django.template import RequestContext, Template
from django.test import RequestFactory

from dsc_site.admin_site import ClubAdminSite
from tests.factories import make_arbiter

DJANGOS = Template(
    '{% include "admin/app_list.html" with app_list=apps show_changelinks=changelinks %}'
)
OURS = Template("{% load admin_lists %}{% app_list apps changelinks %}")


def djangos_list(user, path: str = "/beheer/") -> list[dict]:
    request = RequestFactory().get(path)
    request.user = user
    return admin.AdminSite.get_app_list(admin.site, request)


def written(template: Template, user, path: str, changelinks: bool) -> str:
    request = RequestFactory().get(path)
    request.user = user
    apps = admin.site.get_app_list(request)
    return template.render(RequestContext(request, {"apps": apps, "changelinks": changelinks}))


def test_the_site_is_ours():
    assert isinstance(admin.site, ClubAdminSite)


def test_each_account_gets_djangos_list_for_its_rights(db):
    boss = User.objects.create_superuser("baas", "baas@example.org", "x")
    arbiter = make_arbiter()
    reader = User.objects.create_user("lezer", password="x", is_staff=True)
    reader.user_permissions.add(Permission.objects.get(codename="view_round"))
    for user in (boss, arbiter, reader, boss, arbiter, reader):  # the second time: kept
        user = User.objects.get(pk=user.pk)  # a request's own account object
        request = RequestFactory().get("/beheer/")
        request.user = user
        assert admin.site.get_app_list(request) == djangos_list(user)
    lists = {
        user.username: [m["object_name"] for a in djangos_list(user) for m in a["models"]]
        for user in (boss, arbiter, reader)
    }
    assert lists["lezer"] == ["Round"]
    assert len(lists["baas"]) > len(lists["arbiter"]) > 1


def test_a_new_permission_shows_at_once(db):
    reader = User.objects.create_user("lezer", password="x", is_staff=True)
    reader.user_permissions.add(Permission.objects.get(codename="view_round"))
    request = RequestFactory().get("/beheer/")
    request.user = User.objects.get(pk=reader.pk)
    assert [m["object_name"] for a in admin.site.get_app_list(request) for m in a["models"]] == [
        "Round"
    ]
    reader.user_permissions.add(Permission.objects.get(codename="view_game"))
    request = RequestFactory().get("/beheer/")
    request.user = User.objects.get(pk=reader.pk)
    shown = [m["object_name"] for a in admin.site.get_app_list(request) for m in a["models"]]
    assert shown == ["Game", "Round"]


def test_the_written_list_is_what_djangos_template_writes(db):
    boss = User.objects.create_superuser("baas", "baas@example.org", "x")
    arbiter = make_arbiter()
    for user in (boss, arbiter):
        for path in ("/beheer/", "/beheer/competition/round/", "/beheer/competition/round/3/"):
            for changelinks in (True, False):
                for _ in range(2):  # written, then kept
                    ours = written(OURS, user, path, changelinks)
                    assert ours == written(DJANGOS, user, path, changelinks), (path, changelinks)
    on_rounds = written(OURS, boss, "/beheer/competition/round/", False)
    assert 'class="model-round current-model"' in on_rounds
    assert "current-model" not in written(OURS, boss, "/beheer/", False)
    assert written(OURS, arbiter, "/beheer/", True) != written(OURS, boss, "/beheer/", True)


def test_no_rights_writes_djangos_sentence(db):
    nobody = User.objects.create_user("niemand", password="x", is_staff=True)
    request = RequestFactory().get("/beheer/")
    request.user = nobody
    text = OURS.render(RequestContext(request, {"apps": [], "changelinks": True}))
    assert text == DJANGOS.render(RequestContext(request, {"apps": [], "changelinks": True}))
