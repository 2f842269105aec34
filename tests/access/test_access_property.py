"""Property: every read API returns exactly the facts Casbin's enforce() allows and their
visibility lets the reader see, never more (recall, cat, show, history, the wiki's spine
series, tree, ls and their counts, find by kind and attribute, export of the events and
of Markdown).

Random trees, tags (on facts and on paths), policies (allow and deny, roles) and
subjects; the reference is the Casbin enforcer of the access model. Subjects also tag
and untag paths; the facts each may read are also checked against a model in which a
fact inherits only the path tags its own owner set. Facts get a random visibility
(shared, private, restricted to random subjects and roles), at store or changed later by
their owner, and every subject reads both as a person and as an assistant: a private fact
never reaches an assistant, nor anyone but its owner (decision 0038).

Random typed links join the facts (decision 0052): the walk from a readable fact reaches,
follows and names only readable facts, and a link to a hidden fact is refused as a link
to a missing one; the dangling report names only readable ends.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from embornal import FixedClock, Memory
from embornal.domain import paths as P
from embornal.domain.access.rules import decide, roles_of
from embornal.domain.access.scope import EVERYTHING
from embornal.domain.facts.fact import Fact
from embornal.errors import AccessDenied, Conflict, EmbornalError, InvalidInput, NotFound
from pg_server import PgServer

SUBJECTS = ["default", "alice", "bob", "carol"]
ROLES = ["everyone", "team"]
PATHS = ["/a", "/a/b", "/a/b/c", "/a/d", "/e", "/e/f"]
TAG_KEYS = ["visibility", "team"]
TAG_VALUES = ["public", "private", "x"]

tag_st = st.tuples(st.sampled_from(TAG_KEYS), st.sampled_from(TAG_VALUES))
visibility_st = st.one_of(
    st.just("shared"),
    st.just("private"),
    st.lists(st.sampled_from(SUBJECTS + ROLES), min_size=1, max_size=3, unique=True).map(
        lambda names: "restricted:" + ",".join(names)
    ),
)
fact_st = st.tuples(
    st.sampled_from(PATHS),
    st.sampled_from(SUBJECTS),
    st.lists(tag_st, max_size=2, unique_by=lambda t: t[0]),
    visibility_st,
)
# (index of a source, index of a target, unlink it again): typed links made by the admin.
link_st = st.tuples(st.integers(0, 11), st.integers(0, 11), st.booleans())
# (index of a stored fact, its new visibility): set by the fact's owner after the stores.
change_st = st.tuples(st.integers(0, 11), visibility_st)
obj_st = st.one_of(
    st.sampled_from(PATHS).map(lambda p: f"path:{p}"),
    st.sampled_from([*PATHS, ""]).map(lambda p: f"path:{p}/*"),
    tag_st.map(lambda t: f"tag:{t[0]}={t[1]}"),
    st.sampled_from(SUBJECTS).map(lambda s: f"tag:owner={s}"),
)
policy_st = st.tuples(
    st.sampled_from(SUBJECTS[1:] + ROLES), obj_st, st.sampled_from(["allow", "allow", "deny"])
)
group_st = st.tuples(st.sampled_from(SUBJECTS[1:]), st.sampled_from(ROLES))
# (tagger, path, key, value): value None untags the key.
tag_op_st = st.tuples(
    st.sampled_from(SUBJECTS[1:] + SUBJECTS[:1]),
    st.sampled_from(PATHS),
    st.sampled_from(TAG_KEYS),
    st.one_of(st.none(), st.sampled_from(TAG_VALUES)),
)


Scenario = tuple[
    list[tuple[str, str, list[tuple[str, str]], str]],  # facts
    list[tuple[str, tuple[str, str]]],  # path tags
    list[tuple[str, str, str]],  # policies
    list[tuple[str, str]],  # groups
    list[tuple[str, str, str, str | None]],  # tag ops
    list[tuple[int, str]],  # visibility changes
    list[tuple[int, int, bool]],  # links
]
scenario_st = st.tuples(
    st.lists(fact_st, min_size=1, max_size=12),
    st.lists(st.tuples(st.sampled_from(PATHS), tag_st), max_size=4),
    st.lists(policy_st, max_size=6),
    st.lists(group_st, max_size=3),
    st.lists(tag_op_st, max_size=6),
    st.lists(change_st, max_size=4),
    st.lists(link_st, max_size=8),
)


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(scenario=scenario_st)
def test_reads_return_exactly_what_enforce_allows(scenario: Scenario) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        admin = Memory.open(Path(tmp) / "m.db", clock=FixedClock())
        try:
            _check_scenario(admin, *scenario)
        finally:
            admin.close()


@pytest.mark.postgresql
@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(scenario=scenario_st)
def test_reads_return_exactly_what_enforce_allows_on_postgresql(
    pg_server: PgServer, scenario: Scenario
) -> None:
    """The same on PostgreSQL (a fresh database an example; fewer examples: each costs a
    database): the same reads, the same SQL filters through the dialect."""
    name = pg_server.fresh_database()
    try:
        admin = Memory.open(pg_server.url(name), clock=FixedClock())
        try:
            _check_scenario(admin, *scenario)
        finally:
            admin.close()
    finally:
        pg_server.drop(name)


def _check_scenario(
    admin: Memory,
    facts: list[tuple[str, str, list[tuple[str, str]], str]],
    path_tags: list[tuple[str, tuple[str, str]]],
    policies: list[tuple[str, str, str]],
    groups: list[tuple[str, str]],
    tag_ops: list[tuple[str, str, str, str | None]],
    changes: list[tuple[int, str]],
    links: list[tuple[int, int, bool]],
) -> None:
    for subject in SUBJECTS[1:]:
        admin.policy_add("p", [subject, "path:/*", "write", "allow"])
    model: dict[tuple[str, str], dict[str, str]] = {}  # (tagger, path) -> tags
    for path, (k, v) in path_tags:
        admin.tag_path(path, {k: v})
        model.setdefault(("default", path), {})[k] = v
    stored = []
    for path, owner, tags, visibility in facts:
        writer = admin.as_subject(owner)
        n = len(stored)
        kind, attributes = "fact", None
        if n % 3:  # projects too, for find: active on odd numbers
            kind = "project"
            attributes = {"name": f"p{n}", "status": "active" if n % 2 else "paused"}
        stored.append(
            writer.store(
                path,
                f"fact word {n}",
                tags=dict(tags),
                kind=kind,
                attributes=attributes,
                visibility=visibility,
            )
        )
    _link(admin, stored, links)
    _date(admin, stored, [owner for _, owner, _, _ in facts])
    for index, visibility in changes:
        if index < len(stored):
            fact = stored[index]
            with contextlib.suppress(NotFound):  # an owner the rules let not read it
                admin.as_subject(fact.owner).set_visibility(fact.id, visibility)
    existing = set(admin.policies())
    for sub, obj, eft in policies:
        rule_values = [sub, obj, "read", eft]
        if not any(r.values == tuple(rule_values) for r in existing):
            existing.add(admin.policy_add("p", rule_values))
    for sub, role in groups:
        if not any(r.values == (sub, role) for r in existing):
            existing.add(admin.policy_add("g", [sub, role]))
    for tagger, path, k, maybe in tag_ops:
        mem = admin.as_subject(tagger)
        if maybe is None:
            mem.untag_path(path, [k])
            model.get((tagger, path), {}).pop(k, None)
        else:
            mem.tag_path(path, {k: maybe})
            model.setdefault((tagger, path), {})[k] = maybe
    # Every fact in the file: the default subject's own reads obey the rules too
    # (a deny on a role it holds hides facts from it), so read the table itself.
    all_ids = admin._store.portability.fact_ids()
    assert {f.id for f in stored} <= all_ids
    proposed = _proposals(admin, stored)
    for fact in stored:  # canon and frames (decision 0078): each by its owner
        with contextlib.suppress(EmbornalError):
            mine = admin.as_subject(fact.owner).chronicle
            mine.canonize(fact.id, "all", reason="focus")
            mine.set_frame(fact.id, "f", reason="filed")
    for subject in SUBJECTS:
        for assistant in (False, True):
            _check_subject(admin, subject, all_ids, assistant)
            _check_links(admin, subject, all_ids, assistant)
            _check_owner_labels(admin, subject, stored, model, assistant)
            _check_proposals(admin, subject, proposed, all_ids, assistant)


def _link(admin: Memory, stored: list[Fact], links: list[tuple[int, int, bool]]) -> None:
    """Link the facts (``relates_to``, or ``about`` from a plain fact); a link
    may be taken off again (its history stays)."""
    from embornal.errors import Conflict, InvalidInput

    for a, b, unlink in links:
        if a >= len(stored) or b >= len(stored):
            continue
        source, target = stored[a], stored[b]
        relation = "about" if source.kind == "fact" else "relates_to"
        with contextlib.suppress(Conflict, InvalidInput, NotFound):
            admin.link(source.id, relation, target.id)
            if unlink:
                admin.unlink(source.id, relation, target.id)


def _date(admin: Memory, stored: list[Fact], owners: list[str]) -> None:
    """Give every fact a history context, set by its owner: one session, in store order,
    dated in turn (the timeline and the history search see them); one its owner may not
    write (a policy denies it) stays without."""
    for n, (fact, owner) in enumerate(zip(stored, owners, strict=True)):
        with contextlib.suppress(NotFound, AccessDenied):
            admin.as_subject(owner).chronicle.set_history_context(
                fact.id,
                event_at=f"2025-03-{n % 28 + 1:02d}T00:00:00Z",
                session="one",
                session_position=n,
                reason="dated",
            )


def _check_links(admin: Memory, subject: str, all_ids: set[str], assistant: bool) -> None:
    """The walk and the dangling report never name a fact the reader may not read; a link
    to a hidden fact is refused as one to a missing fact (the same error, the same words)."""
    mem = _reader(admin, subject, assistant)
    readable = {fid for fid in all_ids if _can_read(mem, fid)}
    absent = "01KCZ8Q3W5R7T9V1X3Z5B7D9F1"
    for fid in all_ids:
        if fid not in readable:
            with contextlib.suppress(NotFound):
                mem.links(fid)
                raise AssertionError(f"{subject} walked from hidden fact {fid}")
            continue
        graph = mem.links(fid, depth=3)
        named = {n.fact.id for n in graph.nodes}
        named |= {x for s in graph.steps for x in (s.from_id, s.to_id)}
        named |= {f.id for f in graph.relationships}
        assert named <= readable, (subject, fid, named - readable)
        for other in all_ids - readable:
            for target in (other, absent):
                try:
                    mem.link(fid, "relates_to", target)
                except NotFound as e:
                    assert e.message == f"no fact with id {target}"
                    continue
                except AccessDenied:
                    break  # no write on the source: the target is never looked at
                raise AssertionError(f"{subject} linked to hidden fact {target}")
    for d in mem.dangling_links(limit=1000):
        assert {d.source_id, d.target_id} <= readable
    audited = mem.chronicle.audit_log(limit=1000)  # the audit: a view of the log, filtered
    assert {e.memory_id for e in audited} <= readable
    line = mem.chronicle.timeline(limit=1000, include_forgotten=True)  # the timeline too
    assert {e.fact.id for e in line} <= readable
    assert {e.fact.id for e in mem.chronicle.timeline(session="one", limit=1000)} <= readable
    window = mem.chronicle.timeline(start="2025-03-02", end="2025-03-20", limit=1000)
    assert {e.fact.id for e in window} <= readable
    hits = mem.chronicle.search_history("fact word", limit=100, expand=5)  # hits, evidence
    found = {h.entry.fact.id for h in hits} | {e.entry.fact.id for h in hits for e in h.evidence}
    assert found <= readable
    then = "2026-01-01T00:00:00Z"  # the fixed clock's now, read from the history tables
    past = {h.fact.id for h in mem.recall("fact word", limit=100, mode="keyword", as_of=then)}
    for path in PATHS:
        with contextlib.suppress(NotFound):  # nothing there the subject may read
            past |= {v.fact.id for v in mem.cat(path, limit=1000, as_of=then)}
    past |= {f.id for f in mem.find("project", limit=1000, as_of=then)}
    assert past <= readable


def _can_read(mem: Memory, fact_id: str) -> bool:
    try:
        mem.show(fact_id)
    except NotFound:
        return False
    return True


def _proposals(admin: Memory, stored: list[Fact]) -> dict[str, tuple[str, tuple[str, ...]]]:
    """One archive proposal per fact, by its owner, and a link proposal between each two
    facts stored one after the other, by the admin (decision 0071): proposal id ->
    (proposer, the fact ids it names)."""
    out = {}
    for fact in stored:
        with contextlib.suppress(NotFound):  # an owner the rules let not read it
            made = admin.as_subject(fact.owner).propose([{"type": "archive", "fact_id": fact.id}])
            out[made.id] = (fact.owner, (fact.id,))
    for a, b in itertools.pairwise(stored):
        with contextlib.suppress(NotFound, Conflict, InvalidInput):  # gone, or a duplicate
            made = admin.propose(
                [{"type": "link", "source": a.id, "relation": "relates_to", "target": b.id}]
            )
            out[made.id] = (admin.subject, (a.id, b.id))
    return out


def _check_proposals(
    admin: Memory,
    subject: str,
    proposed: dict[str, tuple[str, tuple[str, ...]]],
    all_ids: set[str],
    assistant: bool,
) -> None:
    """A proposal is seen by its proposer and by a subject who may read its facts; to any
    other it is absent (the same error as an id no proposal has), and retention scores
    exactly the facts the subject may read (the guide under /memory apart)."""
    mem = _reader(admin, subject, assistant)
    allowed = {
        fid
        for fid in all_ids
        if admin.policy_check(subject, "read", fid).decision.allowed
        and _sees(admin, subject, fid, assistant)
    }
    visible = {
        pid
        for pid, (who, fids) in proposed.items()
        if who == subject or all(f in allowed for f in fids)
    }
    assert {p.id for p in mem.proposals(limit=1000)} == visible
    for pid in proposed:
        if pid in visible:
            assert mem.proposal(pid).id == pid
            continue
        for probe in (pid, "01KCZ8Q3W5R7T9V1X3Z5B7D9F1"):  # the same words: hidden, absent
            try:
                mem.proposal(probe)
            except NotFound as e:
                assert e.message == f"no proposal with id {probe}"
            else:
                raise AssertionError(f"{subject} read a hidden proposal {pid}")
    guide = {f.id for f in admin._store.get_facts(list(allowed)) if f.path == "/memory"}
    assert {s.fact_id for s in mem.retention(lowest=1000)} == allowed - guide  # decision 0154


def _sees(admin: Memory, subject: str, fact_id: str, assistant: bool) -> bool:
    """The model of visibility, written out here: shared to all the rules allow, private to
    its owner as a person only, restricted to its owner and the names (subjects or roles
    of the reader) it lists."""
    fact = admin._store.get_fact(fact_id)  # the store's own read: every visibility
    assert fact is not None
    if fact.visibility == "shared":
        return True
    if fact.visibility == "private":
        return fact.owner == subject and not assistant
    names = set(fact.visibility.removeprefix("restricted:").split(","))
    return fact.owner == subject or bool(names & roles_of(subject, admin.policies()))


def _reader(admin: Memory, subject: str, assistant: bool) -> Memory:
    return admin.as_subject(subject, "assistant" if assistant else "person")


def _check_owner_labels(
    admin: Memory,
    subject: str,
    stored: list[Fact],
    model: dict[tuple[str, str], dict[str, str]],
    assistant: bool,
) -> None:
    """No subject reads a fact that its owner's own labels do not let it read."""
    rules = admin.policies()
    expected = set()
    for fact in stored:
        if not _sees(admin, subject, fact.id, assistant):
            continue
        tags: dict[str, str] = {}
        for ancestor in P.ancestors(fact.path):
            tags.update(model.get((fact.owner, ancestor), {}))
        tags.pop("owner", None)
        tags.update({t.key: t.value for t in fact.tags})
        if decide(subject, "read", fact.path, tags, rules).allowed:
            expected.add(fact.id)
    mem = _reader(admin, subject, assistant)
    seen = {h.fact.id for h in mem.recall(None, limit=1000, reinforce=False)}
    assert seen & {f.id for f in stored} == expected


