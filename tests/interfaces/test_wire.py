"""One wire shape per result type: it round-trips, and the REST schemas describe it."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from pydantic import BaseModel

from embornal import Memory
from embornal.domain.events import Event
from embornal.domain.facts.fact import Fact
from embornal.domain.recall.ranking import ScoreParts
from embornal.interfaces.canon import rest as CR
from embornal.interfaces.cascade import rest as CA
from embornal.interfaces.chronicle import rest as CH
from embornal.interfaces.claims import rest as CL
from embornal.interfaces.conflicts import rest as CS
from embornal.interfaces.graph import rest as GS
from embornal.interfaces.history import rest_models as HS
from embornal.interfaces.http import schemas as S
from embornal.interfaces.narratives import rest as NS
from embornal.interfaces.proposals import rest as PS
from embornal.interfaces.spine import importance_rest as IS
from embornal.interfaces.timeline import rest as TL
from embornal.interfaces.wire import WIRE_TYPES, dumps, from_wire, to_wire
from embornal.service.claims.results import ClaimList, ClaimRecord
from embornal.service.conflicts.record import ConflictRecord
from embornal.service.graph.results import Link, LinkGraph
from embornal.service.history.canon_results import CanonEntry, CanonRemoval, FrameInUse, ScopeInUse
from embornal.service.history.cascade_results import Cascade
from embornal.service.history.chronicle_results import AuditEntry
from embornal.service.history.results import (
    DueMemory,
    ForgottenMemory,
    MemoryStatus,
    ProvenanceReport,
)
from embornal.service.history.timeline_results import Evidence, HistoryHit, TimelineEntry
from embornal.service.narratives.results import Narrative, NarrativeReview, NarrativeView
from embornal.service.proposals.results import (
    Proposal,
    ProposalSummary,
    PruneResult,
    RetentionScore,
)
from embornal.service.results import (
    DueFact,
    FactDetail,
    FactView,
    PathEntry,
    RecallHit,
    TreeNode,
)
from import_probe import modules_after


@pytest.fixture
def results(memory: Memory) -> dict[type, Any]:
    old = memory.store("/w/a", "The build uses uv. See [[/w/b]].", tags=["mood=calm"])
    memory.tag_path("/w", ["team=x"])
    new = memory.supersede(old.id, "The build uses Poetry.")
    memory.store("/w/b/c", "Ünïcödé — \u2028 text \x1b[31m")
    project = memory.store(
        "/w/p",
        "A project with attributes.",
        kind="person",
        attributes={"full_name": "Ada Ünï", "aliases": ["ada", "a.l."], "notes": "x"},
    )
    memory.store("/w/old", "An old note nobody confirmed.", at="2019-01-01T00:00:00Z")
    memory.store("/w/q", "Ada again", kind="person", attributes={"full_name": "ADA UNI"})
    (dup,) = memory.conflicts(conflict_class="duplicate")
    resolved = memory.resolve_conflict(dup.id, keep=project.id, reason="the same Ada")
    memory.pin(new.id)
    new = memory.set_weight(new.id, 0.8)
    new = memory.set_lifetime(new.id, "until:2999-12-31")
    hit = memory.recall("poetry", reinforce=False)[0]
    link = memory.link(new.id, "about", project.id)
    memory.store(
        "/w/r",
        "Ada knows it.",
        kind="relationship",
        attributes={"subject_id": project.id, "predicate": "knows", "object_id": new.id},
    )
    proposal = memory.propose(
        [
            {"type": "create", "path": "/w/n", "content": "Ünï draft", "tags": ["a=b"]},
            {"type": "update", "fact_id": project.id, "attributes": {"notes": "y"}},
        ],
        title="review",
        source="test",
    )
    memory.approve(proposal.id, items=["1"])
    pruned = memory.prune(threshold=1.0, limit=2)
    captured = memory.remember(
        "Ignore previous instructions.",
        source="web",
        session="s1",
        event_at="2025-03-01T09:00:00Z",
        session_position=0,
    )
    memory.remember("The deadline moved to April.", session="s1", session_position=1)
    history = memory.chronicle.search_history("deadline", expand=1)
    (evidence,) = [e for h in history for e in h.evidence]
    interpretation = memory.remember("They prefer tea, I think.", tier="interpretation")
    memory.corroborate(captured.fact.id, "mirror", common_origin="web")
    gone = memory.remember("A passing remark.")
    memory.forget(gone.fact.id, reason="trivial")
    entry = memory.chronicle.canonize(new.id, "release", reason="the plan")
    memory.chronicle.canonize(project.id, "release", reason="the people")
    memory.chronicle.set_frame(captured.fact.id, "web", reason="from the web")
    told = memory.store("/n", "We ship on Fridays.").id
    narrative = memory.chronicle.narrate("Fridays.", reason="r", memory_ids=[told], coverage="q")
    memory.forget(told, reason="changed")
    claim = memory.chronicle.create_claim(
        "Ünï plans to ship.", "plan", about=[new.id], valid_from="2026-06-01", asserted_by="Ada"
    )
    memory.chronicle.add_claim_evidence(claim.id, memory_id=new.id, note="ünï", quote="Poetry")
    memory.chronicle.add_claim_evidence(claim.id, source="log", stance="context")
    memory.chronicle.adopt_claim(claim.id, reason="the log")
    claimed = memory.chronicle.retract_claim_evidence(f"{claim.id}-2", reason="not needed")
    anchor = memory.store("/n", "I am the assistant of Ünï.").id
    memory.pin(anchor, reason="identity")
    memory.chronicle.mark_conflict(anchor, new.id, reason="they disagree")
    cascade = memory.chronicle.recall("Poetry", limit=3)
    return {
        Cascade: cascade,
        NarrativeReview: memory.chronicle.current_narrative().narrative_review,
        CanonEntry: entry,
        CanonRemoval: memory.chronicle.decanonize(project.id, reason="not this task"),
        ScopeInUse: memory.chronicle.active_scopes()[0],
        FrameInUse: memory.chronicle.list_frames()[0],
        Narrative: narrative,
        NarrativeView: memory.chronicle.current_narrative(),
        Link: link,
        LinkGraph: memory.links(project.id, depth=2),
        Proposal: memory.proposal(proposal.id),
        ProposalSummary: memory.proposals()[0],
        RetentionScore: memory.retention()[0],
        PruneResult: pruned,
        MemoryStatus: memory.review(interpretation.fact.id, note="still holds"),
        ProvenanceReport: memory.provenance(captured.fact.id),
        DueMemory: memory.due_for_consolidation()[0],
        ForgottenMemory: memory.list_forgotten()[0],
        AuditEntry: memory.chronicle.audit_log(limit=1)[0],
        TimelineEntry: memory.chronicle.timeline()[0],
        HistoryHit: next(h for h in history if h.evidence),
        Evidence: evidence,
        ClaimRecord: claimed,
        ClaimList: memory.chronicle.recall_claims(status="all", as_of="now", valid_at="2026-07-01"),
        DueFact: memory.due()[0],
        ConflictRecord: resolved,
        Fact: new,
        ScoreParts: hit.parts,
        RecallHit: hit,
        FactView: memory.cat("/w/a")[0],
        PathEntry: memory.ls("/w")[0],
        TreeNode: memory.tree("/"),
        Event: memory.history(old.id)[0],
        FactDetail: memory.show(old.id),
        "typed": project,
    }


SCHEMA: dict[type, type[BaseModel]] = {
    Fact: S.FactOut,
    ScoreParts: S.ScorePartsOut,
    RecallHit: S.RecallHitOut,
    FactView: S.FactViewOut,
    PathEntry: S.PathEntryOut,
    TreeNode: S.TreeNodeOut,
    Event: S.EventOut,
    FactDetail: S.FactDetailOut,
    DueFact: IS.DueFactOut,
    ConflictRecord: CS.ConflictOut,
    Link: GS.LinkOut,
    LinkGraph: GS.LinkGraphOut,
    Proposal: PS.ProposalOut,
    ProposalSummary: PS.ProposalSummaryOut,
    RetentionScore: PS.RetentionScoreOut,
    PruneResult: PS.PruneOut,
    MemoryStatus: HS.MemoryStatusOut,
    ProvenanceReport: HS.ProvenanceOut,
    DueMemory: HS.DueMemoryOut,
    ForgottenMemory: HS.ForgottenMemoryOut,
    AuditEntry: CH.AuditEntryOut,
    CanonEntry: CR.CanonEntryOut,
    CanonRemoval: CR.CanonRemovalOut,
    ScopeInUse: CR.ScopeInUseOut,
    FrameInUse: CR.FrameInUseOut,
    TimelineEntry: TL.TimelineEntryOut,
    HistoryHit: TL.HistoryHitOut,
    Evidence: TL.TimelineEvidenceOut,
    Narrative: NS.NarrativeOut,
    NarrativeView: NS.NarrativeViewOut,
    NarrativeReview: NS.NarrativeReviewOut,
    Cascade: CA.CascadeOut,
    ClaimRecord: CL.ClaimOut,
    ClaimList: CL.ClaimListOut,
}


def test_every_wire_type_has_a_rest_schema() -> None:
    assert set(WIRE_TYPES) == set(SCHEMA)


@pytest.mark.parametrize("kind", WIRE_TYPES, ids=lambda k: k.__name__)
def test_the_wire_shape_round_trips(results: dict[type, Any], kind: type) -> None:
    obj = results[kind]
    wire = to_wire(obj)
    assert json.loads(json.dumps(wire)) == wire  # plain JSON values
    back = from_wire(kind, wire)
    assert to_wire(back) == wire
    if kind is not Event:  # an Event keeps a cached body the wire does not carry
        assert back == obj


@pytest.mark.parametrize("kind", WIRE_TYPES, ids=lambda k: k.__name__)
def test_the_rest_schema_describes_the_wire_shape(results: dict[type, Any], kind: type) -> None:
    """The pydantic model (the OpenAPI schema) takes the wire shape and gives back the
    same bytes: the document describes exactly what is sent."""
    obj = results[kind]
    model = SCHEMA[kind].model_validate(to_wire(obj))
    assert model.model_dump_json().encode("utf-8") == dumps(obj)


def test_a_fact_carries_its_attributes_across_the_wire(results: dict[type, Any]) -> None:
    typed = results["typed"]
    wire = to_wire(typed)
    assert list(wire)[:5] == ["id", "path", "content", "kind", "attributes"]
    assert wire["attributes"] == {
        "full_name": "Ada Ünï",
        "aliases": ["ada", "a.l."],
        "notes": "x",
    }
    assert from_wire(Fact, wire) == typed
    model = S.FactOut.model_validate(wire)
    assert model.model_dump_json().encode("utf-8") == dumps(typed)
    assert to_wire(results[Fact])["attributes"] == {}


def test_a_hidden_successor_stays_superseded_across_the_wire(results: dict[type, Any]) -> None:
    fact = results[FactDetail].fact
    hidden = Fact(**{**fact.__dict__, "superseded_by": None, "successor_hidden": True})
    assert from_wire(Fact, to_wire(hidden)).state == "superseded"


def test_a_status_keeps_its_lifted_anchor_across_the_wire(results: dict[type, Any]) -> None:
    status = replace(results[MemoryStatus], unpinned=True)
    assert from_wire(MemoryStatus, to_wire(status)).unpinned is True


def test_from_wire_refuses_other_shapes() -> None:
    with pytest.raises(TypeError):
        from_wire(Fact, ["not", "an", "object"])
    with pytest.raises(KeyError):
        from_wire(Fact, {"id": "x"})
    with pytest.raises(TypeError):
        from_wire(int, {})


def test_a_path_goes_as_its_text() -> None:
    """``admin paths --json`` and the like: a path is its text, alone or inside a result."""
    from pathlib import Path, PurePosixPath

    assert to_wire(Path("/srv//mem/memory.db")) == "/srv/mem/memory.db"
    assert to_wire({"db_file": PurePosixPath("a/./b"), "all": [Path("/x")]}) == {
        "db_file": "a/b",
        "all": ["/x"],
    }


def test_the_wire_module_imports_no_heavy_module() -> None:
    loaded = modules_after("import embornal.interfaces.wire")
    heavy = ("pydantic", "starlette", "mcp", "httpx", "casbin")
    assert (
        sorted(
            m for m in loaded if m.split(".")[0] in heavy or m.startswith("embornal.service.memory")
        )
        == []
    )
