"""The image as shipped (issue 26, point 1): its application tree is built from the Dockerfile
itself (its final stage's WORKDIR and COPY lines) and the .dockerignore, as `docker build` would
build it from this checkout; from exactly that tree, and nothing else of the checkout, run
`check --deploy`, `migrate`, `collectstatic`, gunicorn as the Dockerfile's CMD starts it
serving /gezond/, and one worker pass.

Python runs with -S: the editable install's finder (which maps the site's packages to the
checkout) is left out, the dependencies come from site-packages, so a folder the image lacks is
missing here too. (The image itself needs a container engine and a registry; this machine has
neither for `docker build`, so the tree is what is tested; the image adds only the Python
base and the dependencies the build stage installs from pyproject.toml.)"""

import os
import re
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import ROOT, STARTUP, web_process

PYTHON = [sys.executable, "-S"]


def dockerignore_patterns() -> list[re.Pattern]:
    """The .dockerignore's patterns as Docker reads them: relative to the context, `*` within
    one path part, `**` across parts, a pattern leaving out a folder leaves out what is in it."""
    patterns = []
    for line in (ROOT / ".dockerignore").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        regex = ""
        index = 0
        while index < len(line):
            if line.startswith("**/", index):
                regex, index = regex + "(?:.*/)?", index + 3
            elif line.startswith("**", index):
                regex, index = regex + ".*", index + 2
            elif line[index] == "*":
                regex, index = regex + "[^/]*", index + 1
            elif line[index] == "?":
                regex, index = regex + "[^/]", index + 1
            else:
                regex, index = regex + re.escape(line[index]), index + 1
        patterns.append(re.compile(regex.strip("/")))
    return patterns


def ignored(path: str, patterns: list[re.Pattern]) -> bool:
    parts = path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    return any(p.fullmatch(prefix) for p in patterns for prefix in prefixes)


def context_files() -> list[str]:
    """What `docker build .` sends from this checkout: every file in the folder, what git
    ignores included (a volunteer's .env, a backup copied out of the container), except what the
    .dockerignore leaves out."""
    patterns = dockerignore_patterns()
    found = []
    for folder, folders, files in os.walk(ROOT):
        here = Path(folder).relative_to(ROOT).as_posix()
        inside = "" if here == "." else f"{here}/"
        folders[:] = [name for name in folders if not ignored(f"{inside}{name}", patterns)]
        found += [f"{inside}{name}" for name in files if not ignored(f"{inside}{name}", patterns)]
    return sorted(found)


def final_stage() -> list[str]:
    lines = (ROOT / "Dockerfile").read_text().replace("\\\n", " ").splitlines()
    start = max(i for i, line in enumerate(lines) if line.startswith("FROM "))
    return [line for line in lines[start:] if line and not line.startswith("#")]


def build_tree(target: Path) -> Path:
    """The final stage's files: each COPY of the build context into its WORKDIR."""
    workdir = Path("/")
    app = None
    for line in final_stage():
        instruction, _, rest = line.partition(" ")
        if instruction == "WORKDIR":
            workdir = workdir / rest.strip()
            app = target / workdir.relative_to("/")
        elif instruction == "COPY" and not rest.startswith("--from"):
            *sources, destination = rest.split()
            into = target / (workdir / destination).relative_to("/")
            files = context_files()
            for source in (source.rstrip("/") or "." for source in sources):
                for path in files:
                    if source == ".":
                        copy = into / path  # the whole context
                    elif path == source:
                        copy = into / Path(path).name  # a file, into the folder
                    elif path.startswith(f"{source}/"):
                        copy = into / path[len(source) + 1 :]  # a folder's contents
                    else:
                        continue
                    copy.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(ROOT / path, copy)
    assert app is not None, "the Dockerfile's final stage sets no WORKDIR"
    return app


@pytest.fixture(scope="module")
def image_tree(tmp_path_factory):
    return build_tree(tmp_path_factory.mktemp("image"))


@pytest.fixture
def image_env(image_tree, tmp_path):
    return {  # the container's environment: nothing of this process's settings
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "PYTHONPATH": os.pathsep.join(site.getsitepackages()),
        "DJANGO_SETTINGS_MODULE": "dsc_site.settings",
        "SECRET_KEY": "image-tree-test-secret-key-with-enough-characters-0123456789",
        "ALLOWED_HOSTS": "dsc.example.org",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "STATIC_ROOT": str(tmp_path / "static"),
        "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend",
    }


