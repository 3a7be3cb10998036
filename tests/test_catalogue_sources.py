"""Every text the site translates is one that `makemessages` finds. xgettext does not read a
call inside an f-string: `f"{_('(you)')}"` left "(jij)" out of the catalogue the first time it
was made again, and the standings said "(you)" to a Dutch member (issue 37)."""

import ast
from pathlib import Path

from tests.test_structure import ROOT, SITE, TRANSLATED


def calls_in_f_strings(source: str) -> list[int]:
    """The lines where a translation call sits inside an f-string."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.JoinedStr):
            for inner in ast.walk(node):
                if (
                    isinstance(inner, ast.Call)
                    and (getattr(inner.func, "id", None) or getattr(inner.func, "attr", None))
                    in TRANSLATED
                ):
                    found.append(inner.lineno)
    return found


def test_no_translated_text_is_written_inside_an_f_string():
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for package in SITE
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
        for line in calls_in_f_strings(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_check_sees_a_call_in_an_f_string():
    assert calls_in_f_strings("you = f\"<span>{escape(_('(you)'))}</span>\"") == [1]
    assert calls_in_f_strings('words = _("(you)")\nyou = f"<span>{words}</span>"') == []


def test_the_catalogue_has_the_words_of_the_standings_own_row():
    catalogue = (Path(ROOT) / "locale" / "nl" / "LC_MESSAGES" / "django.po").read_text()
    assert 'msgid "(you)"\nmsgstr "(jij)"' in catalogue
