"""One home for every rule and one room for every job, checked over the source tree.

The Keizer vocabulary (result codes, absence kinds, the settings' names) is written only in the
engine; the club's week is read from the settings only by `competition.schedule`; games,
results, absences, drafts and snapshots are written only by `competition.services`; imports
run downward through the layers of the house; no module grows past 600 lines. Each check also
runs on a small sample of the kind of code it forbids, so it cannot pass by seeing nothing.
"""

import ast
from pathlib import Path

import pytest

from competition.keizer.season import SETTING_NAMES, Absence, Result

ROOT = Path(__file__).resolve().parents[1]
# The house, lowest layer first: a module imports only from its own layer and those below.
# The engine depends on nothing; `base` holds what every app may use (the page cache, the
# history pages, links); `dsc_site` is the roof (settings, addresses, the demo).
LAYERS = (
    "competition.keizer",
    "base",
    "club",
    "operations",
    "members",
    "training",
    "competition",
    "absences",
    "clubweek",
    "arbiter",
    "dsc_site",
)
SITE = tuple(sorted({layer.split(".")[0] for layer in LAYERS}))
APPS = (*SITE, "benchmarks")
ENGINE = ROOT / "competition" / "keizer"
SERVICES = ROOT / "competition" / "services"  # the one package that writes the guarded rows
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
    # The environment's values seed the club's row (issue 40); the week is read from the row.
    assert readers == {"club/models.py", "dsc_site/settings.py"}


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
        if SERVICES not in path.parents
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
    writers = {
        path.stem for path in SERVICES.glob("*.py") if guarded_writes(path.read_text("utf-8"))
    }
    assert writers == {
        "rankings",
        "pairing",
        "round_page",
        "absences",
        "results",
        "season_files",
    }


# -- the layers of the house -------------------------------------------------------------------


