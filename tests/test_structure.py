"""One home for every rule, checked over the source tree.

The Keizer vocabulary (result codes, absence kinds, the settings' names) is written only in the
engine; the club's week is read from the settings only by `competition.schedule`; games,
results, absences, drafts and snapshots are written only by `competition.services`. Each check
also runs on a small sample of the kind of code it forbids, so it cannot pass by seeing
nothing.
"""

import ast
from pathlib import Path

import pytest

from competition.keizer.season import SETTING_NAMES, Absence, Result

ROOT = Path(__file__).resolve().parents[1]
APPS = (
    "competition",
    "members",
    "absences",
    "clubweek",
    "operations",
    "dsc_site",
    "benchmarks",
    "training",
)
ENGINE = ROOT / "competition" / "keizer"
TRANSLATED = {"_", "gettext", "gettext_lazy", "ngettext", "pgettext"}
# Where a string is a model field's name ("team" the field, not the absence kind "team").
FIELD_NAME_CALLS = {"select_related", "prefetch_related", "values", "values_list", "only"}
FIELD_NAME_SETTINGS = {
    "list_display",
    "list_filter",
    "list_select_related",
    "search_fields",
    "fields",
    "readonly_fields",
    "autocomplete_fields",
    "ordering",
}


def app_sources() -> list[Path]:
    """The site's own Python files: not the engine, not migrations, not tests."""
    return [
        path
        for app in APPS
        for path in sorted((ROOT / app).rglob("*.py"))
        if ENGINE not in path.parents and "migrations" not in path.parts
    ]


def string_constants(tree: ast.AST):
    """Every string constant with its line, except the msgids of translated texts and the
    names of model fields (in queries and admin options)."""
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in TRANSLATED:
                skipped.add(id(node.args[0]))
            elif name in FIELD_NAME_CALLS:
                skipped.update(id(arg) for arg in node.args)
        elif (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Tuple | ast.List)
            and any(getattr(t, "id", None) in FIELD_NAME_SETTINGS for t in node.targets)
        ):
            skipped.update(id(element) for element in node.value.elts)
    for node in ast.walk(tree):
        is_text = isinstance(node, ast.Constant) and isinstance(node.value, str)
        if is_text and id(node) not in skipped:
            yield node.lineno, node.value


def vocabulary_literals(source: str) -> list[tuple[int, str]]:
    words = {r.value for r in Result} | {a.value for a in Absence} | set(SETTING_NAMES)
    return [(line, text) for line, text in string_constants(ast.parse(source)) if text in words]


def test_the_keizer_vocabulary_is_written_only_in_the_engine():
    found = {
        f"{path.relative_to(ROOT)}:{line}": text
        for path in app_sources()
        for line, text in vocabulary_literals(path.read_text(encoding="utf-8"))
    }
    assert found == {}


def test_the_vocabulary_check_sees_a_copied_code():
    sample = (
        'result = "1-0F"\nreason = "excused"\nlabel = _("excused")\nfield = "team_fraction"\n'
        'matches.select_related("team")\nlist_display = ("team",)\nif kind == "team": pass\n'
    )
    assert vocabulary_literals(sample) == [
        (1, "1-0F"),
        (2, "excused"),
        (4, "team_fraction"),
        (7, "team"),
    ]


CLUB_WEEK = (
    "CLUB_DEADLINE_WEEKDAY",
    "CLUB_DEADLINE_TIME",
    "CLUB_PUBLICATION_TIME",
    "CLUB_RESULTS_FINAL_TIME",
    "CLUB_PLAY_TIME",
)


def test_the_club_week_is_read_in_one_module():
    readers = {
        str(path.relative_to(ROOT))
        for path in app_sources()
        if any(name in path.read_text(encoding="utf-8") for name in CLUB_WEEK)
    }
    assert readers == {"competition/schedule.py", "dsc_site/settings.py"}


# Rows only `competition.services` writes (the players' results too), and the related names
# that reach them.
GUARDED_MODELS = {"Game", "Absence", "Ranking", "Standing", "ResultReport"}
GUARDED_RELATIONS = {"games", "absences", "rankings", "standings", "reports"}
WRITES = {"create", "bulk_create", "update", "update_or_create", "get_or_create", "delete"}
GUARDED_FIELDS = {
    "result",
    "reason",
    "white",
    "white_id",
    "black",
    "black_id",
    "bye",
    "bye_id",
    "pairing_warnings",
}


