"""A file the test run builds once (tests/shared_files.py): built by the first caller only,
whole or not at all."""

import pytest

from tests.shared_files import built_once


def test_the_first_caller_builds_and_the_next_finds_it_built(tmp_path):
    target, builds = tmp_path / "rows.json", []

    def build(partial):
        builds.append(partial)
        partial.write_text("rows")

    assert built_once(target, build) is True
    assert built_once(target, build) is False
    assert target.read_text() == "rows" and len(builds) == 1
    assert builds[0] != target  # written aside, then renamed


def test_a_failed_build_leaves_nothing_and_the_next_caller_builds_again(tmp_path):
    target = tmp_path / "production"

    def broken(partial):
        partial.mkdir()
        (partial / "db.sqlite3").write_text("half")
        raise RuntimeError("migrate failed")

    with pytest.raises(RuntimeError):
        built_once(target, broken)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["production.lock"]
    assert built_once(target, lambda partial: partial.mkdir()) is True
    assert target.is_dir()
