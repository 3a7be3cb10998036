"""axe-core (from the npm registry, pinned in package-lock.json, installed by `make install`;
never served to visitors) run in the page a browser test has open, with the WCAG 2.2 A and AA
rules. Injected by Playwright (an init script, or evaluate), which the site's
Content-Security-Policy does not govern (the page's own policy is tested as it is:
tests/browser/test_security.py)."""

from pathlib import Path

import pytest

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
MISSING = "axe-core is not installed (make install runs `npm ci`; .ci/run does too)"

# axe's own work for what only it reads. The HTML of each node it reports is not kept
# (`noHtml`: we report the selectors). The page's media are fetched again (`preload`) only where
# there are audio or video elements: of the rules run (WCAG A/AA, experimental ones not), only
# the autoplay rule reads what axe preloads. The same rules checked, a sixth less of the time.
RUN = """async (tags) => {
  axe.configure({noHtml: true});
  const result = await axe.run(document, {
    runOnly: {type: "tag", values: tags}, resultTypes: ["violations"],
    preload: document.querySelector("audio, video") !== null});
  return result.violations.map(v => `${v.impact} ${v.id}: ` +
    v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(" | "));
}"""


def axe_on_every_page(page) -> None:
    """axe-core in every page this tab opens from now on, as it opens (the browser keeps it
    compiled: a fifth less time than injecting it into each page afterwards)."""
    page.add_init_script(path=str(AXE))


def violations(page) -> list[str]:
    """Every WCAG A/AA rule the open page breaks, with up to three of its elements. Without
    axe-core (no npm where `make install` ran) the test is skipped here, having checked what
    came before: `make test` passes on a machine with Python and make alone."""
    if not AXE.exists():
        pytest.skip(MISSING)
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    return page.evaluate(RUN, WCAG)
