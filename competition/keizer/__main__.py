"""Command line: `python -m competition.keizer standings|pair FILE` (FILE may be `-`).

Prints the JSON of `season-format.md` on stdout; bad input exits 2 with one line on stderr.
Each command imports only what it uses: start-up is a good part of a command's time.
"""

from __future__ import annotations

import gc
import os
import sys

if __name__ == "__main__":
    # A short process that makes no cycles worth collecting: the collector's passes over the
    # season's many small objects (and the modules' while they load) would cost a tenth of
    # the run.
    gc.disable()

from .season_file import SeasonFileError, loads, read

USAGE = "usage: python -m competition.keizer {standings,pair} FILE   (FILE may be '-')"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] not in ("standings", "pair"):
        print(USAGE, file=sys.stderr)
        return 2
    command, path = args
    gc.disable()  # (again, for a caller of `main`)
    try:
        season = loads(_read(path))
    except SeasonFileError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if command == "standings":
        from .output import standings_json
        from .ranking import compute_rankings

        sys.stdout.buffer.write(standings_json(season, compute_rankings(season)).encode())
        sys.stdout.buffer.write(b"\n")
        return 0
    import json

    from .output import pairing_document
    from .pairing import pair_next_round
    from .ranking import last_ranking

    pairing = pair_next_round(season, last_ranking(season))
    sys.stdout.write(json.dumps(pairing_document(pairing), ensure_ascii=False) + "\n")
    return 0


def _read(path: str) -> str:
    """The file's text, refused before it is read when larger than any season file."""
    try:
        if path == "-":
            return read(sys.stdin.buffer, path)
        with open(path, "rb") as file:
            return read(file, path)
    except OSError as error:
        raise SeasonFileError(path, f"cannot read the file: {error.strerror}") from None


if __name__ == "__main__":
    status = main()
    # Done: flush what was printed and leave without the interpreter's teardown, which would
    # free the season, its rankings and the output object by object (a tenth of a run).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
