"""Load benchmark: the public pages under gunicorn, driven by wrk (`make bench`, or
`python -m benchmarks.load`).

Method:
1. A generated 150-player, 28-round season (`keizer.generated_season(150, 28, 7, seed=1)`) is
   written as a season file and stored with the real commands (`migrate`, `collectstatic`,
   `import_season`) in the benchmark's own database: an SQLite file in a temporary folder, or,
   when DATABASE_URL names PostgreSQL, a database `<name>_load` made for the run and dropped
   after it. The page cache gets a fresh folder too (PAGE_CACHE_DIR).
2. gunicorn runs with production settings (DEBUG off; SECURE_SSL_REDIRECT off because wrk speaks
   plain http on the loopback) and the Dockerfile's command line: its number of sync workers,
   its access log, bound to 127.0.0.1 on a free port.
3. Each page is compared with a static file of the same size: its very bytes. A first gunicorn
   serves `/ranglijst/`, `/indeling/` and the leader's player page once (checked: status 200,
   the whole page, e.g. all 150 players on `/ranglijst/`); their bytes are written into
   STATIC_ROOT and gunicorn is started again (whitenoise lists STATIC_ROOT when a worker
   starts). The copies are added after `collectstatic`, so whitenoise has no compressed version
   of them, and wrk asks for none (it sends no Accept-Encoding): page and file travel as the
   same plain bytes, through the same middleware.
4. Per page, after a short warm-up (every worker started, the page in the cache):
   - throughput: `wrk -t2 -c8 -d10s` on its static copy, then on the page: requests a second.
     The copy is measured right before the page, so a change in the machine's other work
     shifts both figures of the ratio. Eight connections keep every worker busy: by Little's
     law the median there is about 8 / throughput (some 5-10 ms even for a static file), so it
     measures queueing rather than a visitor's wait;
   - latency: as many connections as workers (`-c<workers> -d5s`), so nothing queues: the
     median and 99th percentile a visitor sees, for the page and for its static copy.
   Any non-2xx answer or socket error makes the benchmark broken rather than fast.

The season's last round is tonight's (round 28 on today's evening, its results in), so that
what-if asks about it: a what-if with a result chosen on each board (66), asked once before
(issue 28: the same question on the same data is computed once), is measured like the pages. A
logged-in member's `/ranglijst/` is measured the same way (issue 28): a member of the season
with an account made for the run, whose session and form-token cookies wrk sends with the page
and with its static copy (their own copy of the page, their row marked). Before members' copies
were stored, their page was rendered for every view: 1/82 of a static file (the issue's figure).

Targets (issue 12) for `/ranglijst/`, also held for `/indeling/`, the player page, the
member's `/ranglijst/` and the what-if asked again (all served from the page cache):
- at least 0.5 times its static copy's requests a second (wrk and gunicorn share the machine's
  cores, so only a ratio within one run is comparable between machines). Each process keeps
  its last pages decoded (page_cache.Recent): before that, `/indeling/` (281 KiB, the largest
  page, unpickled and unzipped from the shared cache on every request) reached only 0.53-0.78;
- a median latency under 10 ms, judged on the latency run (connections = workers).

Everything it started is stopped in `finally`: gunicorn's process group, the temporary folder,
the PostgreSQL database.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit
from zoneinfo import ZoneInfo

from benchmarks.report import Report

ROOT = Path(__file__).resolve().parents[1]
PLAYERS, ROUNDS = 150, 28
SEASON = "bench-load"
COPIES = "bench"  # the pages' static copies: STATIC_ROOT/bench/…, /static/bench/…
THROUGHPUT = ["-t2", "-c8", "-d10s"]
WARM_UP = ["-t2", "-c8", "-d1s"]
LATENCY_SECONDS = 5
TARGET_RATIO = 0.5
TARGET_P50_MS = 10.0
STARTUP = 120  # seconds: an upper bound for gunicorn to answer, far above what it needs
COMMAND = 300  # seconds: an upper bound for any one command (migrate, import, one wrk run)


def run(report: Report) -> None:
    with built_site(last_evening_weeks_ago=0) as (env, folder):  # what-if asks about tonight
        measure(report, env, folder)


@contextmanager
def built_site(last_evening_weeks_ago: int = 1) -> Iterator[tuple[dict[str, str], Path]]:
    """The site with the season stored, in a temporary folder and its own database; yields
    the processes' environment and the folder, and removes both afterwards."""
    if not shutil.which("wrk"):
        raise RuntimeError("wrk is not installed (apt-get install -y wrk)")
    folder = Path(tempfile.mkdtemp(prefix="dsc-bench-load-"))
    try:
        with own_database(folder) as database_url:
            env = production_env(folder, database_url)
            print(f"building the {PLAYERS}-player, {ROUNDS}-round season (not timed) ...")
            prepare_site(env, folder, last_evening_weeks_ago)
            yield env, folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# --- The site: database, settings, season -----------------------------------------------------


