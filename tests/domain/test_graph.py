"""Typed links and merges in the domain (docs/model.md, Links and merges; decisions 0052–0054): the
vocabulary, the emit rules, the decisions and their undo, pure, no storage."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from embornal.domain.events import (
    ActorKind,
    DomainEvent,
    Event,
    FactAttributesUpdated,
    FactEvidenceAdded,
    FactForgotten,
    FactStored,
    to_payload,
)
from embornal.domain.events.graph import FactLinked, FactMerged, FactUnlinked
from embornal.domain.facts.aggregate import FactState, fold
from embornal.domain.facts.tags import Tag
from embornal.domain.graph.rules import (
    EMITS,
    INVERSE,
    SYMMETRIC,
    TARGETS,
    LinkFacts,
    MergeFacts,
    Relation,
    UnlinkFacts,
    canonical,
    decide_link,
    decide_merge,
    decide_unlink,
    parse_relation,
    query_relation,
)
from embornal.domain.kinds.registry import KINDS
from embornal.domain.spine.justification import EvidenceRef
from embornal.domain.undo import decide_undo
from embornal.errors import Conflict, InvalidLink, InvalidMerge, NotFound, NotUndoable
from embornal.interfaces.graph.catalog import INVERSE_NAMES, RELATIONS

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
A, B, C = "01KCZ8Q3W5R7T9V1X3Z5B7D9F1", "01KCZ8Q3W5R7T9V1X3Z5B7D9F2", "01KCZ8Q3W5R7T9V1X3Z5B7D9F3"


def _state(fact_id: str, kind: str = "fact", **attributes: object) -> FactState:
    body = FactStored(
        fact_id,
        "/x",
        "text",
        "alice",
        T0,
        (Tag("owner", "alice"),),
        kind=kind,
        attributes=attributes or None,
        kind_version=1 if attributes else None,
    )
    state = fold([body])
    assert state is not None
    return state


def test_the_vocabulary_is_the_seeds_and_the_catalogue_names_it() -> None:
    # "`about` ... `involves` ... `contradicts`": ten relations, eight with an inverse name
    assert [r.value for r in Relation] == list(RELATIONS)
    assert list(INVERSE.values()) == list(INVERSE_NAMES)
    assert {Relation.RELATES_TO, Relation.CONTRADICTS} == SYMMETRIC
    assert set(INVERSE) | SYMMETRIC == set(Relation)
    assert set(EMITS) <= set(KINDS.kinds())
    for kinds in TARGETS.values():
        assert kinds == "same" or kinds <= set(KINDS.kinds())


def test_a_relation_is_named_canonically_and_an_inverse_only_in_queries() -> None:
    assert parse_relation(" Works-At ") is Relation.WORKS_AT
    with pytest.raises(InvalidLink, match="query name of about") as e:
        parse_relation("subject_of")
    assert "memory link TARGET about SOURCE" in e.value.hint
    with pytest.raises(InvalidLink, match="the relations are about, involves"):
        parse_relation("knows")
    assert query_relation("subject_of", "out") == query_relation("about", "in")
    assert query_relation("employs", "both").relation is Relation.WORKS_AT
    assert query_relation(None, "in").relation is None
    with pytest.raises(InvalidLink, match="direction must be one of in, out, both"):
        query_relation(None, "up")
    with pytest.raises(InvalidLink, match="read backwards"):
        query_relation("knows", "both")


def test_a_symmetric_link_is_stored_from_the_smaller_id() -> None:
    assert canonical(B, Relation.RELATES_TO, A) == (A, B)
    assert canonical(B, Relation.ABOUT, A) == (B, A)


def test_a_link_is_decided_on_the_source_and_folds_into_its_state() -> None:
    src, dst = _state(A), _state(B, "person", full_name="Alice")
    events = decide_link(src, LinkFacts(A, Relation.ABOUT, B), T0, dst)
    assert events == [FactLinked(A, "about", B)]
    linked = fold([FactStored(A, "/x", "text", "alice", T0), *events])
    assert linked is not None and linked.links == {("about", B)} and linked.version == 2
    with pytest.raises(Conflict, match="exists already"):
        decide_link(linked, LinkFacts(A, Relation.ABOUT, B), T0, dst)
    gone = decide_unlink(linked, UnlinkFacts(A, Relation.ABOUT, B), T0)
    assert gone == [FactUnlinked(A, "about", B)]
    after = fold([FactStored(A, "/x", "text", "alice", T0), *events, *gone])
    assert after is not None and after.links == frozenset()
    with pytest.raises(NotFound, match="no link"):
        decide_unlink(after, UnlinkFacts(A, Relation.ABOUT, B), T0)


@pytest.mark.parametrize(
    ("kind", "relation", "target", "error"),
    [
        ("fact", Relation.WORKS_AT, "organization", "a fact may not emit works_at"),
        ("person", Relation.OWNED_BY, "person", "a person may not emit owned_by"),
        ("person", Relation.WORKS_AT, "person", "works_at points at an organization"),
        ("project", Relation.PART_OF, "goal", "part_of points at a project"),
        ("event", Relation.LOCATED_IN, "person", "located_in points at a location"),
        ("contact", Relation.OWNED_BY, "project", "owned_by points at an organization or person"),
    ],
)
def test_each_kind_emits_only_its_relations(
    kind: str, relation: Relation, target: str, error: str
) -> None:
    with pytest.raises(InvalidLink, match=error):
        decide_link(_state(A, kind), LinkFacts(A, relation, B), T0, _state(B, target))


def test_the_kinds_emit_what_the_seed_says() -> None:
    ok = [
        ("person", Relation.WORKS_AT, "organization"),
        ("project", Relation.INVOLVES, "person"),
        ("event", Relation.INVOLVES, "organization"),
        ("goal", Relation.PART_OF, "goal"),
        ("location", Relation.PART_OF, "location"),
        ("asset", Relation.OWNED_BY, "person"),
        ("contact", Relation.OWNED_BY, "organization"),
        ("event", Relation.LOCATED_IN, "location"),
        ("fact", Relation.ABOUT, "person"),
        ("preference", Relation.DERIVED_FROM, "fact"),
        ("relationship", Relation.CONTRADICTS, "relationship"),
        ("unregistered", Relation.RELATES_TO, "fact"),
    ]
    for kind, relation, target in ok:
        out = decide_link(_state(A, kind), LinkFacts(A, relation, B), T0, _state(B, target))
        assert out == [FactLinked(A, relation.value, B)]


def test_no_self_link_no_missing_target_no_dead_end() -> None:
    with pytest.raises(InvalidLink, match="cannot be linked to itself"):
        decide_link(_state(A), LinkFacts(A, Relation.ABOUT, A), T0, _state(A))
    with pytest.raises(NotFound, match=f"no fact with id {B}"):
        decide_link(_state(A), LinkFacts(A, Relation.ABOUT, B), T0, None)
    gone = fold([FactStored(B, "/x", "t", "alice", T0), FactForgotten(B)])
    assert gone is not None
    with pytest.raises(Conflict, match="forgotten"):
        decide_link(_state(A), LinkFacts(A, Relation.ABOUT, B), T0, gone)


def _person(fact_id: str, name: str, *aliases: str) -> FactState:
    return _state(fact_id, "person", full_name=name, aliases=list(aliases))


def test_a_merge_absorbs_aliases_and_evidence_and_archives_the_source() -> None:
    survivor = _person(A, "Alice Smith", "Al")
    source = replace(
        _person(B, "Alice S.", "al", "Ally"), evidence=(EvidenceRef("quote", "met at the meetup"),)
    )
    out = decide_merge(survivor, source, MergeFacts(A, B), T0)
    assert out.survivor == [
        FactAttributesUpdated(A, {"aliases": ["Al", "Ally", "Alice S."]}, 1),
        FactEvidenceAdded(A, "quote", "met at the meetup", None),
        FactMerged(A, B),
        FactLinked(A, "supersedes", B),
    ]
    assert out.source == [FactForgotten(B)]


def test_a_merge_of_other_kinds_or_into_itself_is_refused() -> None:
    with pytest.raises(InvalidMerge, match="cannot be merged into itself"):
        decide_merge(_person(A, "A"), _person(A, "A"), MergeFacts(A, A), T0)
    with pytest.raises(InvalidMerge, match="only facts of one kind merge"):
        decide_merge(_person(A, "A"), _state(B), MergeFacts(A, B), T0)
    merged = fold(
        [
            FactStored(
                B,
                "/x",
                "t",
                "alice",
                T0,
                kind="person",
                attributes={"full_name": "B"},
                kind_version=1,
            ),
            FactForgotten(B),
        ]
    )
    assert merged is not None
    with pytest.raises(Conflict, match="forgotten"):
        decide_merge(_person(A, "A"), merged, MergeFacts(A, B), T0)


def test_a_merge_of_facts_without_aliases_changes_no_attribute() -> None:
    out = decide_merge(_state(A), _state(B), MergeFacts(A, B), T0)
    assert out.survivor == [FactMerged(A, B), FactLinked(A, "supersedes", B)]


# -- undo -----------------------------------------------------------------------------------


def _log(*bodies: DomainEvent) -> list[Event]:
    return [
        Event(
            position=i + 1,
            stream_id=A,
            version=i + 1,
            type=b.TYPE,
            payload=to_payload(b),
            actor="alice",
            actor_kind=ActorKind.PERSON.value,
            recorded_at=T0 + timedelta(minutes=i),
            known_body=b,
        )
        for i, b in enumerate(bodies)
    ]


def test_a_link_is_undone_by_its_unlink_and_an_unlink_by_its_link() -> None:
    log = _log(FactStored(A, "/x", "t", "alice", T0), FactLinked(A, "about", B))
    assert decide_undo(log[1], log, by="alice", at=T0) == [FactUnlinked(A, "about", B, undoes=2)]
    log = _log(*(e.body for e in log), FactUnlinked(A, "about", B))
    with pytest.raises(NotUndoable, match="changed the link"):
        decide_undo(log[1], log, by="alice", at=T0)
    assert decide_undo(log[2], log, by="alice", at=T0) == [FactLinked(A, "about", B, undoes=3)]


def test_a_merge_names_how_it_is_taken_back() -> None:
    log = _log(FactStored(A, "/x", "t", "alice", T0), FactMerged(A, B))
    with pytest.raises(NotUndoable, match="restore the source"):
        decide_undo(log[1], log, by="alice", at=T0)


def test_an_unrelated_link_does_not_block_an_undo() -> None:
    log = _log(
        FactStored(A, "/x", "t", "alice", T0), FactLinked(A, "about", B), FactLinked(A, "about", C)
    )
    assert decide_undo(log[1], log, by="alice", at=T0) == [FactUnlinked(A, "about", B, undoes=2)]
