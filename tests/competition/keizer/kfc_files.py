"""KeizerForClubs' shipped test tournament (`cfg/Test-Tournament.s3db`) as a file again: its
tables and rows are kept as text (`sqlite3 .dump`, peers/keizerforclubs/README.md names the
commits and the licence), and written back into a SQLite file for the tests."""

import sqlite3
from pathlib import Path

PEER = Path(__file__).parent / "peers" / "keizerforclubs"
TOURNAMENT_2024 = PEER / "test-tournament-2024.sql"  # at fc7859e: 5 rounds played
TOURNAMENT_2022 = PEER / "test-tournament-2022.sql"  # at 5735d95: round 5 paired, not played


def tournament_file(directory: Path, dump: Path = TOURNAMENT_2024, *changes: str) -> Path:
    """The dump as a .s3db file in `directory`, with SQL `changes` applied after it."""
    path = directory / f"{dump.stem}.s3db"
    path.unlink(missing_ok=True)
    connection = sqlite3.connect(path)
    connection.executescript(dump.read_text(encoding="utf-8"))
    for change in changes:
        connection.execute(change)
    connection.commit()
    connection.close()
    return path