def receiver_names(call: ast.Call) -> set[str]:
    """The names a method call is made on: `round_.games.all().delete()` -> round_, games."""
    names = set()
    receiver = call.func.value
    while isinstance(receiver, ast.Attribute | ast.Call):
        if isinstance(receiver, ast.Attribute):
            names.add(receiver.attr)
            receiver = receiver.value
        else:
            receiver = receiver.func
    if isinstance(receiver, ast.Name):
        names.add(receiver.id)
    return names


def is_guarded_write(node: ast.AST, models: set[str], may_build: bool = False) -> bool:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id in models and not may_build  # an unsaved row, to be saved
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        names = receiver_names(node)
        method = node.func.attr
        return bool(
            (method in WRITES and names & (GUARDED_MODELS | GUARDED_RELATIONS))
            or (method == "update" and {k.arg for k in node.keywords} & GUARDED_FIELDS)
            or (method in {"save", "delete"} and names & {"game", "absence", "standing", "report"})
        )
    if isinstance(node, ast.Assign):
        return any(
            isinstance(target, ast.Attribute) and target.attr in GUARDED_FIELDS
            for target in node.targets
        )
    return False


def guarded_writes(source: str, may_build: bool = False) -> list[int]:
    """Lines that write guarded rows: `Game.objects.create(...)`, `round_.games...delete()`,
    `Round.objects...update(bye=None)`, `x.result = ...`, `Game(...)` (unless `may_build`:
    the translation builds unsaved rows for the services), or `.save()`/`.delete()` on a
    variable named after such a row."""
    tree = ast.parse(source)
    models = {  # the guarded models as this module names them (not the engine's `Game`)
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "competition.models"
        for alias in node.names
        if alias.name in GUARDED_MODELS
    }
    return sorted(
        node.lineno for node in ast.walk(tree) if is_guarded_write(node, models, may_build)
    )


def test_games_results_absences_drafts_and_snapshots_are_written_only_by_the_services():
    found = {
        str(path.relative_to(ROOT)): guarded_writes(
            path.read_text(encoding="utf-8"), may_build=path == ROOT / "competition" / "exchange.py"
        )
        for path in app_sources()
        if path != ROOT / "competition" / "services.py"
    }
    assert {path: lines for path, lines in found.items() if lines} == {}


@pytest.mark.parametrize(
    "sample",
    [
        "Game.objects.create(round=r, board=1)",
        "round_.games.all().delete()",
        "Absence.objects.filter(round=r).update(reason=x)",
        "game.result = value",
        "absence.delete()",
        "Standing.objects.bulk_create(rows)",
        "round_.bye = None",
        "Round.objects.filter(pk=pk).update(bye=None, pairing_warnings=[])",
        "from competition.models import Game\nGame(round=r, board=1).save()",
        "g.result = value",
        "a.reason = value",
    ],
)
def test_the_writer_check_sees_a_write(sample):
    assert guarded_writes(sample) == [sample.count("\n") + 1]


def test_the_engines_game_is_not_a_row():
    assert guarded_writes("from competition.keizer.season import Game\nGame(w, b, r)") == []


def test_the_services_themselves_do_write():
    assert guarded_writes((ROOT / "competition" / "services.py").read_text(encoding="utf-8"))


# The apps the club's week stands on (lowest first): they never import it. `clubweek` runs
# rule k and reads the members' evenings from `absences`, so the arrow points one way only.
BELOW_THE_CLUB_WEEK = ("base", "operations", "members", "training", "competition", "absences")


def imported_apps(source: str) -> set[str]:
    """The top-level packages a module imports."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.split(".")[0])
    return found


def test_no_app_below_the_club_week_imports_it():
    importers = {
        str(path.relative_to(ROOT))
        for app in BELOW_THE_CLUB_WEEK
        for path in sorted((ROOT / app).rglob("*.py"))
        if "clubweek" in imported_apps(path.read_text(encoding="utf-8"))
    }
    assert importers == set()
    assert "absences" in imported_apps((ROOT / "clubweek" / "worker.py").read_text())


@pytest.mark.parametrize(
    "sample",
    ["from clubweek import worker", "import clubweek.calendar", "from clubweek.feeds import x"],
)
def test_the_import_check_sees_an_import_of_the_club_week(sample):
    assert "clubweek" in imported_apps(f"def f():\n    {sample}\n")