@contextmanager
def own_database(folder: Path) -> Iterator[str]:
    """The benchmark's own database URL: a new PostgreSQL database beside DATABASE_URL's
    (dropped afterwards), else an SQLite file in `folder`."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        yield f"sqlite:///{folder / 'db.sqlite3'}"
        return
    import psycopg

    parts = urlsplit(url)
    name = f"{parts.path.lstrip('/') or 'postgres'}_load"
    drop = f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(drop)  # a broken earlier run's
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(drop)


def production_env(folder: Path, database_url: str) -> dict[str, str]:
    """The environment of the site's processes: production settings on the benchmark's own
    database, static root and page cache."""
    ours = ("DEBUG", "SECURE_SSL_REDIRECT", "STATICFILES_BACKEND", "SITE_URL", "ADMINS")
    env = {key: value for key, value in os.environ.items() if key not in ours}
    env.update(
        DJANGO_SETTINGS_MODULE="dsc_site.settings",
        SECRET_KEY="load-benchmark-secret-key-with-enough-characters-0123456789",
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="false",
        DATABASE_URL=database_url,
        STATIC_ROOT=str(folder / "static"),
        PAGE_CACHE_DIR=str(folder / "pages"),
        LOG_LEVEL="WARNING",
        TRUSTED_PROXIES="1",  # as behind the shipped stack's Caddy (see MANY_VISITORS)
    )
    return env


def prepare_site(env: dict[str, str], folder: Path, last_evening_weeks_ago: int = 1) -> None:
    from competition.keizer import season_file
    from competition.schedule import EVENING_SPACING

    from .keizer import generated_season

    season = generated_season(PLAYERS, ROUNDS, 7, seed=1)
    path = folder / "season.json"
    path.write_text(season_file.dumps(season), encoding="utf-8")
    # Round 28 was last week's evening: every round is past and published (or, with 0, it is
    # tonight's: what-if asks about it).
    today = datetime.now(ZoneInfo("Europe/Amsterdam")).date()  # the site's TIME_ZONE
    weeks = ROUNDS - 1 + last_evening_weeks_ago
    first_evening = (today - EVENING_SPACING * weeks).isoformat()
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput")
    manage(env, "import_season", str(path), "--season", SEASON, "--first-evening", first_evening)


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=COMMAND,
    )
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {args[0]} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


# --- gunicorn ------------------------------------------------------------------------------------


def production_workers() -> int:
    """The number of gunicorn workers the image starts (the Dockerfile's CMD)."""
    found = re.search(r"--workers[ =](\d+)", (ROOT / "Dockerfile").read_text())
    if not found:
        raise RuntimeError("no --workers in the Dockerfile's CMD")
    return int(found.group(1))


@contextmanager
def web_server(env: dict[str, str], folder: Path, workers: int) -> Iterator[str]:
    """gunicorn as the image runs it, on a free loopback port, in a process group of its own;
    yields its base URL once it answers, and stops the whole group afterwards."""
    port = free_port()
    log = folder / "gunicorn.log"
    command = [
        sys.executable, "-m", "gunicorn", "dsc_site.wsgi",
        "--bind", f"127.0.0.1:{port}",
        "--workers", str(workers),
        "--no-control-socket",
        "--access-logfile", "-",
    ]  # fmt: skip
    with open(log, "ab") as errors:
        server = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,  # the access log: written as in production, not kept
            stderr=errors,
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_answering(server, f"{base}/gezond/", log)
        yield base
    finally:
        stop(server)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_answering(server: subprocess.Popen, url: str, log: Path) -> None:
    """Polls `url` until gunicorn answers at all (any HTTP status), at most STARTUP seconds."""
    until = time.monotonic() + STARTUP
    while time.monotonic() < until:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn ended at start:\n{log.read_text()[-3000:]}")
        try:
            urllib.request.urlopen(url, timeout=5).close()
            return
        except urllib.error.HTTPError:
            return  # it answers (/gezond/ says 503: no worker has been seen; that is fine here)
        except OSError:
            time.sleep(0.05)  # not listening yet
    raise RuntimeError(f"gunicorn did not answer within {STARTUP} s:\n{log.read_text()[-3000:]}")


def stop(server: subprocess.Popen) -> None:
    """SIGTERM to gunicorn's process group (the master and its workers), SIGKILL if it lingers."""
    try:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=30)
    except ProcessLookupError:
        pass