def run(tree: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*PYTHON, "manage.py", *args], cwd=tree, env=env, capture_output=True, text=True
    )


# What the README has a volunteer put in the checkout on the server: the settings with their
# secrets (and a copy of them), the DKIM key "beside .env", backups copied out of the container.
SECRETS = [
    ".env",
    ".env.old",
    "dkim.pem",
    "dkim.key",
    "dsc-backup-20261120-000012.tar.gz",
    "dsc-daily-20261120-000012.tar.gz",
]


def test_no_secret_or_backup_in_the_checkout_reaches_the_image():
    """A volunteer's secrets and backups never go into the image (they went in, but .env)."""
    patterns = dockerignore_patterns()
    assert [name for name in SECRETS if not ignored(name, patterns)] == []
    assert not ignored("manage.py", patterns) and not ignored("static/favicon.svg", patterns)


# What else a checkout holds on the machine that builds the image: a compose override with the
# ports of that machine, Caddy's root certificate copied out (README), and what `make run`,
# `make install` and `make test` leave behind (issue 38: the first two went into the image).
LOCAL_FILES = [
    "compose.override.yaml",
    "compose.override.yml",
    "docker-compose.override.yml",
    "root.crt",
    "db.sqlite3",
    "db.sqlite3-wal",
    ".mail/20261120-200000-1.eml",
    ".venv/bin/python",
    "node_modules/axe-core/axe.min.js",
    "tests/browser/screenshots/standings-360.png",
    "staticfiles/staticfiles.json",
    ".hypothesis/examples/0",
    ".ruff_cache/CACHEDIR.TAG",
    ".pytest_cache/README.md",
    "dsc_site.egg-info/PKG-INFO",
    "competition/__pycache__/models.cpython-311.pyc",
]


def test_no_file_of_the_building_machine_reaches_the_image():
    patterns = dockerignore_patterns()
    assert [name for name in LOCAL_FILES if not ignored(name, patterns)] == []
    kept = ["Caddyfile", "gunicorn.conf.py", "competition/models.py", "locale/nl/LC_MESSAGES"]
    assert [name for name in kept if ignored(name, patterns)] == []


def test_the_tree_holds_every_package_the_site_imports_and_nothing_of_the_tests(image_tree):
    """What `INSTALLED_APPS` and the URLs import is there (training/ was missing)."""
    packages = {path.parent.name for path in image_tree.glob("*/__init__.py")}
    assert {"arbiter", "base", "clubweek", "competition", "members", "absences"} <= packages
    assert {"operations", "training", "dsc_site"} <= packages
    assert not (image_tree / "tests").exists() and not (image_tree / ".git").exists()
    assert (image_tree / "manage.py").is_file() and (image_tree / "gunicorn.conf.py").is_file()


# The three commands a deployment runs before serving, in one process of the tree's Python (each
# process of its own was one more start of Django: a second of CPU each on a busy machine). Each
# command as `manage.py` runs it; the first that fails raises and names itself.
PREPARE = """
import sys
import django
from django.core.management import call_command
django.setup()
for step in (
    ["check", "--deploy", "--fail-level", "WARNING"],
    ["migrate", "--noinput"],
    ["collectstatic", "--noinput"],
):
    print("step", *step, file=sys.stderr, flush=True)
    call_command(*step)
"""


def test_the_tree_checks_migrates_serves_health_and_runs_a_worker_pass(image_tree, image_env):
    done = subprocess.run(
        [*PYTHON, "-c", PREPARE], cwd=image_tree, env=image_env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert (Path(image_env["STATIC_ROOT"]) / "favicon.svg").is_file()

    with web_process(image_env, cwd=image_tree, python=" ".join(PYTHON)) as port:
        # The container's health check, as compose.yaml runs it (the site's host, as Caddy).
        def health() -> tuple[int, str]:
            checked = subprocess.run(
                [*PYTHON, "-m", "operations.healthcheck", "--port", str(port)],
                cwd=image_tree,
                env=image_env,
                capture_output=True,
                text=True,
                timeout=STARTUP,
            )
            return checked.returncode, checked.stdout

        assert health() == (1, "503: worker never seen\n")  # no worker has run yet
        worker = run(image_tree, image_env, "run_worker")
        assert worker.returncode == 0, worker.stderr[-2000:]
        assert health() == (0, "ok\n")
