"""Files a test run builds once and every pytest-xdist worker reads (the demo's rows, a migrated
database with collected static files): the first process that asks builds them under a lock in
the folder the workers share, the others wait for the lock and find them built."""

import fcntl
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest


def shared_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This run's temporary folder: in a pytest-xdist worker the one every worker's own sits in
    (pytest-xdist names the worker in PYTEST_XDIST_WORKER)."""
    folder = tmp_path_factory.getbasetemp()
    return folder.parent if "PYTEST_XDIST_WORKER" in os.environ else folder


def built_once(target: Path, build: Callable[[Path], None]) -> bool:
    """Make sure `target` exists: `build(partial)` writes it at `partial` in the first process
    that asks, and it is renamed to `target` whole. True in the process that built it.

    The lock is held by one process at a time (the others wait for it) and is released when its
    process ends, even if it dies while building; a build that fails leaves nothing behind, and
    the next process to ask tries again."""
    if target.exists():
        return False
    with open(target.with_name(f"{target.name}.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if target.exists():  # built while this process waited
                return False
            partial = target.with_name(f"{target.name}.{os.getpid()}.partial")
            try:
                build(partial)
            except BaseException:
                remove(partial)
                raise
            partial.replace(target)
            return True
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)