def fetch(url: str, cookie: str = "") -> bytes:
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(request, timeout=30) as response:
        if response.status != 200:
            raise RuntimeError(f"{url} answered {response.status}")
        return response.read()


# --- wrk -----------------------------------------------------------------------------------------


@dataclass
class Load:
    requests_per_second: float
    p50_ms: float
    p99_ms: float


_UNITS_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0, "h": 3_600_000.0}


def wrk(url: str, options: list[str]) -> Load:
    """One wrk run; a non-2xx answer or a socket error breaks the benchmark."""
    done = subprocess.run(
        ["wrk", *options, "--latency", url],
        capture_output=True,
        text=True,
        timeout=COMMAND,
        check=True,
    )
    out = done.stdout
    if "Non-2xx" in out or "Socket errors" in out:
        raise RuntimeError(f"wrk saw failed requests on {url}:\n{out}")
    return Load(
        requests_per_second=float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        p50_ms=_percentile(out, "50%"),
        p99_ms=_percentile(out, "99%"),
    )


def _percentile(out: str, which: str) -> float:
    value, unit = re.search(rf"^\s*{which}\s+([\d.]+)(us|ms|s|m|h)\s*$", out, re.M).groups()
    return float(value) * _UNITS_MS[unit]


# --- The measurement ---------------------------------------------------------------------------


@dataclass
class Page:
    path: str
    content: bytes  # as a visitor (or, with `cookie`, the member) got it
    copy: str  # the static file with the same bytes, e.g. /static/bench/ranglijst.html
    cookie: str = ""  # a logged-in member's cookies, sent with the page and its copy
    many_visitors: bool = False  # each request from another address (MANY_VISITORS)


@dataclass
class Measured:
    size: int  # bytes
    throughput: Load  # the page at -c8
    latency: Load  # the page at as many connections as workers
    static_throughput: Load  # its static copy at -c8, measured just before the page
    static_latency: Load