def layer_of(module: str) -> int | None:
    """The layer of a module of ours (the longest matching package), None for anything else."""
    matches = [
        index
        for index, layer in enumerate(LAYERS)
        if module == layer or module.startswith(f"{layer}.")
    ]
    return max(matches, key=lambda index: len(LAYERS[index]), default=None)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(source: str) -> list[tuple[int, str]]:
    """Every module a source imports (at the top or inside a function), with its line."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def upward_imports(module: str, source: str) -> list[str]:
    own = layer_of(module)
    return [
        f"{module}:{line} imports {name}"
        for line, name in imported_modules(source)
        if own is not None and (layer := layer_of(name)) is not None and layer > own
    ]


def test_imports_run_down_through_the_layers():
    found = [
        problem
        for path in app_sources() + sorted(ENGINE.rglob("*.py"))
        if path.parts[-2] != "migrations"
        for problem in upward_imports(module_name(path), path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_layer_check_sees_an_upward_import():
    assert upward_imports("competition.views", "from dsc_site import page_cache") == [
        "competition.views:1 imports dsc_site.page_cache"
    ]
    assert upward_imports("members.models", "def f():\n    import competition.models\n") == [
        "members.models:2 imports competition.models"
    ]
    assert upward_imports("competition.keizer.ranking", "from competition import models") != []
    assert upward_imports("arbiter.rounds", "from competition import services") == []
    assert upward_imports("competition.models", "from competition.keizer import season") == []


def test_no_module_of_ours_grows_past_600_lines_and_the_admin_stays_small():
    lengths = {
        str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
        for path in app_sources() + sorted(ENGINE.rglob("*.py"))
    }
    assert {path: n for path, n in lengths.items() if n > 600} == {}
    assert lengths["competition/admin.py"] < 400


# -- one home for each small rule ----------------------------------------------------------------

SCHEDULE = "competition/schedule.py"
# The moments of the club's week a rule compares with (the comparison is `schedule.before`).
CLUB_MOMENTS = {"deadline", "cancellation_deadline", "play_starts_at", "results_final_at"}


def compares_a_club_moment(source: str) -> list[int]:
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(
            isinstance(part, ast.Name | ast.Attribute) and name in CLUB_MOMENTS
            for operand in [node.left, *node.comparators]
            for part in ast.walk(operand)
            for name in [getattr(part, "id", None) or getattr(part, "attr", None)]
        ):
            lines.append(node.lineno)
    return lines


def sources_where(check) -> dict[str, list]:
    found = {
        str(path.relative_to(ROOT)): check(path.read_text(encoding="utf-8"))
        for path in app_sources()
    }
    return {path: lines for path, lines in found.items() if lines}


def test_the_deadline_and_the_games_start_are_compared_in_one_place():
    assert set(sources_where(compares_a_club_moment)) <= {SCHEDULE}


def test_the_moment_check_sees_a_comparison_by_hand():
    sample = "if now < round_.cancellation_deadline: pass\nok = reported_at >= r.play_starts_at\n"
    assert compares_a_club_moment(sample) == [1, 2]
    assert compares_a_club_moment("if round_.cancels_in_time(now): pass\n") == []


def literal_lines(*texts: str):
    def check(source: str) -> list[int]:
        return [line for line, text in string_constants(ast.parse(source)) if text in texts]

    return check


def calls(*names: str):
    def check(source: str) -> list[int]:
        return [
            node.lineno
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call)
            and (getattr(node.func, "id", None) or getattr(node.func, "attr", None)) in names
        ]

    return check


def test_the_clubs_time_zone_the_groups_and_the_arbiters_group_are_written_once():
    site = {path for path in sources_where(literal_lines("Europe/Amsterdam"))}
    # Its home is base/zone.py: the settings and the log lines (even of a refused start) read it.
    assert {path for path in site if not path.startswith("benchmarks/")} == {"base/zone.py"}
    groups = {path for path in sources_where(literal_lines("ABCD"))}
    assert {path for path in groups if not path.startswith("benchmarks/")} == {"club/models.py"}
    assert set(sources_where(literal_lines("Wedstrijdleiding"))) == {"arbiter/roles.py"}


def test_club_evenings_are_a_week_apart_in_one_place():
    def weeks(source: str) -> list[int]:
        return [
            node.lineno
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call)
            and getattr(node.func, "id", None) == "timedelta"
            and any(keyword.arg == "weeks" for keyword in node.keywords)
        ]

    assert set(sources_where(weeks)) == {SCHEDULE}


KIND_CHECKS = {"is_classical", "is_rapid"}


def checks_the_kind(source: str) -> list[int]:
    """A comparison with a competition's kind, or a filter on a fixed kind, written by hand."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        names = {
            getattr(part, "attr", None)
            for part in ast.walk(node)
            if isinstance(part, ast.Attribute)
        }
        if (isinstance(node, ast.Compare) and names & {"kind", "Kind", "CLASSICAL", "RAPID"}) or (
            isinstance(node, ast.Attribute) and node.attr in KIND_CHECKS
        ):
            lines.append(node.lineno)
        elif isinstance(node, ast.keyword) and (node.arg or "").endswith("kind"):
            value = {getattr(part, "attr", None) for part in ast.walk(node.value)}
            if value & {"CLASSICAL", "RAPID"} and node.arg != "kind":
                lines.append(node.value.lineno)
    return lines


def test_what_a_kind_of_competition_does_is_named_on_the_competition():
    """`Competition.follows_the_club_week`, `pairs_on_the_evening`, … (competition/models.py)
    are the only checks of a competition's kind; elsewhere a kind is only chosen."""
    assert set(sources_where(checks_the_kind)) <= {"competition/models/competitions.py"}


def test_the_kind_check_sees_a_check_by_hand():
    sample = (
        "if competition.kind != Competition.Kind.RAPID: pass\n"
        "x = c.is_classical\n"
        "Round.objects.filter(competition__kind=Competition.Kind.CLASSICAL)\n"
        "Competition.objects.create(kind=Competition.Kind.RAPID)\n"
    )
    assert checks_the_kind(sample) == [1, 2, 3]


def outcome_msgids() -> set[str]:
    """The msgids of the one table of words for the outcomes (competition/outcomes.py)."""
    tree = ast.parse((ROOT / "competition" / "outcomes.py").read_text(encoding="utf-8"))
    return {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_"
    }


def translated_words(words: set[str]):
    def check(source: str) -> list[int]:
        return [
            node.lineno
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call)
            and (getattr(node.func, "id", None) or getattr(node.func, "attr", None)) in TRANSLATED
            and node.args
            and getattr(node.args[0], "value", None) in words
        ]

    return check


