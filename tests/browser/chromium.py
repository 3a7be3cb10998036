"""Debian's Chromium, as the browser tests and the browser benchmarks (Lighthouse, the rapid
evening) start it here: where it is, and the switches it runs with."""

from pathlib import Path

# The full browser (Lighthouse launches it itself; the rapid evening measures what a tablet's
# browser does).
FULL = "/usr/bin/chromium"
# Debian's headless shell is Chromium without its window system: the same engine (Blink, V8,
# the PDF printer) at about half the CPU of the full browser in headless mode. The full browser
# is the fallback where only it is installed.
LIGHTEST = next(
    (path for path in ("/usr/bin/chromium-headless-shell", FULL) if Path(path).exists()), None
)
# Run as root in a container without a GPU or a large /dev/shm, and never reach out to Google's
# services (updates, sync, the first-run page) in the middle of a measurement.
ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