def _check_subject(admin: Memory, subject: str, all_ids: set[str], assistant: bool) -> None:
    mem = _reader(admin, subject, assistant)
    allowed = set()
    allowed_paths = set()
    for fid in all_ids:
        check = admin.policy_check(subject, "read", fid)
        if check.decision.allowed and _sees(admin, subject, fid, assistant):
            allowed.add(fid)
            allowed_paths.add(check.path)
    # recall without a query (with the guide: all) and with a word every fact holds
    everything = mem.recall(None, limit=1000, reinforce=False, all=True)
    assert {h.fact.id for h in everything} == allowed
    assert {h.fact.id for h in mem.recall("word", limit=1000, reinforce=False)} <= allowed
    # cat, per path; show and history per fact
    seen_by_cat = set()
    for path in {*PATHS, "/memory"}:
        with contextlib.suppress(NotFound):
            seen_by_cat |= {v.fact.id for v in mem.cat(path)}
    assert seen_by_cat == allowed
    # find, by kind and attribute: the same filter
    projects = {f.id for f in admin._store.find_by_kind("project", ())}
    active = {
        f.id for f in admin._store.find_by_kind("project", ()) if f.attributes["status"] == "active"
    }
    assert {f.id for f in mem.find("project")} == allowed & projects
    assert {f.id for f in mem.find("project", {"status": "active"})} == allowed & active
    assert {f.id for f in mem.find("fact")} == allowed - projects
    for fid in all_ids:
        if fid in allowed:
            assert mem.show(fid).fact.id == fid
            assert any(e.stream_id == fid for e in mem.history(fid))
            assert mem.spine_series(fid).fact_id == fid
            assert mem.provenance(fid).fact_id == fid  # the history protocol's read
        else:
            for read in (mem.show, mem.history, mem.spine_series, mem.provenance):
                try:
                    read(fid)
                except NotFound:
                    continue
                raise AssertionError(f"{subject} read hidden fact {fid} through {read.__name__}")
    _check_exports(mem, all_ids, allowed)
    # the canon and the frames count only what the subject may read (decision 0078)
    canon = {r.fact.id for r in admin._store.canon.canon_rows(EVERYTHING)}
    assert {e.fact.id for e in mem.chronicle.list_canon()} == allowed & canon
    assert sum(s.entries for s in mem.chronicle.active_scopes()) == len(allowed & canon)
    assert sum(f.memories for f in mem.chronicle.list_frames()) == len(allowed & canon)
    # tree and ls show exactly the paths that lead to a visible fact
    shown: set[str] = set()

    def walk(node: object) -> None:
        shown.add(node.path)  # type: ignore[attr-defined]
        for child in node.children:  # type: ignore[attr-defined]
            walk(child)

    walk(mem.tree("/", all=True))  # the guide under /memory too (decision 0154)
    # and count exactly the visible facts, on the tree and in ls
    counted = 0

    def count(node: object) -> None:
        nonlocal counted
        counted += node.fact_count  # type: ignore[attr-defined]
        for child in node.children:  # type: ignore[attr-defined]
            count(child)

    count(mem.tree("/", all=True))
    assert counted == len(allowed)
    top = {e.path: e.fact_count for e in mem.ls("/", all=True)}
    for path, n in top.items():
        assert n == sum(1 for fid in allowed if admin._store.get_fact(fid).path == path)  # type: ignore[union-attr]
    expected = {"/"}
    for p in allowed_paths:
        parts = p.strip("/").split("/")
        expected |= {"/" + "/".join(parts[:i]) for i in range(1, len(parts) + 1)}
    assert shown == expected
    top_paths = {p for p in expected if p.count("/") == 1 and p != "/"}
    assert {e.path for e in mem.ls("/", all=True)} == top_paths
    assert {e.path for e in mem.ls("/")} == top_paths - {"/memory"}


def _check_exports(mem: Memory, all_ids: set[str], allowed: set[str]) -> None:
    """The event log and the Markdown files a subject exports name exactly the facts it may
    read: their streams, the recalls naming them, the files' blocks."""
    with tempfile.TemporaryDirectory() as out:
        log = Path(out) / "log.ndjson"
        mem.export_events(str(log))
        events = [json.loads(line) for line in log.read_text("utf-8").splitlines()[1:-1]]
        assert {e["stream_id"] for e in events} & all_ids == allowed
        for e in events:
            if e["type"] == "FactsRecalled":
                assert set(e["payload"]["fact_ids"]) <= allowed
            named = {e["payload"].get(k) for k in ("target_id", "source_id")}  # links, merges
            assert named & all_ids <= allowed
        mem.export_markdown(str(Path(out) / "md"), everything=True)
        text = "".join(p.read_text("utf-8") for p in (Path(out) / "md").rglob("*.md"))
        assert {fid for fid in all_ids if fid in text} == allowed
