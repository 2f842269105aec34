"""docs/decisions/README.md indexes every decision record, and every record states its status.

The check reads the directory at test time: a record added without its line in the index,
a line naming a record that does not exist, a record without a ``Status:`` line, or an index
status that disagrees with the record's own fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DECISIONS = Path(__file__).resolve().parents[1] / "docs" / "decisions"
INDEX = DECISIONS / "README.md"
ROW = re.compile(r"^\| (\d{4}) \| \[(.+)\]\(([^)]+\.md)\) \| (.+) \|$")
STATUS = re.compile(r"^Status: (accepted|superseded by \[(\d{4})\]\((\d{4}-[^)]+\.md)\))(.*)$")


def _records() -> list[Path]:
    return sorted(p for p in DECISIONS.glob("*.md") if p.name != INDEX.name)


def _rows() -> dict[str, tuple[str, str]]:
    """File name → (number, status) for each line of the index's table."""
    rows: dict[str, tuple[str, str]] = {}
    for line in INDEX.read_text(encoding="utf-8").splitlines():
        found = ROW.match(line)
        if found:
            number, _title, name, status = found.groups()
            assert name not in rows, f"{name} is listed twice"
            rows[name] = (number, status)
    return rows


def _status(record: Path) -> str:
    text = record.read_text(encoding="utf-8")
    lines = [ln for ln in text.splitlines() if ln.startswith("Status:")]
    assert lines, f"{record.name} has no 'Status:' line"
    return lines[0]


def test_the_directory_holds_records_named_by_number() -> None:
    records = _records()
    assert len(records) >= 124
    for record in records:
        assert re.fullmatch(r"\d{4}-[a-z0-9-]+\.md", record.name), record.name


def test_every_record_is_in_the_index() -> None:
    missing = [p.name for p in _records() if p.name not in _rows()]
    assert not missing, f"add a line to docs/decisions/README.md for: {missing}"


def test_every_line_of_the_index_names_an_existing_record() -> None:
    for name, (number, _status) in _rows().items():
        assert (DECISIONS / name).is_file(), f"the index names {name}, which does not exist"
        assert name.startswith(f"{number}-"), f"{name} is listed as {number}"


@pytest.mark.parametrize("record", _records(), ids=lambda p: p.name[:4])
def test_each_record_states_its_status(record: Path) -> None:
    line = _status(record)
    found = STATUS.match(line)
    assert found, f"{record.name}: {line!r} is neither accepted nor superseded by [N](file)"
    if found.group(2):
        assert (DECISIONS / found.group(3)).is_file(), f"{record.name}: superseded by a missing one"


@pytest.mark.parametrize("record", _records(), ids=lambda p: p.name[:4])
def test_the_index_and_the_record_agree_on_its_status(record: Path) -> None:
    listed = _rows().get(record.name)
    if listed is None:
        pytest.skip("not in the index: test_every_record_is_in_the_index says so")
    own = STATUS.match(_status(record))
    assert own, f"{record.name} has no well-formed status"
    if own.group(2):
        assert listed[1].startswith(f"superseded by [{own.group(2)}]"), record.name
    else:
        assert listed[1].startswith("accepted"), record.name
        assert ("amended" in listed[1]) == ("amended" in own.group(4)), record.name
