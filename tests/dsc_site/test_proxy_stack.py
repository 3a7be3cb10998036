"""The production stack as shipped (issue 26, point 2): compose.yaml puts Caddy in front and
publishes no port of the web service, with TRUSTED_PROXIES matching the one proxy; and through
the shipped Caddyfile (Debian's Caddy, in front of gunicorn as the image starts it) a client
that writes its own X-Forwarded-For on every try is still locked out after five wrong
passwords, and the right password does not get it in."""

import contextlib
import http.cookiejar
import http.server
import re
import shutil
import ssl
import subprocess
import threading
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

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


def shipped_caddyfile(tmp_path: Path, http_port: int, https_port: int) -> Path:
    """The shipped Caddyfile with this machine's ports (80 and 443 are not the test's) and
    without installing Caddy's local root certificate into the machine's trust store."""
    text = (ROOT / "Caddyfile").read_text()
    ours = f"\thttp_port {http_port}\n\thttps_port {https_port}\n"
    assert text.count("\tadmin off\n") == 1
    path = tmp_path / "Caddyfile"
    path.write_text(text.replace("\tadmin off\n", f"\tadmin off\n{ours}\tskip_install_trust\n"))
    return path


@contextlib.contextmanager
def caddy(tmp_path: Path, site_address: str, upstream: str, ports: tuple[int, int] = (0, 0)):
    """Debian's Caddy running the shipped Caddyfile (http and https on `ports`, free ones if
    not given); its log, read in the background."""
    config = shipped_caddyfile(tmp_path, *(port or free_port() for port in ports))
    process = subprocess.Popen(
        [CADDY, "run", "--config", str(config), "--adapter", "caddyfile"],
        env={
            "PATH": "/usr/bin:/bin",
            "HOME": str(tmp_path),
            "XDG_DATA_HOME": str(tmp_path / "data"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"),
            "SITE_ADDRESS": site_address,
            "UPSTREAM": upstream,
        },
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    output = Output(process.stderr)
    try:
        output.wait_for("serving initial configuration")
        yield output
    finally:
        process.terminate()
        process.wait(timeout=STARTUP)
        output.close()


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
        with caddy(tmp_path, f"http://127.0.0.1:{proxy_port}", f"127.0.0.1:{port}"):
            yield f"http://127.0.0.1:{proxy_port}", f"http://127.0.0.1:{port}"


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


class Gunicornish(http.server.BaseHTTPRequestHandler):
    """An upstream that names itself, as gunicorn does (`Server: gunicorn`)."""

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def version_string(self):
        return "gunicorn"

    def log_message(self, *args):
        pass


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args):
        return None


def answer(url: str) -> tuple[int, dict]:
    """Status and headers of Caddy's answer, a redirect not followed, TLS spoken with Caddy's
    local certificate unchecked (the certificate is Caddy's business, the headers the test's)."""
    tls = ssl.create_default_context()
    tls.check_hostname = False
    tls.verify_mode = ssl.CERT_NONE
    opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=tls), NoRedirect)
    try:
        with opener.open(url, timeout=STARTUP) as response:
            return response.status, dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers)


@pytest.mark.skipif(
    CADDY is None, reason="Debian's Caddy is not installed (apt-get install caddy); .ci/run has it"
)
def test_neither_caddys_redirect_nor_its_own_502_names_a_server(tmp_path):
    """The site at `localhost` over TLS, as the README's trial runs it: the redirect from http,
    a page (its upstream says `Server: gunicorn`), and Caddy's own 502 once the upstream is
    gone, none with a Server header (issue 38: the redirect and the 502 said `Server: Caddy`)."""
    upstream = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Gunicornish)
    serving = threading.Thread(target=upstream.serve_forever, daemon=True)
    serving.start()
    http_port, https_port = free_port(), free_port()
    site = f"https://localhost:{https_port}/gezond/"
    backend = f"127.0.0.1:{upstream.server_port}"
    with caddy(tmp_path, "localhost", backend, (http_port, https_port)) as log:
        log.wait_for("certificate obtained successfully")
        status, headers = answer(f"http://localhost:{http_port}/gezond/?a=1")
        assert status == 308 and headers["Location"] == "https://localhost/gezond/?a=1"
        assert "Server" not in headers, headers

        status, headers = answer(site)
        assert status == 200 and "Server" not in headers, headers

        upstream.shutdown()
        upstream.server_close()
        status, headers = answer(site)
        assert status == 502 and "Server" not in headers, headers
