"""The Dutch catalogue: every text a person reads has its Dutch, and the compiled file the site
loads is the catalogue as written (a merge or a forgotten compilemessages shows here)."""

from pathlib import Path

import polib

LOCALE = Path(__file__).resolve().parents[2] / "locale" / "nl" / "LC_MESSAGES"


def entries(catalogue) -> dict:
    return {
        (entry.msgctxt, entry.msgid): entry.msgstr or dict(entry.msgstr_plural)
        for entry in catalogue
        if entry.msgid and not entry.obsolete
    }


def test_every_text_has_its_dutch_and_none_is_a_guess():
    catalogue = polib.pofile(str(LOCALE / "django.po"))
    untranslated = [e.msgid for e in catalogue.untranslated_entries()]
    guesses = [e.msgid for e in catalogue.fuzzy_entries()]
    assert untranslated == [] and guesses == []


def test_the_compiled_catalogue_is_the_written_one():
    written = entries(polib.pofile(str(LOCALE / "django.po")))
    compiled = {
        key: value if isinstance(value, str) else {int(k): v for k, v in value.items()}
        for key, value in entries(polib.mofile(str(LOCALE / "django.mo"))).items()
    }
    written = {
        key: value if isinstance(value, str) else {int(k): v for k, v in value.items()}
        for key, value in written.items()
    }
    assert compiled == written