def measure(report: Report, env: dict[str, str], folder: Path) -> None:
    workers = production_workers()
    cookie = member_cookies(env)
    # A first server only to learn the pages' bytes: the static copies must exist before the
    # measured server's workers start (whitenoise lists STATIC_ROOT then).
    with web_server(env, folder, workers) as base:
        pages = checked_pages(base, cookie)
    for page in pages.values():
        copy = folder / "static" / page.copy.removeprefix("/static/")
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(page.content)

    latency = [f"-t{min(2, workers)}", f"-c{workers}", f"-d{LATENCY_SECONDS}s"]
    results = {}
    with web_server(env, folder, workers) as base:
        checked_pages(base, cookie)  # the measured server serves them whole too
        for name, page in pages.items():
            url, static = f"{base}{page.path}", f"{base}{page.copy}"
            if fetch(static) != page.content:
                raise RuntimeError(f"{page.copy} is not the bytes of {page.path}")
            sent = ["-H", f"Cookie: {page.cookie}"] if page.cookie else []
            if page.many_visitors:
                script = folder / "many_visitors.lua"
                script.write_text(MANY_VISITORS, encoding="utf-8")
                sent += ["-s", str(script)]
            wrk(static, WARM_UP + sent)
            wrk(url, WARM_UP + sent)
            static_throughput = wrk(static, THROUGHPUT + sent)
            results[name] = Measured(
                size=len(page.content),
                throughput=wrk(url, THROUGHPUT + sent),
                latency=wrk(url, latency + sent),
                static_throughput=static_throughput,
                static_latency=wrk(static, latency + sent),
            )
    show(report, results, workers, " ".join(latency))


def show(report: Report, results: dict[str, Measured], workers: int, latency: str) -> None:
    report.heading(
        f"Load: gunicorn ({workers} sync workers as in the Dockerfile, production settings) "
        f"and wrk sharing this machine's {os.cpu_count()} cores; {PLAYERS} players, "
        f"{ROUNDS} rounds; pages from the page cache, as a visitor gets them"
    )
    report.note(
        f"req/s: wrk {' '.join(THROUGHPUT)}, each page's static copy (same bytes) right before "
        "it. Latency p50/p99 in ms at -c8 (mostly queueing) and at "
        f"{latency} (connections = workers, nothing queues): the median target is judged there"
    )
    report.note(
        f"{'':<30}{'req/s':>7}{'p50/p99 -c8':>17}{f'p50/p99 -c{workers}':>17}"
        f"{'static req/s':>14}{f'static -c{workers}':>17}"
    )
    for name, measured in results.items():
        report.note(
            f"{f'{name} ({measured.size / 1024:.0f} KiB)':<30}"
            f"{measured.throughput.requests_per_second:>7.0f}"
            f"{_latencies(measured.throughput):>17}{_latencies(measured.latency):>17}"
            f"{measured.static_throughput.requests_per_second:>14.0f}"
            f"{_latencies(measured.static_latency):>17}"
        )
    for name, measured in results.items():
        page_rate = measured.throughput.requests_per_second
        static_rate = measured.static_throughput.requests_per_second
        label = f"{name} req/s ÷ its static copy's"
        report.at_least(
            label,
            page_rate / static_rate,
            TARGET_RATIO,
            ratio=f"{page_rate:.0f} vs {static_rate:.0f} req/s",
        )
        report.at_most(
            f"{name} median latency at -c{workers}", measured.latency.p50_ms, TARGET_P50_MS
        )


def _latencies(load: Load) -> str:
    return f"{load.p50_ms:.2f}/{load.p99_ms:.2f}"


def member_cookies(env: dict[str, str]) -> str:
    """The cookies of a member logged in (the leader of ranking 0, with an account made here):
    a session as the login makes it, and a form token's secret."""
    code = (
        "from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY\n"
        "from django.contrib.auth.models import User\n"
        "from django.contrib.sessions.backends.db import SessionStore\n"
        "from django.utils.crypto import get_random_string\n"
        "from competition.models import Participant\n"
        "member = Participant.objects.order_by('initial_position').first().member\n"
        "member.user = User.objects.create_user('bench-member', password=get_random_string(20))\n"
        "member.save()\n"
        "session = SessionStore()\n"
        "session[SESSION_KEY] = str(member.user.pk)\n"
        "from django.conf import settings\n"
        "session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[-1]\n"
        "session[HASH_SESSION_KEY] = member.user.get_session_auth_hash()\n"
        "session.create()\n"
        "print(f'sessionid={session.session_key}; csrftoken={get_random_string(32)}')\n"
    )
    return manage(env, "shell", "-c", code).strip().splitlines()[-1]


