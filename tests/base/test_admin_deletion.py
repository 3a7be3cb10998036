"""The admin's bulk deletion refuses the rows it may not delete before it lists what they hold
(base/admin_deletion.py), and deletes the others through Django's confirmation as before."""

from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competition.models import Game, Round


def select_all(client, changelist: str, pks: list[int], confirm: bool = False):
    data = {"action": "delete_selected", "_selected_action": [str(pk) for pk in pks]}
    if confirm:
        data["post"] = "yes"
    return client.post(changelist, data, follow=True)


def superuser_client(client):
    client.force_login(get_user_model().objects.create_superuser("baas", "b@example.org", "x" * 12))
    return client


def test_published_rounds_are_refused_at_once_and_nothing_is_deleted(demo, client):
    client = superuser_client(client)
    rounds = list(Round.objects.order_by("pk").values_list("pk", flat=True))
    games = Game.objects.count()
    assert games > 300  # the demo's played rounds: the listing Django would make
    with CaptureQueriesContext(connection) as queries:
        shown = select_all(client, reverse("admin:competition_round_changelist"), rounds)
    assert shown.status_code == 200
    text = shown.content.decode()
    assert "Niets verwijderd:" in text
    assert "mogen niet worden verwijderd" in text
    assert "en nog " in text  # more refused rows than are named
    # Refused from the rows themselves: no game is named (Django's page named each, with four
    # queries apiece).
    assert len(queries) < 60, len(queries)
    assert Round.objects.count() == len(rounds)
    assert Game.objects.count() == games


def test_a_round_that_may_go_is_deleted_through_djangos_confirmation(demo, client):
    client = superuser_client(client)
    draft = Round.objects.filter(published_at__isnull=True).order_by("-number").first()
    assert draft is not None
    changelist = reverse("admin:competition_round_changelist")
    asked = select_all(client, changelist, [draft.pk])
    assert "Niets verwijderd" not in asked.content.decode()
    assert 'name="post"' in asked.content.decode()  # Django's "are you sure?" page
    assert Round.objects.filter(pk=draft.pk).exists()
    select_all(client, changelist, [draft.pk], confirm=True)
    assert not Round.objects.filter(pk=draft.pk).exists()
