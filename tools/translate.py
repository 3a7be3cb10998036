"""Fill the Dutch catalogue from a msgid -> Dutch mapping and report what is missing.

Usage: python tools/translate.py MAPPING.py   (the file defines a dict NL)
Needs polib (a dev dependency); a maintenance tool, not a dependency of the site.
"""

import runpy
import sys

import polib

CATALOGUE = "locale/nl/LC_MESSAGES/django.po"


def main() -> int:
    mapping = runpy.run_path(sys.argv[1])["NL"]
    po = polib.pofile(CATALOGUE)
    missing = []
    for entry in po:
        if entry.msgid in mapping:
            dutch = mapping[entry.msgid]
            if entry.msgid_plural:
                entry.msgstr_plural = {0: dutch[0], 1: dutch[1]}
            else:
                entry.msgstr = dutch
            if "fuzzy" in entry.flags:
                entry.flags.remove("fuzzy")
                entry.previous_msgid = None
                entry.previous_msgid_plural = None
                entry.previous_msgctxt = None  # else a lone "#| msgctxt" msgfmt refuses
        elif "fuzzy" in entry.flags or not (entry.msgstr or entry.msgstr_plural.get(0)):
            missing.append(entry.msgid)  # a guess by makemessages is not a translation
    po.metadata["Language"] = "nl"
    po.metadata["Plural-Forms"] = "nplurals=2; plural=(n != 1);"
    po.metadata["Content-Type"] = "text/plain; charset=UTF-8"
    po.save(CATALOGUE)
    for msgid in missing:
        print(f"missing: {msgid!r}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
