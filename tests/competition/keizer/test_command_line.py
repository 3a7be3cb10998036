"""`python -m competition.keizer standings|pair FILE` as a user runs it: a real process where
the process is the point (the module runs, its exit status, its output, the hash seed), its
`main` with the same arguments, input and captured output everywhere else."""

import gc
import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout

import pytest

from competition.keizer.__main__ import main

from .conftest import DATA

EXAMPLE = str(DATA / "worked_example.json")


def run_process(*args: str, stdin: str | None = None, env: dict | None = None):
    return subprocess.run(
        [sys.executable, "-m", "competition.keizer", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """The command's `main` in this process, as `run_process` would run it: what it prints on
    standard output and error, and its exit status (an exception it lets out fails the test,
    as a traceback would)."""
    # Standard output as a process has it: text over bytes (`standings` writes the bytes).
    stdout = io.TextIOWrapper(io.BytesIO(), "utf-8", write_through=True)
    stderr = io.StringIO()
    standard_input = io.TextIOWrapper(io.BytesIO((stdin or "").encode("utf-8")), "utf-8")
    collecting = gc.isenabled()
    saved_stdin, sys.stdin = sys.stdin, standard_input
    try:
        with redirect_stdout(stdout), redirect_stderr(stderr):
            status = main(list(args))
    finally:
        sys.stdin = saved_stdin
        if collecting:
            gc.enable()  # main turns the collector off for its short process
    printed = stdout.buffer.getvalue().decode("utf-8")
    return subprocess.CompletedProcess(args, status, printed, stderr.getvalue())


def test_the_module_runs_as_a_command_and_exits_with_its_status():
    """The real process: `python -m` finds the command, prints its output and exits with 0,
    or with 2 and one line (no traceback) on bad input; every other test calls its main."""
    process = run_process("standings", EXAMPLE)
    assert process.returncode == 0, process.stderr
    assert process.stdout == run("standings", EXAMPLE).stdout
    assert len(json.loads(process.stdout)["rankings"]) == 4
    refused = run_process("standings", "-", stdin='{"players": [')
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr == "error: line 1 column 14: malformed JSON: Expecting value\n"


def test_standings_prints_every_ranking_as_the_format_says():
    process = run("standings", EXAMPLE)
    assert process.returncode == 0, process.stderr
    rankings = json.loads(process.stdout)["rankings"]
    assert len(rankings) == 4
    first = rankings[1][3]
    assert first == {
        "rank": 4,
        "id": "bakker",
        "name": "Bakker",
        "value": 47,
        "total": 71.5,
        "total_exact": "143/2",
        "points": [23.5],
        "points_exact": ["47/2"],
    }
    assert rankings[0][0]["points"] == [] and rankings[0][0]["total_exact"] == "50"


def test_pair_reads_standard_input():
    with open(EXAMPLE, encoding="utf-8") as file:
        document = json.load(file)
    document["rounds"] = document["rounds"][:1]
    document["pair"] = {"absent": {"jansen": "excused"}}
    process = run("pair", "-", stdin=json.dumps(document))
    assert process.returncode == 0, process.stderr
    pairing = json.loads(process.stdout)
    assert pairing["round"] == 2
    assert pairing["pairs"][0] == {"board": 1, "white": "de-zeeuw", "black": "de-bruin"}
    assert len(pairing["pairs"]) == 4
    assert pairing["bye"] == "de-wit"  # nine present: the lowest ranked sits out
    assert pairing["warnings"] == []


def test_thirds_are_exact_and_rounded_to_two_decimals():
    document = {
        "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
        "rounds": [{"games": [], "absent": {"a": "excused", "b": "team"}}],
    }
    process = run("standings", "-", stdin=json.dumps(document))
    rankings = json.loads(process.stdout)["rankings"]
    assert rankings[1][0]["points_exact"] == ["98/3"] and rankings[1][0]["points"] == [32.67]
    assert rankings[1][1]["points_exact"] == ["50/3"] and rankings[1][1]["points"] == [16.67]


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ('{"players": [', "error: line 1 column 14: malformed JSON: Expecting value"),
        (
            '{"players": [{"id": "a"}, {"id": "b"}], "rounds": [{"games": [{"white": "a", '
            '"black": "b", "result": "2-0"}]}]}',
            "error: rounds[0].games[0].result: unknown result '2-0'",
        ),
        (
            '{"players": [{"id": "a"}, {"id": "b"}], "rounds": [{"games": []}, {"games": []}, '
            '{"games": []}, {"absent": {"a": "excused"}}]}',
            'error: rounds[3]: a round needs "games" (an empty list is allowed)',
        ),
        (
            '{"players": [{"id": "a"}], "rounds": [{"games": [], "games": []}]}',
            "error: malformed JSON: duplicate key 'games'",
        ),
        (
            '{"players": [{"id": "a", "start_points": "x/2"}]}',
            "error: players[0].start_points: bad fraction 'x/2': expected an integer or a string "
            'like "2/3"',
        ),
    ],
)
def test_bad_input_exits_2_with_one_line(stdin, message):
    process = run("standings", "-", stdin=stdin)
    assert process.returncode == 2
    assert process.stdout == ""
    assert process.stderr.count("\n") == 1 and "Traceback" not in process.stderr
    assert process.stderr.strip() == message


