"""Two workers, or two people, at the same moment: the tests of what row locks guarantee.

`needs_row_locks` marks such a test: SQLite has one writer at a time and no row locks (its
`SELECT … FOR UPDATE` and `SKIP LOCKED` do nothing), so the race is run on PostgreSQL, which
`.ci/run` uses. `at_once` runs calls in threads released together, each on its own connection.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection

needs_row_locks = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs real row locks between connections: runs on PostgreSQL (CI)",
)


def at_once(*calls: Callable[[], object]) -> list[tuple[object, BaseException | None]]:
    """Run the calls in threads released at the same moment; each call's result or the
    exception it raised, in the order given. Each thread closes its own connection."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[tuple[object, BaseException | None]] = [(None, None)] * len(calls)

    def run(index: int, call: Callable[[], object]) -> None:
        try:
            barrier.wait()
            outcomes[index] = (call(), None)
        except Exception as error:  # returned to the test, which says what it expects
            outcomes[index] = (None, error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=item) for item in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def errors_of(outcomes) -> list[BaseException]:
    return [error for _result, error in outcomes if error is not None]
