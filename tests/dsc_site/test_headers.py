"""Every response carries a strict Content-Security-Policy and a Permissions-Policy."""

import pytest

STRICT = {
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
}
DENIED = ("camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()")


def assert_strict(response):
    directives = {part.strip() for part in response["Content-Security-Policy"].split(";")}
    assert directives == STRICT
    assert "unsafe-inline" not in response["Content-Security-Policy"]
    policy = {part.strip() for part in response["Permissions-Policy"].split(",")}
    assert set(DENIED) <= policy


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/reglement/", 200),  # a page
        ("/no-such-page/", 404),
        ("/accounts/login/", 200),
        ("/beheer/login/", 200),  # the admin
        ("/beheer/", 302),  # a redirect
        ("/static/css/site.css", 200),  # a static file, served by whitenoise
        ("/gezond/", 503),  # the health check, answered before everything else
    ],
)
def test_every_kind_of_response_has_both_policies(client, db, path, status):
    response = client.get(path)
    response.close()  # a static file is streamed from an open file
    assert response.status_code == status
    assert_strict(response)


def test_the_arbiters_admin_pages_have_both_policies(arbiter_client):
    assert_strict(arbiter_client.get("/beheer/"))
    assert_strict(arbiter_client.get("/beheer/competition/round/"))


def test_the_lockout_page_has_both_policies(client, db):
    for _ in range(5):
        response = client.post("/accounts/login/", {"username": "x", "password": "y"})
    assert response.status_code == 429
    assert_strict(response)