def test_a_file_that_is_not_utf8_exits_2(tmp_path):
    path = tmp_path / "season.json"
    path.write_bytes(b'{"players": [{"id": "\xff"}]}')
    process = run("standings", str(path))
    assert process.returncode == 2
    assert process.stderr == f"error: {path}: the file is not UTF-8 text\n"


def test_a_missing_file_or_wrong_command_exits_2():
    missing = run("standings", "/nonexistent/season.json")
    assert missing.returncode == 2
    assert missing.stderr.strip() == (
        "error: /nonexistent/season.json: cannot read the file: No such file or directory"
    )
    wrong = run("rank", EXAMPLE)
    assert wrong.returncode == 2 and wrong.stderr.startswith("usage:")


def test_output_does_not_depend_on_the_hash_seed():
    """Sets and dicts must not leak into the order of anything printed."""
    outputs = {
        run_process(command, EXAMPLE, env={"PYTHONHASHSEED": seed}).stdout
        for command in ("standings", "pair")
        for seed in ("1", "2", "3")
    }
    assert len(outputs) == 2


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        (
            '{"settings": {"top_value": 1' + "0" * 5000 + "}}",
            "error: malformed JSON: Exceeds the limit (4300 digits) for integer string conversion: "
            "value has 5001 digits; use sys.set_int_max_str_digits() to increase the limit",
        ),
        (
            '{"settings": {"top_value": 10000000000}}',
            "error: settings.top_value: must be a whole number from 1 to 1000000, not 10000000000",
        ),
        ("[" * 100_000 + "]" * 100_000, "error: malformed JSON: nested too deeply"),
        (
            '{"players": [{"id": "a", "start_points": "1/1' + "1" * 4400 + '"}]}',
            "error: players[0].start_points: bad fraction "
            + ("'1/" + "1" * 24)  # the first 27 characters of the value, then "..."
            + "...: "
            'expected an integer or a string like "2/3"',
        ),
        (
            '{"players": [{"id": "a", "start_points": "1/997"}]}',
            "error: players[0].start_points: bad fraction '1/997': at most 1000000000 over 100",
        ),
        (
            '{"players": [{"id": "a", "name": "\\ud800"}]}',
            "error: players[0].name: contains characters that are not valid text",
        ),
        (
            '{"players": [{"id": "a"}], "pair": {"absent": {"x\\ny": "excused"}}}',
            "error: pair.absent[\"x\\ny\"]: unknown player id 'x\\ny'",
        ),
        (
            '{"players": [{"id": "a", "start_points": "\\u0661\\u0662/3"}]}',
            "error: players[0].start_points: bad fraction '١٢/3': "
            'expected an integer or a string like "2/3"',
        ),
    ],
)
def test_hostile_input_exits_2_with_one_line_and_no_traceback(stdin, message):
    for command in ("standings", "pair"):
        process = run(command, "-", stdin=stdin)
        assert process.returncode == 2
        assert process.stderr.count("\n") == 1 and "Traceback" not in process.stderr
        assert process.stderr.strip() == message


def test_a_file_beyond_the_size_limit_exits_2_before_it_is_read(tmp_path):
    path = tmp_path / "huge.json"
    with open(path, "wb") as file:
        file.truncate(1_000_000_000)  # sparse: a gigabyte that costs nothing
    process = run("standings", str(path))
    assert process.returncode == 2
    assert process.stderr == (
        f"error: {path}: the file is larger than 5000000 bytes, more than any season needs\n"
    )
    piped = run("standings", "-", stdin=" " * 5_000_001)
    assert piped.returncode == 2
    assert piped.stderr == (
        "error: -: the file is larger than 5000000 bytes, more than any season needs\n"
    )
