"""``-m 'not postgresql'`` leaves out every test that uses the PostgreSQL server.

A test naming ``pg_url`` or ``pg_server`` (itself or through a fixture) is marked
``postgresql`` on collection, so one that forgot the mark is still left out; a test that
reaches ``fresh_url`` without the mark fails rather than start a server unasked.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pg_server import fresh_url, mark_postgresql_tests

TESTS = Path(__file__).resolve().parent
SERVER_FILES = [
    "storage/test_postgres_backup.py",
    "storage/test_postgres_copy.py",
    "storage/test_postgres_mcp.py",
    "storage/test_postgres_two_servers.py",
]


class FakeItem:
    """What the collection hook reads and writes on a test item."""

    def __init__(self, *fixtures: str, marked: bool = False) -> None:
        self.fixturenames = list(fixtures)
        self.marks = ["postgresql"] if marked else []

    def get_closest_marker(self, name: str) -> object | None:
        return name if name in self.marks else None

    def add_marker(self, mark: pytest.MarkDecorator) -> None:
        self.marks.append(mark.name)


def test_a_test_asking_for_the_server_is_marked_on_collection() -> None:
    direct, through, other, marked = (
        FakeItem("pg_url", "tmp_path"),
        FakeItem("blank_url", "pg_server"),
        FakeItem("tmp_path", "memory"),
        FakeItem("pg_url", marked=True),
    )
    mark_postgresql_tests([direct, through, other, marked])  # type: ignore[list-item]
    assert direct.marks == ["postgresql"]
    assert through.marks == ["postgresql"]
    assert other.marks == []
    assert marked.marks == ["postgresql"]


def test_fresh_url_refuses_a_test_without_the_mark(request: pytest.FixtureRequest) -> None:
    with pytest.raises(pytest.fail.Exception, match="mark it postgresql"):
        fresh_url(request)


def test_not_postgresql_collects_none_of_the_server_tests() -> None:
    options = ["--collect-only", "-q", "-p", "no:cacheprovider", "-m", "not postgresql"]
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", *options, *SERVER_FILES],
        cwd=TESTS,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "::" not in collected.stdout, collected.stdout
    assert "deselected" in collected.stdout, collected.stdout + collected.stderr
