"""The rights table, walked over the whole catalogue (decision 0128), on both backends,
locally and through the REST client.

Every operation that changes or removes a fact it names declares ``write`` or ``delete``
on it (on its facade method: :func:`embornal.interfaces.catalog.rights`). Here a subject
with a new token's rules (its own facts, storing anywhere, public reads) calls each of
them on another owner's public fact, which it may read: every call is refused
(``AccessDenied``: 403 remotely) and the event log is unchanged. An operation whose
declaration names a fact but that has no call below fails the walk, so a new operation
cannot skip its access test.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from embornal import Memory
from embornal.domain.access.rights import (
    EVENT,
    ITEMS,
    LEDGER,
    MACHINE,
    NEW,
    READ,
    SCANNED,
    Need,
)
from embornal.errors import AccessDenied
from embornal.interfaces.api import MemoryAPI
from embornal.interfaces.catalog import CATALOG, rights
from embornal.interfaces.catalog_types import resolve_call

WHY = "a probe"
RIGHTS = rights()


@dataclass(frozen=True)
class World:
    """Default's memories the probes aim at: all public, so the prober reads them."""

    fact: str  # pinned, canonized in scope "release", framed, with a declared conflict
    other: str
    forgotten: str
    conflict: str
    narrative: str
    claim: str
    pin_event: int


def _world(memory: Memory) -> World:
    pub = ["visibility=public"]
    fact = memory.store("/team/plan", "The launch is in May.", tags=pub).id
    other = memory.store("/team/plan", "The budget is fixed.", tags=pub).id
    gone = memory.store("/team/old", "The launch was in April.", tags=pub).id
    memory.forget(gone, reason="moved")
    memory.pin(fact, reason="the plan")
    pin_event = memory._store.portability.last_position()
    memory.chronicle.canonize(fact, "release", reason="in focus")
    memory.link(fact, "relates_to", other, reason="same plan")
    conflict = memory.chronicle.mark_conflict(fact, other, reason="they disagree").id
    narrative = memory.chronicle.narrate(
        "We plan a May launch.", reason="summary", memory_ids=[fact]
    ).narrative_id
    claim = memory.chronicle.create_claim(
        "The launch is in May.", "plan", reason="said", about=[fact]
    ).id
    return World(fact, other, gone, conflict, narrative, claim, pin_event)


Call = Callable[[World], Mapping[str, Any]]

