"""Rebuild and verify, purge, and the access data (rules, policy version, tokens)."""

from __future__ import annotations

from contract_helpers import Events, write

from embornal.domain.access.rules import Rule
from embornal.domain.events.protocol import MemoryCaptured
from embornal.domain.history.state import history_of
from embornal.storage.contract.store import FactVector, Store, pack_vector

MARKER = "zyzzogeton"


def test_rebuild_replays_the_log_and_verify_finds_it_equal(store: Store, events: Events) -> None:
    (a,) = write(store, events.stored("/r", "first words", tags=[("k", "v")]))
    (b,) = write(store, events.stored("/r", "second words", supersedes=a))
    write(store, events.path_tagged("/r", [("area", "x")]), events.forgotten(b))
    before = (store.facts_at("/r", include_inactive=True), store.subtree("/"), store.rules())
    assert store.verify() == []
    replayed = store.rebuild()
    assert replayed == len(list(store.read_all()))
    assert store.verify() == []
    after = (store.facts_at("/r", include_inactive=True), store.subtree("/"), store.rules())
    assert after == before


def test_purge_leaves_no_text(store: Store, events: Events) -> None:
    fid = events.new_id()
    write(
        store,
        events.stored(
            "/secret",
            f"the code is {MARKER}",
            fact_id=fid,
            tags=[("note", MARKER)],
            reason=f"said {MARKER}",
        ),
    )
    if store.prepare_vectors(8):
        with store.transaction() as tx:
            store.write_vectors(tx, [FactVector(fid, pack_vector([1.0] * 8))], model="m")
    with store.transaction() as tx:
        (purge,) = store.append(tx, [events.purged(fid)])
        assert store.redact_stream(tx, fid, purge.position) == 1
        store.erase_in_transaction(tx)
    store.compact_after_purge()
    fact = store.get_fact(fid)
    assert fact is not None and fact.state == "purged"
    assert MARKER not in fact.content
    assert all(MARKER not in str(t) for t in fact.tags)
    stream = store.read_stream(fid)
    assert stream[0].redacted and MARKER not in repr(stream[0])
    assert all(MARKER not in repr(e) for e in store.read_all())
    assert store.keyword_search([MARKER], 10) == []
    assert store.term_df([MARKER]) in ({}, {MARKER: 0})
    assert store.vector_search(pack_vector([1.0] * 8), 10) == []
    assert store.verify() == []


def test_a_captures_declared_material_is_projected_replayed_and_purged(
    store: Store, events: Events
) -> None:
    """What remember declares of its material (decision 0156) is in the protocol's
    projection as a replay makes it; a purge erases its origin and capture context."""
    fid = events.new_id()
    captured = MemoryCaptured(
        fid,
        material_type="utterance",
        origin_id=f"post {MARKER}",
        capture_context=f"thread {MARKER}",
    )
    write(store, events.stored("/inbox/s", "words", fact_id=fid), events.captured(captured))
    state = store.fact_state(fid)
    assert state is not None
    h = history_of(state)
    assert (h.material_type, h.origin_id, h.capture_context) == (
        "utterance",
        f"post {MARKER}",
        f"thread {MARKER}",
    )
    assert store.verify() == []
    store.rebuild()
    assert store.verify() == []
    with store.transaction() as tx:
        (purge,) = store.append(tx, [events.purged(fid)])
        store.redact_stream(tx, fid, purge.position)
        store.erase_in_transaction(tx)
    assert all(MARKER not in repr(e) for e in store.read_all())
    assert store.verify() == []  # the projected origin and context are erased too
    state = store.fact_state(fid)
    assert state is not None and history_of(state).origin_id is None


def test_rules_and_the_policy_version(store: Store, events: Events) -> None:
    version = store.policy_version()
    rule = Rule("p", ("alice", "path:/alice/*", "read", "allow"))
    assert rule not in store.rules()
    write(store, events.policy_added(rule))
    assert rule in store.rules()
    assert store.policy_version() != version


def test_tokens_by_hash_and_revocation(store: Store, events: Events) -> None:
    write(store, events.token_issued("01KCTOKEN00000000000000001", "alice", "h" * 64))
    row = store.token_by_hash("h" * 64)
    assert row is not None
    assert (row["id"], row["subject"], row["revoked_at"]) == (
        "01KCTOKEN00000000000000001",
        "alice",
        None,
    )
    assert store.token_by_hash("x" * 64) is None
    assert [t["id"] for t in store.tokens(include_inactive=False)] == [row["id"]]
    write(store, events.token_revoked(row["id"]))
    assert store.tokens(include_inactive=False) == []
    (revoked,) = store.tokens(include_inactive=True)
    assert revoked["revoked_at"] is not None


def test_one_unit_of_work_of_many_stores_projects_as_each_event_alone(
    store: Store, events: Events
) -> None:
    # The SQLite store writes the keyword documents and first history rows of a run of
    # stores together; whatever follows in the same append must see them as if written
    # one by one, and verify (a replay of each event alone) must find the same tables.
    a, b, c = events.new_id(), events.new_id(), events.new_id()
    write(
        store,
        events.stored("/batch", "alpha narwhal", fact_id=a, tags=[("k", "v")]),
        events.stored("/batch/deep", "beta narwhal", fact_id=b),
        events.stored("/batch", "gamma narwhal", fact_id=c, supersedes=a),
        events.forgotten(b),
        events.stored("/batch", "delta narwhal"),
        events.path_tagged("/batch", [("area", "x")]),
        events.stored("/batch", "epsilon narwhal"),
    )
    assert store.verify() == []
    live = sorted(f.content for f in store.facts_at("/batch"))
    assert live == ["delta narwhal", "epsilon narwhal", "gamma narwhal"]
    found = {f.content for f, _ in store.keyword_search(["narwhal"], 10)}
    assert found == {"delta narwhal", "epsilon narwhal", "gamma narwhal"}
    store.rebuild()
    assert store.verify() == []


def test_fact_counts_group_every_fact_in_scope_by_state_kind_and_stage(
    store: Store, events: Events
) -> None:
    from embornal.domain.access.scope import EVERYTHING, NOTHING

    guide = sum(n for *_, n in store.protocol.fact_counts(EVERYTHING))  # the guide facts of /memory
    (a,) = write(store, events.stored("/r", "first words"))
    write(store, events.stored("/r", "second words", supersedes=a))
    (c,) = write(store, events.stored("/s", "gone words"))
    write(store, events.forgotten(c))
    counts = {(s, k, st): n for s, k, st, n in store.protocol.fact_counts(EVERYTHING)}
    assert counts[("superseded", "fact", "")] == 1
    assert counts[("forgotten", "fact", "")] == 1
    assert counts[("active", "fact", "")] == guide + 1
    assert sum(counts.values()) == guide + 3
    assert store.protocol.fact_counts(NOTHING) == []