def checked_pages(base: str, cookie: str) -> dict[str, Page]:
    """The measured pages, each fetched once: status 200 (`fetch`) and the whole page; the
    member's standings with their own row marked."""
    standings = fetch(f"{base}/ranglijst/")
    players = re.findall(rb'href="/spelers/(\d+)/"', standings)
    if len(set(players)) != PLAYERS:
        raise RuntimeError(f"/ranglijst/ links {len(set(players))} players, not {PLAYERS}")
    pairing = fetch(f"{base}/indeling/")
    if f"Ronde {ROUNDS}".encode() not in pairing:
        raise RuntimeError(f"/indeling/ does not show round {ROUNDS}")
    player_path = f"/spelers/{players[0].decode()}/"  # the leader's page
    player = fetch(f"{base}{player_path}")
    if b"Speler " not in player or player.count(b"<tr") < ROUNDS:
        raise RuntimeError(f"{player_path} does not show the player's {ROUNDS} rounds")
    own = fetch(f"{base}/ranglijst/", cookie)
    if own.count(b'class="own"') != 1 or b"Uitloggen" not in own:
        marked, menu = own.count(b'class="own"'), b"Uitloggen" in own
        raise RuntimeError(f"the member's /ranglijst/: {marked} rows marked, logged in: {menu}")
    what_if = what_if_question(base)
    return {
        "/ranglijst/": Page("/ranglijst/", standings, f"/static/{COPIES}/ranglijst.html"),
        "member /ranglijst/": Page(
            "/ranglijst/", own, f"/static/{COPIES}/ranglijst-lid.html", cookie
        ),
        "/indeling/": Page("/indeling/", pairing, f"/static/{COPIES}/indeling.html"),
        "player page": Page(player_path, player, f"/static/{COPIES}/speler.html"),
        "what-if asked again": Page(
            what_if, fetch(f"{base}{what_if}"), f"/static/{COPIES}/wat-als.html", "", True
        ),
    }


# A wrk script: every request from another client address, as the proxy in front would say
# (X-Forwarded-For, TRUSTED_PROXIES=1): a what-if link shared in the club's chat, opened by many.
# From one address, wrk's 8 connections would meet the fair-use limit each minute, when the
# stored answer is a minute old and the first of them computes it again (one at a time per
# address: the others get 429).
MANY_VISITORS = """
local visitor = 0
request = function()
  visitor = visitor + 1
  wrk.headers["X-Forwarded-For"] = "10." .. math.floor(visitor / 65536) % 256 .. "."
    .. math.floor(visitor / 256) % 256 .. "." .. visitor % 256
  return wrk.format()
end
"""


def what_if_question(base: str) -> str:
    """The address of a what-if of tonight's round with a result chosen on every board (asked
    once here, computed then: the measurement asks it again, as a shared link is)."""
    form = fetch(f"{base}/wat-als/")
    boards = re.findall(rb'name="(bord-\d+)"', form)
    if not boards:
        raise RuntimeError("/wat-als/ asks about no board")
    from competition.keizer.season import Result

    cycle = [Result.WHITE_WINS.value, Result.DRAW.value, Result.BLACK_WINS.value]
    query = urlencode(
        [("ronde", str(ROUNDS))]
        + [(name.decode(), cycle[index % 3]) for index, name in enumerate(boards)]
    )
    path = f"/wat-als/?{query}"
    answer = fetch(f"{base}{path}")
    if b"what-if-ranking" not in answer or answer.count(b'<th scope="row">') < PLAYERS * 0.8:
        raise RuntimeError(f"{path} does not rank the {PLAYERS} players")
    return path


if __name__ == "__main__":
    report = Report()
    run(report)
    print(f"\nmissed: {', '.join(report.missed)}" if report.missed else "\nevery target met")
    sys.exit(1 if report.missed else 0)