def test_the_words_of_each_outcome_are_one_table():
    """Written nowhere else, except "team match", which is also the name of the members' model
    of a team's match (a layer below the table)."""
    words = outcome_msgids() - {"team match"}
    assert {"cancelled late", "cancelled in time", "bye"} <= words
    assert set(sources_where(translated_words(words))) == {"competition/outcomes.py"}


def test_recompute_is_triggered_by_the_services_and_otherwise_by_the_workers_refresh_only():
    """Admin pages and views never recompute: a change made outside the services reaches the
    standings in the worker's refresh step. Ranking 0 and a newcomer (`lineup`) recompute as
    part of their workflow; the demo once, for its rapid competition."""
    triggers = set(sources_where(calls("recompute_rankings", "refresh_rankings")))
    outside = {path for path in triggers if not path.startswith("competition/services")}
    assert outside == {
        "competition/lineup.py",
        "clubweek/worker.py",
        "dsc_site/management/commands/load_demo.py",
    }


def keeps_state_on_the_request(source: str) -> list[int]:
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "request"
        and (
            (node.attr.startswith("_") and isinstance(node.ctx, ast.Store))
            or node.attr == "__dict__"
        )
    ]


def test_no_view_keeps_state_on_the_request():
    assert sources_where(keeps_state_on_the_request) == {}
    assert keeps_state_on_the_request("request._round = obj\nrequest.__dict__.get('x')\n") == [
        1,
        2,
    ]


ADMIN_SAVE_STEPS = {"save_model", "save_formset", "save_related", "delete_model", "get_object"}


def switched_off_save_steps(source: str) -> list[int]:
    """An admin's save step overridden without calling the admin's own (`super()`)."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef)
        and node.name in ADMIN_SAVE_STEPS
        and not any(
            isinstance(call, ast.Call)
            and getattr(call.func, "attr", None) == node.name
            and isinstance(call.func.value, ast.Call)
            and getattr(call.func.value.func, "id", None) == "super"
            for call in ast.walk(node)
        )
    ]


def test_the_admins_own_save_steps_are_never_switched_off():
    admins = [path for path in app_sources() if path.name == "admin.py"]
    assert (
        admins
        and {
            str(path.relative_to(ROOT)): lines
            for path in admins
            if (lines := switched_off_save_steps(path.read_text(encoding="utf-8")))
        }
        == {}
    )
    sample = "def save_model(self, request, obj, form, change):\n    obj._x = 1\n"
    assert switched_off_save_steps(sample) == [1]


LOCK_HELPERS = {"locked_round", "lock_competition"}  # guards.py: their callers are atomic


def locks_outside_a_transaction(source: str) -> list[str]:
    """The public functions that lock rows (`locked_round`, `select_for_update`, …) without
    being a transaction themselves (`@transaction.atomic` or `with transaction.atomic()`): on
    PostgreSQL a lock outside a transaction is an error (SQLite ignores it)."""
    found = []
    for function in ast.parse(source).body:
        if not isinstance(function, ast.FunctionDef) or function.name.startswith("_"):
            continue
        if function.name in LOCK_HELPERS:
            continue
        calls = [node for node in ast.walk(function) if isinstance(node, ast.Call)]
        locks = any(
            getattr(call.func, "id", None) in LOCK_HELPERS
            or getattr(call.func, "attr", None) in ({"select_for_update"} | LOCK_HELPERS)
            for call in calls
        )
        atomic = any("transaction.atomic" in ast.unparse(d) for d in function.decorator_list) or (
            any(
                isinstance(node, ast.With) and "transaction.atomic" in ast.unparse(node)
                for node in ast.walk(function)
            )
        )
        if locks and not atomic:
            found.append(function.name)
    return found


def test_every_function_that_locks_rows_is_a_transaction():
    found = {
        str(path.relative_to(ROOT)): locks_outside_a_transaction(path.read_text(encoding="utf-8"))
        for path in app_sources()
    }
    assert {path: names for path, names in found.items() if names} == {}


def test_the_lock_check_sees_a_lock_outside_a_transaction():
    unsafe = "def make(round_):\n    round_ = locked_round(round_)\n"
    safe = "@transaction.atomic\ndef make(round_):\n    round_ = locked_round(round_)\n"
    assert locks_outside_a_transaction(unsafe) == ["make"]
    assert locks_outside_a_transaction(safe) == []
