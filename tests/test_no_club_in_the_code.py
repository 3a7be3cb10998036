"""No club in the code (issue 40, point 4): no page, e-mail, calendar, print sheet, TRF file,
admin page or Dutch text names DSC or Drachten unless the club's data says so. What a person
reads comes from four places, each checked here: the Dutch catalogue, the templates (and the
static files they load), and the texts written in the site's Python and in the engine.
Comments and docstrings may name DSC: they tell a developer where a rule comes from.

Three files may name DSC in a literal, each for a reason that is not a text a member reads:
the settings (the environment DSC's row was first filled from, `club.models.initial_values`),
DSC's demo (`load_demo`: the club's own data, as a database would hold it) and the backups
(their file names on the server's disk: renamed, the rotation would lose DSC's earlier ones).
The club's own content (the rules page, the training article) is data, seeded from
`competition/content/` and `training/content/` for DSC, and not checked.

Each check also runs on a sample of what it forbids, so it cannot pass by seeing nothing.
"""

import ast
import re
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parents[1]
CLUB = re.compile(r"DSC|Drachten|\bdsc-")
PACKAGES = ("base", "club", "operations", "members", "training", "competition")
PACKAGES += ("absences", "clubweek", "arbiter", "dsc_site")
MAY_NAME_DSC = {
    "dsc_site/settings.py",
    "dsc_site/management/commands/load_demo.py",
    "operations/backups.py",
}
CATALOGUE = ROOT / "locale" / "nl" / "LC_MESSAGES" / "django.po"


def texts(source: str) -> list[tuple[int, str]]:
    """Every string literal with its line, docstrings aside (f-strings' parts included)."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


def naming_the_club(source: str) -> list[str]:
    return [f"{line}: {text!r}" for line, text in texts(source) if CLUB.search(text)]


def python_sources() -> list[Path]:
    return [
        path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
    ]


def test_no_text_in_the_site_or_the_engine_names_dsc():
    found = {
        str(path.relative_to(ROOT)): lines
        for path in python_sources()
        if str(path.relative_to(ROOT)) not in MAY_NAME_DSC
        and (lines := naming_the_club(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_python_check_sees_a_text_but_not_a_docstring_or_a_module_path():
    sample = '''
def f():
    """DSC rule k."""
    import_module("dsc_site.settings")
    return _("%(club)s rule k") % {"club": "DSC"}, f"dsc-round-{1}", "Drachten"
'''
    assert sorted(naming_the_club(sample)) == ["5: 'DSC'", "5: 'Drachten'", "5: 'dsc-round-'"]


def test_no_dutch_text_names_dsc():
    catalogue = polib.pofile(str(CATALOGUE))
    found = [
        entry.msgid
        for entry in catalogue
        if not entry.obsolete
        and CLUB.search(" ".join([entry.msgid, entry.msgstr, *entry.msgstr_plural.values()]))
    ]
    assert found == []


def test_no_template_or_static_file_names_dsc():
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for folder in ("templates", "static")
        for path in sorted((ROOT / folder).rglob("*"))
        if path.suffix in {".html", ".txt", ".css", ".js", ".svg", ".xml"}
        and "vendor" not in path.parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if CLUB.search(line)
    ]
    assert found == []


def test_the_template_check_reads_the_templates():
    assert any((ROOT / "templates").rglob("*.html"))
    assert CLUB.search("<title>DSC Drachten</title>") and not CLUB.search("{{ club.name }}")
