"""Fill the Dutch catalogue from a msgid -> Dutch mapping and report what is missing.

Usage: python tools/translate.py MAPPING.py   (the file defines a dict NL)
Needs polib (pip install polib); a maintenance tool, not a dependency of the site.
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
            entry.msgstr = mapping[entry.msgid]
            if "fuzzy" in entry.flags:
                entry.flags.remove("fuzzy")
        elif not entry.msgstr:
            missing.append(entry.msgid)
    po.metadata["Language"] = "nl"
    po.metadata["Plural-Forms"] = "nplurals=2; plural=(n != 1);"
    po.metadata["Content-Type"] = "text/plain; charset=UTF-8"
    po.save(CATALOGUE)
    for msgid in missing:
        print(f"missing: {msgid!r}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