#: One call of each operation that declares write or delete on a fact it names, aimed at
#: default's facts.
CALLS: dict[str, Call] = {
    "forget": lambda w: {"fact_id": w.fact, "reason": WHY},
    "restore": lambda w: {"fact_id": w.forgotten, "reason": WHY},
    "supersede": lambda w: {"fact_id": w.fact, "content": "The launch is off.", "reason": WHY},
    "update": lambda w: {"fact_id": w.fact, "attributes": {"status": "done"}, "reason": WHY},
    "set_visibility": lambda w: {"fact_id": w.fact, "visibility": "private", "reason": WHY},
    "set_lifetime": lambda w: {"fact_id": w.fact, "lifetime": "ephemeral", "reason": WHY},
    "unpin": lambda w: {"fact_id": w.fact, "reason": WHY},
    "chronicle.decanonize": lambda w: {"fact_id": w.fact, "reason": WHY},
    "flag_sensitive": lambda w: {"fact_id": w.fact, "reason": WHY},
    "chronicle.end_scope": lambda w: {"scope": "release", "reason": WHY},
    "merge": lambda w: {"survivor": w.fact, "source": w.other, "reason": WHY},
    "pin": lambda w: {"fact_id": w.other, "reason": WHY},
    "set_weight": lambda w: {"fact_id": w.fact, "weight": 0.0, "reason": WHY},
    "confirm": lambda w: {"fact_id": w.fact, "reason": WHY},
    "contradict": lambda w: {"fact_id": w.fact, "reason": WHY},
    "add_evidence": lambda w: {"fact_id": w.fact, "evidence": "uri:https://example.org"},
    "promote": lambda w: {"fact_id": w.fact, "reason": WHY},
    "corroborate": lambda w: {"fact_id": w.fact, "source": "a rumour", "reason": WHY},
    "review": lambda w: {"fact_id": w.fact, "note": WHY},
    "chronicle.canonize": lambda w: {"fact_id": w.other, "scope": "mine", "reason": WHY},
    "chronicle.set_frame": lambda w: {"fact_id": w.fact, "frame": "mine", "reason": WHY},
    "chronicle.set_history_context": lambda w: {
        "fact_id": w.fact,
        "session": "s1",
        "reason": WHY,
    },
    "link": lambda w: {"source": w.other, "relation": "about", "target": w.fact, "reason": WHY},
    "unlink": lambda w: {
        "source": w.fact,
        "relation": "relates_to",
        "target": w.other,
        "reason": WHY,
    },
    "chronicle.link_memories": lambda w: {
        "source_id": w.other,
        "target_id": w.fact,
        "relation": "about",
        "reason": WHY,
    },
    "chronicle.unlink_memories": lambda w: {
        "source_id": w.fact,
        "target_id": w.other,
        "relation": "relates_to",
        "reason": WHY,
    },
    "chronicle.mark_conflict": lambda w: {"a": w.fact, "b": w.other, "reason": WHY},
    "resolve_conflict": lambda w: {"conflict_id": w.conflict, "keep": w.fact, "reason": WHY},
    "chronicle.narrate": lambda w: {
        "content": "The launch is off.",
        "reason": WHY,
        "memory_ids": [w.fact],
        "scope": "mine",
    },
    "chronicle.review_narrative": lambda w: {"narrative_id": w.narrative, "note": WHY},
    "chronicle.create_claim": lambda w: {
        "statement": "The launch is off.",
        "claim_type": "plan",
        "reason": WHY,
        "about": [w.fact],
    },
    "chronicle.add_claim_evidence": lambda w: {"claim_id": w.claim, "source": "a rumour"},
    "chronicle.adopt_claim": lambda w: {"claim_id": w.claim, "reason": WHY},
    "chronicle.revise_claim": lambda w: {"claim_id": w.claim, "reason": WHY, "statement": "No."},
    "chronicle.withdraw_claim": lambda w: {"claim_id": w.claim, "reason": WHY},
    "chronicle.retract_claim_evidence": lambda w: {"evidence_id": f"{w.claim}-1", "reason": WHY},
    "undo": lambda w: {"event_id": w.pin_event, "reason": WHY},
    "purge": lambda w: {"fact_id": w.fact, "reason": WHY},
}

#: Operations whose declaration names facts but that are walked elsewhere, and why.
ELSEWHERE: dict[str, str] = {
    "scan_conflicts": "opens conflicts only among facts the subject may write: "
    "test_a_scan_opens_nothing_on_facts_the_subject_may_not_write",
    "prune": "forgets only facts the subject may delete: tests/test_retention_api.py",
    "approve": "applies each item with the approver's rights: tests/access/test_ledger_access.py",
    "due_for_review": "a read that marks stale only what the subject may write: "
    "tests/behaviour/test_behaviour_review_clock.py",
}

_NOT_A_FACT = {READ, NEW, LEDGER, MACHINE, SCANNED, ITEMS}


def _changes_a_fact(needs: tuple[Need, ...]) -> bool:
    return any(
        n.target not in _NOT_A_FACT and ({"write", "delete"} & set(n.actions) or n.target == EVENT)
        for n in needs
    )


def _aimed() -> list[tuple[str, str, bool]]:
    """(operation, call, local only) of every operation that changes a fact it names."""
    return [
        (op.name, str(op.call), op.local_only)
        for op in CATALOG
        if op.call is not None and _changes_a_fact(RIGHTS[op.name])
    ]


