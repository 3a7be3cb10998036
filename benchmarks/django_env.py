"""Django for the benchmarks that need it: a throw-away SQLite database (or DATABASE_URL),
migrated once per `make bench` run, whichever benchmark asks first."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

_ready = False


def setup() -> None:
    global _ready
    if _ready:
        return
    folder = tempfile.mkdtemp(prefix="dsc-bench-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    _ready = True
