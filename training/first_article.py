"""The article the site ships with, "Schaakregels: Remise": stored by the data migration
(0003_draw_rules_article, so production has it) and by the demo. Only what it says, no model
code, so the migration can import it safely."""

from pathlib import Path

SLUG = "schaakregels-remise"
TITLE = "Schaakregels: Remise"
SUMMARY = (
    "Remise overeenkomen, remise claimen of een remisestelling bereiken: wat het FIDE-reglement "
    "zegt, en hoe je een claim doet zonder dat die wordt afgewezen."
)
TEXT = Path(__file__).resolve().parent / "content" / "schaakregels-remise.md"


def body() -> str:
    return TEXT.read_text(encoding="utf-8")
