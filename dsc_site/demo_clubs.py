"""The demo's clubs (`manage.py load_demo --club KEY`): DSC, whose demo `make run` shows, and
a second club that shares nothing with it but the site (issue 40, point 5): another name and
place, Tuesday evenings, cancelling until Sunday 20:00, the pairing on Monday at 12:00, an
excused absence worth half the own value, at most three of them counted, and an empty rules
page, as `manage.py new_club` leaves it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import time
from fractions import Fraction
from pathlib import Path

from competition.keizer.season import Settings

CONTENT = Path(__file__).resolve().parents[1] / "competition" / "content"


@dataclass(frozen=True)
class DemoClub:
    key: str
    club: dict = field(default_factory=dict)  # the club's row as it changes; {}: as migrated
    teams: tuple[str, str] = ("1", "2")  # after the short name: "DSC 1"
    keizer: Settings = field(default_factory=Settings)  # the internal competition's
    rules: Path | None = None  # the rules page's text; None: an empty page
    with_rapid: bool = True  # the rapid competition (DSC's: on Tuesdays)
    with_article: bool = True  # the first training article


DSC = DemoClub("dsc", rules=CONTENT / "reglement.txt")
DE_TOREN = DemoClub(
    "de-toren",
    club={
        "name": "Schaakclub De Toren",
        "short_name": "De Toren",
        "place": "Sneek",
        "playing_address": "Wijkcentrum De Kei, Sneek",
        "sender_name": "Schaakclub De Toren",
        "sender_address": "competitie@detoren.example.org",
        "arbiter_address": "wedstrijdleider@detoren.example.org",
        "evening_weekday": 1,  # Tuesday
        "deadline_weekday": 6,  # Sunday
        "deadline_time": time(20),
        "publication_weekday": 0,  # Monday
        "publication_time": time(12),
        "play_time": time(19, 30),
        "results_final_time": time(23, 30),
        "leagues": "KNSB, NOSBO",
    },
    keizer=Settings(excused_fraction=Fraction(1, 2), absence_limit=3),
    with_rapid=False,
    with_article=False,
)
DEMO_CLUBS = {demo.key: demo for demo in (DSC, DE_TOREN)}
