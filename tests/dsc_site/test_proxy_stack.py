"""The production stack as shipped (issue 26, point 2): compose.yaml puts Caddy in front and
publishes no port of the web service, with TRUSTED_PROXIES matching the one proxy; and through
the shipped Caddyfile (Debian's Caddy, in front of gunicorn as the image starts it) a client
that writes its own X-Forwarded-For on every try is still locked out after five wrong
passwords, and the right password does not get it in."""

import http.cookiejar
import re
import shutil
import subprocess
import urllib.error
import urllib.parse
import urllib.request

import pytest
import yaml
from django.conf import settings

from tests.processes import ROOT, STARTUP, Output, free_port, manage, production_env, web_process

__all__ = ["production_env"]

CADDY = shutil.which("caddy")


def compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def test_only_the_proxy_is_reachable_and_the_site_trusts_exactly_that_one_proxy():
    services = compose()["services"]
    assert "ports" not in services["web"] and "ports" not in services["worker"]
    assert services["web"]["expose"] == ["8000"]
    assert services["web"]["environment"]["TRUSTED_PROXIES"] == "1"
    proxy = services["proxy"]
    assert proxy["image"].startswith("caddy:")
    assert {"80:80", "443:443"} <= set(proxy["ports"])
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]


def test_the_stack_migrates_before_web_and_worker_start_and_comes_back_after_a_reboot():
    """Found trying the README's steps (Podman, stand-in images): the worker ran before web's
    migrate had made the tables, and after a reboot the database stayed down."""
    services = compose()["services"]
    migrate = services["migrate"]
    assert "&& exec python manage.py migrate --noinput" in migrate["command"]
    # Whatever the tool does with conditions, each role waits itself (saying why: preflight).
    assert "python manage.py preflight --wait-for database &&" in migrate["command"]
    building = [name for name, service in services.items() if "build" in service]
    assert building == ["migrate"]  # one image, built once
    for name in ("web", "worker"):
        assert "depends_on" not in services[name]  # Podman 4.3 could not start them again
        command = services[name]["command"]
        assert command.startswith("sh -c") and "manage.py preflight --wait-for tables &&" in command
        assert "migrate --noinput" not in command  # only migrate migrates
        assert services[name]["image"] == migrate["image"]
        assert services[name]["pull_policy"] == "never"
    assert all(
        service["restart"] == "unless-stopped"
        for name, service in services.items()
        if name != "migrate"
    )


class AsOverTLS(http.cookiejar.DefaultCookiePolicy):
    """The site's cookies are Secure (https only); the test speaks plain http to the proxy on
    loopback, so it sends them as a browser would over the TLS Caddy gives in production."""

    def return_ok_secure(self, cookie, request):
        return True


class Visitor:
    """A browser without JavaScript: cookies kept, the login form's CSRF token sent back, and
    an X-Forwarded-For header of its own choosing on every request."""

    def __init__(self, base: str):
        self.base = base
        jar = http.cookiejar.CookieJar(policy=AsOverTLS())
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def log_in(self, username: str, password: str, forged: str) -> tuple[int, str]:
        headers = {"X-Forwarded-For": forged}
        form = self._open(urllib.request.Request(f"{self.base}/accounts/login/", headers=headers))
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form[1])[1]
        data = urllib.parse.urlencode(
            {"csrfmiddlewaretoken": token, "username": username, "password": password}
        ).encode()
        posted = urllib.request.Request(
            f"{self.base}/accounts/login/",
            data=data,
            headers={**headers, "Referer": f"{self.base}/accounts/login/"},
        )
        return self._open(posted)

    def _open(self, request) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=STARTUP) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as refused:
            return refused.code, refused.read().decode()


@pytest.fixture
def stack(production_env, tmp_path):
    """gunicorn as the image starts it, behind Caddy with the shipped Caddyfile (plain http
    here: the certificate is Caddy's business, the forwarded address is the site's)."""
    env = {**production_env, "TRUSTED_PROXIES": "1", "SECURE_SSL_REDIRECT": "false"}
    made = manage(
        env,
        "shell",
        "-c",
        "from django.contrib.auth.models import User; "
        "[User.objects.create_user(name, password='het-goede-wachtwoord') for name in "
        "('jan', 'piet')]",
    )
    assert made.returncode == 0, made.stderr
    with web_process(env) as port:
        proxy_port = free_port()
        caddy = subprocess.Popen(
            [CADDY, "run", "--config", str(ROOT / "Caddyfile"), "--adapter", "caddyfile"],
            env={
                "PATH": "/usr/bin:/bin",
                "HOME": str(tmp_path),
                "XDG_DATA_HOME": str(tmp_path / "data"),
                "XDG_CONFIG_HOME": str(tmp_path / "config"),
                "SITE_ADDRESS": f"http://127.0.0.1:{proxy_port}",
                "UPSTREAM": f"127.0.0.1:{port}",
            },
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        output = Output(caddy.stderr)
        try:
            output.wait_for("serving initial configuration")
            yield f"http://127.0.0.1:{proxy_port}", f"http://127.0.0.1:{port}"
        finally:
            caddy.terminate()
            caddy.wait(timeout=STARTUP)
            output.close()


# One wrong password more than django-axes allows one client (settings.AXES_FAILURE_LIMIT):
# counted together, these lock the account out.
ATTEMPTS = settings.AXES_FAILURE_LIMIT + 1


def right_password_after_wrong_ones(base: str, username: str) -> str:
    """A client forging a new X-Forwarded-For on every try: ATTEMPTS wrong passwords, then the
    right one; the page it gets."""
    visitor = Visitor(base)
    for attempt in range(ATTEMPTS):
        visitor.log_in(username, "een-fout-wachtwoord", forged=f"198.51.100.{attempt}")
    return visitor.log_in(username, "het-goede-wachtwoord", forged="203.0.113.99")[1]


@pytest.mark.skipif(
    CADDY is None, reason="Debian's Caddy is not installed (apt-get install caddy); .ci/run has it"
)
def test_a_client_forging_forwarded_for_is_locked_out_through_the_shipped_proxy(stack):
    """Through Caddy, wrong passwords from as many forged addresses lock the account for the
    client, and the right one is refused. The control, straight to gunicorn (what a published
    web port would allow), on the same stack with another account: each forged address counts
    apart and the right password gets in; that is why compose.yaml publishes no port of web."""
    proxy, web = stack
    through_caddy = right_password_after_wrong_ones(proxy, "jan")
    assert "Te veel mislukte pogingen" in through_caddy, through_caddy[:300]
    straight = right_password_after_wrong_ones(web, "piet")
    assert "Te veel mislukte pogingen" not in straight, straight[:300]
    assert "Uitloggen" in straight or "/accounts/logout/" in straight, straight[:300]