def test_every_operation_that_changes_a_fact_is_walked() -> None:
    aimed = {call for name, call, _ in _aimed() if name not in ELSEWHERE}
    assert aimed == set(CALLS), (
        f"without a probe: {sorted(aimed - set(CALLS))}; stale: {sorted(set(CALLS) - aimed)}"
    )


def test_every_catalogue_operation_declares_its_rights() -> None:
    assert {op.name for op in CATALOG} == set(RIGHTS)
    for op in CATALOG:
        inputs = {i.name for i in op.inputs}
        for need in RIGHTS[op.name]:
            named_input = need.target.isidentifier()
            assert not named_input or need.target in inputs, (op.name, need.target)


def _log(memory: Memory) -> int:
    return memory._store.portability.last_position()


def test_a_token_holder_changes_nothing_of_another_owners_fact(
    memory: Memory, open_as: Callable[[str], MemoryAPI], side: str
) -> None:
    """Every probe on one memory (a refused call changes nothing, so they cannot disturb
    each other): each operation's failure is listed, all of them at once."""
    world = _world(memory)
    bob = open_as("bob")
    assert bob.show(world.fact).fact.id == world.fact  # bob reads it ...
    wrong: list[str] = []
    for name, call, local_only in _aimed():
        if name in ELSEWHERE or (local_only and side == "remote"):
            continue  # walked elsewhere; or on the machine that holds the memory only
        before = _log(memory)
        try:  # ... and changes nothing of it
            resolve_call(bob, call)(**CALLS[call](world))
        except AccessDenied:
            pass
        except Exception as e:
            wrong.append(f"{call}: {type(e).__name__}: {e}")
        else:
            wrong.append(f"{call}: not refused")
        if _log(memory) != before:
            wrong.append(f"{call}: the log changed")
    assert wrong == []


def test_a_scan_opens_nothing_on_facts_the_subject_may_not_write(
    memory: Memory, open_as: Callable[[str], MemoryAPI]
) -> None:
    pub = ["visibility=public"]
    for _ in range(2):
        memory.store("/team/dup", "The office moves to Porto in spring.", tags=pub)
    bob = open_as("bob")
    before = _log(memory)
    assert bob.scan_conflicts(stale=False) == []
    assert _log(memory) == before
    assert [c.conflict_class for c in memory.scan_conflicts(stale=False)] == ["duplicate"]


def test_a_subject_that_may_write_nothing_may_not_scan(memory: Memory) -> None:
    memory.store("/team/dup", "The office moves to Porto in spring.")
    memory.store("/team/dup", "The office moves to Porto in spring.")
    memory.policy_add("p", ["reader", "path:/*", "read", "allow"])
    before = _log(memory)
    with pytest.raises(AccessDenied, match="scan_conflicts"):
        memory.as_subject("reader").scan_conflicts()
    assert _log(memory) == before


def test_a_read_only_subject_records_no_claim(memory: Memory) -> None:
    fact = memory.store("/team/plan", "The launch is in May.").id
    memory.policy_add("p", ["alice", "path:/team/*", "read", "allow"])
    alice = memory.as_subject("alice")
    before = _log(memory)
    with pytest.raises(AccessDenied):
        alice.chronicle.create_claim("It is May.", "plan", reason="said", about=[fact])
    with pytest.raises(AccessDenied):
        alice.chronicle.create_claim("Launches slip.", "plan", reason="said")
    assert _log(memory) == before


def test_a_new_tokens_rules_store_anywhere_and_change_their_own(memory: Memory) -> None:
    memory.token_add("carol")
    carol = memory.as_subject("carol", "assistant")
    own = carol.store("/team/plan", "Carol's note.")
    assert carol.pin(own.id, reason="mine").pinned
    assert carol.set_lifetime(own.id, "ephemeral", reason="mine").id == own.id
    rules = {str(r) for r in memory.policies()}
    assert "p, carol, path:/*, create, allow" in rules
    assert "p, carol, path:/*, write, allow" not in rules
