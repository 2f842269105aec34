"""Every read of the catalogue, walked (decision 0128), on both backends, locally and
through the REST client: a subject sees nothing of a fact it may not read.

Default keeps a hidden fact (no rule lets bob read it) and ties it to a public one in
every way the memory knows: a link, a contradiction, a merge, a declared conflict, a
canon scope, a frame, a narrative, a claim and a proposal. Bob then calls each read
operation the rights table declares on the readable facts; nothing of the hidden fact
(its id, its words, its path) may appear in any answer, and a lookup of its id, or of a
prefix only hidden records share, answers as for a record that does not exist.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from embornal import FixedClock, Memory
from embornal.domain.access.rights import READ
from embornal.errors import NotFound
from embornal.interfaces.api import MemoryAPI
from embornal.interfaces.catalog import CATALOG, rights
from embornal.interfaces.catalog_types import resolve_call

RIGHTS = rights()
SECRET = "zebraquartz"
HIDDEN_PATH = "/vault/plan"


@dataclass(frozen=True)
class World:
    public: str
    hidden: str
    merged: str  # a hidden fact merged into the public one
    claim: str  # a claim about the hidden fact
    proposal: str  # a proposal that stores at the hidden path
    conflict: str  # a conflict between the public and the hidden fact


def _world(memory: Memory, clock: FixedClock) -> World:
    pub = ["visibility=public"]
    public = memory.store("/team/plan", "The launch is in May.", tags=pub).id
    clock.advance(seconds=1)
    hidden = memory.store(HIDDEN_PATH, f"The {SECRET} launch is in June.").id
    merged = memory.store(HIDDEN_PATH, f"A {SECRET} note.").id
    clock.advance(seconds=1)
    memory.link(public, "relates_to", hidden, reason="related")
    memory.contradict(public, by=hidden, reason="it says June")
    memory.merge(public, merged, reason="the same")
    conflict = memory.chronicle.mark_conflict(public, hidden, reason=f"{SECRET} disagree").id
    memory.chronicle.canonize(hidden, SECRET, reason=f"{SECRET} focus")
    memory.chronicle.set_frame(hidden, SECRET, reason=f"{SECRET} frame")
    memory.pin(hidden, reason=f"{SECRET} pin")
    memory.chronicle.narrate(f"The {SECRET} plan.", reason="summary", memory_ids=[hidden])
    claim = memory.chronicle.create_claim(
        f"The {SECRET} launch slips.", "plan", reason="said", about=[hidden]
    ).id
    proposal = memory.propose(
        [{"type": "create", "path": HIDDEN_PATH, "content": f"{SECRET} more"}],
        title=f"{SECRET} plan",
    ).id
    return World(public, hidden, merged, claim, proposal, conflict)


Call = Callable[[World], Mapping[str, Any]]

#: One call of each read operation, aimed at what bob may read.
READS: dict[str, Call] = {
    "ls": lambda w: {"path": "/"},
    "tree": lambda w: {"path": "/"},
    "cat": lambda w: {"path": "/team/plan"},
    "recall": lambda w: {"query": "launch June"},
    "show": lambda w: {"fact_id": w.public},
    "history": lambda w: {"target": w.public},
    "find": lambda w: {"kind": "fact"},
    "kinds": lambda w: {},
    "due": lambda w: {},
    "conflicts": lambda w: {},
    "links": lambda w: {"fact_id": w.public},
    "similar": lambda w: {"fact_id": w.public},
    "proposals": lambda w: {},
    "retention": lambda w: {},
    "provenance": lambda w: {"fact_id": w.public},
    "memory_status": lambda w: {"fact_id": w.public},
    "due_for_consolidation": lambda w: {},
    "list_forgotten": lambda w: {},
    "chronicle.audit_log": lambda w: {"limit": 100},
    "chronicle.list_canon": lambda w: {},
    "chronicle.active_scopes": lambda w: {},
    "chronicle.list_frames": lambda w: {},
    "chronicle.list_conflicts": lambda w: {},
    "chronicle.timeline": lambda w: {},
    "chronicle.search_history": lambda w: {"query": "launch June"},
    "chronicle.memory_links": lambda w: {"fact_id": w.public},
    "chronicle.current_narrative": lambda w: {},
    "chronicle.narrative_history": lambda w: {},
    "chronicle.list_narratives": lambda w: {},
    "chronicle.recall_claims": lambda w: {},
    "chronicle.recall": lambda w: {"query": "launch June"},
    "chronicle.search": lambda w: {"query": "launch June"},
    "chronicle.search_archive": lambda w: {"query": "launch June"},
}

#: Reads of one record by its id: bob asks for the hidden one.
LOOKUPS: dict[str, Call] = {
    "show": lambda w: {"fact_id": w.hidden},
    "history": lambda w: {"target": w.hidden},
    "provenance": lambda w: {"fact_id": w.hidden},
    "memory_status": lambda w: {"fact_id": w.hidden},
    "links": lambda w: {"fact_id": w.hidden},
    "similar": lambda w: {"fact_id": w.hidden},
    "chronicle.memory_links": lambda w: {"fact_id": w.hidden},
    "conflict": lambda w: {"conflict_id": w.conflict},
    "proposal": lambda w: {"proposal_id": w.proposal},
    "chronicle.claim": lambda w: {"claim_id": w.claim},
}


def _reads() -> list[tuple[str, str]]:
    return [
        (op.name, str(op.call))
        for op in CATALOG
        if op.call is not None
        and not op.local_only
        and any(n.target == READ for n in RIGHTS[op.name])
        and all(set(n.actions) <= {"read"} for n in RIGHTS[op.name])
    ]


def test_every_read_is_walked() -> None:
    calls = {call for _, call in _reads()}
    assert calls == set(READS) | set(LOOKUPS), (
        f"without a probe: {sorted(calls - set(READS) - set(LOOKUPS))}"
    )


def _leaks(answer: object, world: World) -> list[str]:
    text = repr(answer)
    secrets = {
        "hidden id": world.hidden,
        "merged id": world.merged,
        "claim id": world.claim,
        "proposal id": world.proposal,
        "words": SECRET,
        "path": HIDDEN_PATH,
    }
    return [name for name, value in secrets.items() if value in text]


def test_a_read_shows_nothing_of_a_hidden_fact(
    memory: Memory, clock: FixedClock, open_as: Callable[[str], MemoryAPI]
) -> None:
    """Every read on one memory; each leaking read is listed, all of them at once."""
    world = _world(memory, clock)
    assert _leaks(memory.show(world.hidden), world)  # the probe can see a leak
    bob = open_as("bob")
    leaking = {}
    for call, args in sorted(READS.items()):
        answer = resolve_call(bob, call)(**args(world))
        if found := _leaks(answer, world):
            leaking[call] = (found, answer)
    assert leaking == {}


def test_a_hidden_record_is_not_found(
    memory: Memory, clock: FixedClock, open_as: Callable[[str], MemoryAPI]
) -> None:
    world = _world(memory, clock)
    bob = open_as("bob")
    found = []
    for call, args in sorted(LOOKUPS.items()):
        try:
            answer = resolve_call(bob, call)(**args(world))
        except NotFound:
            continue
        found.append((call, answer))
    assert found == []


def test_a_prefix_only_hidden_records_share_is_not_found(
    memory: Memory, clock: FixedClock, open_as: Callable[[str], MemoryAPI]
) -> None:
    """Two hidden records made in the same millisecond share their first ten characters:
    for bob, who sees neither, that prefix names nothing (not an ambiguous id)."""
    world = _world(memory, clock)
    clock.advance(seconds=5)
    items = [{"type": "create", "path": HIDDEN_PATH, "content": "x"}]
    made = {
        ("show", "fact_id"): [memory.store(HIDDEN_PATH, f"{SECRET} {n}").id for n in range(2)],
        ("proposal", "proposal_id"): [memory.propose(items, title=f"p{n}").id for n in range(2)],
        ("chronicle.claim", "claim_id"): [
            memory.chronicle.create_claim(f"c{n}", "plan", about=[world.hidden]).id
            for n in range(2)
        ],
    }
    bob = open_as("bob")
    answered = []
    for (call, key), ids in made.items():
        prefix = ids[0][: len(ids[0]) - 16]
        assert all(i.startswith(prefix) for i in ids)
        try:
            answer = resolve_call(bob, call)(**{key: prefix})
        except NotFound:
            continue
        answered.append((call, answer))
    assert answered == []


#: The wiki's pages of the history protocol, read as bob (decision 0153).
WIKI_PAGES = (
    "/narratives",
    "/narratives?scope=default",
    "/timeline",
    "/timeline?session=team",
    "/audit",
    "/audit?actor=default",
    "/audit?action=canonize",
)


def test_the_wiki_history_pages_show_nothing_of_a_hidden_fact(
    memory: Memory, clock: FixedClock
) -> None:
    """The fact page, ``/narratives``, ``/timeline`` and ``/audit`` read through bob's
    filter: the hidden fact tied to the public one in every way shows nowhere."""
    from starlette.applications import Starlette
    from starlette.testclient import TestClient

    from embornal.interfaces.http.wiki import wiki_routes

    world = _world(memory, clock)
    memory.chronicle.set_history_context(world.hidden, session=SECRET, reason="when")
    memory.chronicle.set_history_context(world.public, session="team", reason="when")
    memory.token_add("bob")
    bob = memory.as_subject("bob")
    app = Starlette(routes=wiki_routes(lambda request: bob))
    leaking = {}
    with TestClient(app) as web:
        assert web.get(f"/fact/{world.hidden}").status_code == 404
        # the hidden fact's session answers as one never used (the page echoes the ask)
        assert web.get(f"/timeline?session={SECRET}").status_code == 404
        assert web.get("/timeline?session=never-used").status_code == 404
        for url in (f"/fact/{world.public}", *WIKI_PAGES):
            answer = web.get(url)
            if found := _leaks(answer.text, world):
                leaking[url] = found
            assert answer.status_code in (200, 404), url
        assert "The launch is in May." in web.get("/timeline").text
    assert leaking == {}
