"""Waiting for a condition another connection or process brings about, never for a fixed time."""

import time


def wait_until(condition, what: str, bound: float = 60.0) -> None:
    """Poll until `condition()` holds; the bound only ends a broken run."""
    deadline = time.monotonic() + bound
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {bound} s for {what}")
        time.sleep(0.01)


def another_connection_waits_for_a_lock(statement_part: str = "") -> bool:
    """Another connection to this test database waits for a lock, in a statement containing
    `statement_part` (PostgreSQL's own account of who waits, and for what)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            " AND datname = current_database() AND pid <> pg_backend_pid()"
            " AND query LIKE %s",
            [f"%{statement_part}%"],
        )
        return cursor.fetchone()[0] > 0
