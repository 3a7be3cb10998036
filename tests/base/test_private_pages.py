"""A logged-in person's pages are `private, no-store` (issue 26: /profiel/, which shows the
secret calendar link, could be kept by any cache); a visitor's stay cacheable."""

import pytest
from django.urls import reverse


@pytest.mark.parametrize("name", ["members:profile", "absences:mine", "competition:standings"])
def test_a_members_pages_are_kept_by_no_cache(jansen_client, name):
    response = jansen_client.get(reverse(name))
    assert response.status_code == 200
    directives = {d.strip() for d in response["Cache-Control"].split(",")}
    assert {"private", "no-store"} <= directives


def test_a_visitors_page_is_not_marked_private(client, example_competition):
    response = client.get(reverse("competition:standings"))
    assert response.status_code == 200
    assert "private" not in response.get("Cache-Control", "")
