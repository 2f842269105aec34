"""memory-as-history itself writes the database we import (slow: it downloads the tool's
wheel from the package registry, without its dependencies, and runs its storage layer in
a child interpreter; nothing is installed into this environment)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from embornal import Memory

pytestmark = pytest.mark.slow

VERSION = "1.3.1"
WRITER = """
import sys
sys.path.insert(0, sys.argv[1])
from memory_as_history.storage import Store
s = Store(sys.argv[2])
a = s.remember("The user prefers tea to coffee.", source="user")
s.promote(a.id, "said twice")
s.corroborate(a.id, "chat 2")
s.pin(a.id, "identity")
b = s.remember("The launch is on Friday.", source="standup")
c = s.remember("The team likes short reviews.", tier="interpretation", frame="Team Alpha")
s.link_memories(c.id, a.id, "related", "same person")
s.forget(b.id, "the launch moved")
s.narrate("A tea drinker.", "first account", memory_ids=[a.id])
s.narrate("A tea drinker on a short-review team.", "more seen", memory_ids=[a.id, c.id])
s.close()
print(a.id)
"""


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("wheel")
    got = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "-q",
            "-d",
            str(where),
            f"memory-as-history=={VERSION}",
        ],
        capture_output=True,
        timeout=300,
    )
    wheels = list(where.glob("*.whl"))
    if got.returncode != 0 or not wheels:
        pytest.skip("memory-as-history could not be downloaded from the package registry")
    unpacked = where / "unpacked"
    with zipfile.ZipFile(wheels[0]) as wheel:
        wheel.extractall(unpacked)
    return unpacked


def test_a_database_memory_as_history_wrote(tool: Path, tmp_path: Path, memory: Memory) -> None:
    db = tmp_path / "memory.db"
    ran = subprocess.run(
        [sys.executable, "-c", WRITER, str(tool), str(db)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    tea_id = ran.stdout.split()[0]
    made = memory.import_memory_as_history(str(db), apply=True)
    assert (made.status, made.facts, made.links, made.archived) == ("approved", 5, 5, 2)
    items = memory.proposal(made.proposal_id).items
    created = {i.fields["content"]: i.fact_id for i in items if i.type == "create"}
    tea = memory.show(str(created["The user prefers tea to coffee."]))
    assert {"tier=testimony", "status=consolidated", "pinned=true"} <= {
        str(t) for t in tea.fact.tags
    }
    values = {e.value for e in tea.evidence}
    assert f"import:memory-as-history/memories/{tea_id}" in values
    assert {"user", "chat 2", "promote: said twice", "pin: identity"} <= values
    assert tea.source is not None and tea.source.label == "import:memory-as-history"
    gone = memory.show(str(created["The launch is on Friday."]))
    assert gone.fact.state == "forgotten"
    relations = sorted(str(i.fields["relation"]) for i in items if i.type == "link")
    assert relations == ["derived_from", "derived_from", "derived_from", "relates_to", "supersedes"]
