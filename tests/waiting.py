"""Waiting for a condition another connection or process brings about, never for a fixed time."""

import time


def wait_until(condition, what: str, bound: float = 60.0) -> None:
    """Poll until `condition()` holds; the bound only ends a broken run."""
    deadline = time.monotonic() + bound
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {bound} s for {what}")
        time.sleep(0.01)
