"""An import from another tool writes only where its subject may write: a subject without
the write right on the target path gets the usual error, and no proposal is opened; an
assistant may propose an import but not apply it (a person decides)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from embornal import Memory
from embornal.errors import AccessDenied, NotFound
from import_fixtures import FIXTURES


@pytest.fixture
def bob(memory: Memory) -> Memory:
    """A subject with the rules a new token gets (write anywhere), denied /imported."""
    memory.token_add("bob")
    memory.policy_add("p", ["bob", "path:/imported/*", "write", "deny"])
    return memory.as_subject("bob", "assistant")


@pytest.mark.parametrize(
    ("fmt", "source"),
    [("mcp-memory", "memory.jsonl"), ("mem0", "mem0.json"), ("basic-memory", "basic-memory")],
)
def test_no_write_right_on_the_target_is_the_usual_error(
    memory: Memory, bob: Memory, fmt: str, source: str
) -> None:
    with pytest.raises(AccessDenied, match="bob"):
        getattr(bob, "import_" + fmt.replace("-", "_"))(str(FIXTURES / source))
    assert memory.proposals() == [] and bob.proposals() == []
    assert all(c.path != "/imported" for c in memory.tree("/").children)


def test_elsewhere_the_same_subject_may_propose_but_not_apply(memory: Memory, bob: Memory) -> None:
    made = bob.import_mem0(str(FIXTURES / "mem0.json"), under="/bob/mem0")
    assert made.status == "open" and made.facts == 3
    assert [p.id for p in memory.proposals()] == [made.proposal_id]
    with pytest.raises(AccessDenied, match="a person decides"):
        bob.import_mem0(str(FIXTURES / "mem0.json"), under="/bob/again", apply=True)
    assert len(memory.proposals()) == 1
    done = memory.approve(made.proposal_id)
    assert done.status == "approved"
    assert {v.fact.content for v in memory.cat("/bob/mem0/dev")} == {
        "Dev works at TechCorp as a senior engineer"
    }


def test_another_subject_neither_sees_nor_approves_an_import(memory: Memory, bob: Memory) -> None:
    made = memory.import_mcp_memory(str(FIXTURES / "memory.jsonl"))
    assert made.status == "open"
    person = memory.as_subject("bob", "person")  # may not read what it would write
    assert person.proposals() == []
    with pytest.raises(NotFound, match="no proposal"):
        person.approve(made.proposal_id)
    assert memory.proposal(made.proposal_id).status == "open"


def test_mem0_metadata_never_widens_who_reads_a_fact(
    memory: Memory, bob: Memory, tmp_path: Path
) -> None:
    """``visibility: public`` in a memory's metadata is kept as ``meta.visibility=public``,
    which no rule reads: bob still cannot read default's imported fact."""
    export = tmp_path / "mem0.json"
    export.write_text(
        json.dumps(
            {
                "results": [
                    {
                        "id": "m1",
                        "memory": "The vault code is 4711.",
                        "user_id": "dev",
                        "metadata": {"visibility": "public", "type": "secret", "owner": "bob"},
                    }
                ]
            }
        )
    )
    done = memory.import_mem0(str(export), under="/private/mem0", apply=True)
    assert done.status == "approved"
    (view,) = memory.cat("/private/mem0/dev")
    tags = {str(t) for t in memory.show(view.fact.id).fact.tags}
    assert {"meta.visibility=public", "meta.type=secret", "meta.owner=bob"} <= tags
    assert not {"visibility=public", "owner=bob"} & tags
    assert bob.recall("vault code", reinforce=False) == []
    with pytest.raises(NotFound):
        bob.show(view.fact.id)
