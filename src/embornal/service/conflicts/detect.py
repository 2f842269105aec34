"""Finding conflicts (decisions 0058, 0060): at store, at a contradiction, and by a scan.

At store, a fact of a detected kind (person, organization, location, asset, preference)
is compared with the live facts that share one of its keys (one indexed lookup in
``entity_keys``, in the store's own transaction); each pair that matches opens a
conflict in that transaction; when a model embeds what a store writes (batches of up to
100 facts), each new fact of another kind is compared by meaning with its nearest live
facts. A contradiction that names the contradicting fact and takes
the fact's confidence below the review threshold opens one too (the pair). A scan
(:mod:`embornal.service.conflicts.queue`) runs the same comparisons over every key group, and
adds near-duplicate texts and stale facts. Detection reads every fact (the conflict is
shown only to a subject who may read all of its members), and never decides anything:
for two preferences of one context it also opens a proposal that the newest supersedes
the older (decision 0072), which waits for a person as every proposal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from embornal.domain.conflicts.aggregate import ConflictClass, OpenConflict, decide_open, stream_of
from embornal.domain.conflicts.resolution import (
    DETECTED_KINDS,
    VECTOR_THRESHOLD,
    EntityProfile,
    compare,
    keys_of,
    preference_clash,
    profile_of,
)
from embornal.domain.events import Event, FactContradicted
from embornal.domain.facts.fact import Fact
from embornal.domain.ids import new_id
from embornal.domain.proposals.aggregate import OpenProposal
from embornal.domain.proposals.aggregate import decide_open as decide_proposal
from embornal.domain.proposals.aggregate import stream_of as proposal_stream
from embornal.service.context import ServiceContext
from embornal.storage.contract.store import Tx

__all__ = [
    "CANDIDATE_LIMIT",
    "PROPOSAL_SOURCE",
    "SUPERSEDING",
    "candidates",
    "judge",
    "on_contradict",
    "on_store",
    "on_store_vectors",
    "open_all",
]

#: How many facts sharing a key a store compares a new fact with, at most.
CANDIDATE_LIMIT = 50
#: The finding of two preferences of one context: a proposal opens with the conflict.
SUPERSEDING = "newest proposed as superseding"
#: The source label of the proposals a detection opens.
PROPOSAL_SOURCE = "conflict"


def _profile(fact: Fact) -> EntityProfile | None:
    return profile_of(fact.id, fact.kind, fact.attributes)


def judge(a: Fact, b: Fact) -> OpenConflict | None:
    """The conflict between two live facts of one kind, if their attributes make one;
    ``a`` is the newer of the two when both were created at the same time (a store's)."""
    if a.kind != b.kind or a.id == b.id:
        return None
    older, newer = (b, a) if a.created_at >= b.created_at else (a, b)
    members = (older.id, newer.id)
    if a.kind == "preference":
        if not preference_clash(a.attributes, b.attributes):
            return None
        findings = ("same context", "opposed polarity", SUPERSEDING)
        return OpenConflict(ConflictClass.CONTRADICTION, members, findings, 1.0, "", "", newer.id)
    pa, pb = _profile(older), _profile(newer)
    if pa is None or pb is None:
        return None
    match = compare(pa, pb)
    if match is None:
        return None
    if match.names_agree:
        return OpenConflict(
            ConflictClass.DUPLICATE, members, match.findings, match.score, "", "", older.id
        )
    return OpenConflict(ConflictClass.CONTRADICTION, members, match.findings, match.score, "")


def candidates(ctx: ServiceContext, fact: Fact) -> list[OpenConflict]:
    """The conflicts ``fact`` (as read in full, every attribute) makes with live facts
    that share one of its keys; nothing for a kind that is not detected."""
    if fact.kind not in DETECTED_KINDS or not fact.attributes:
        return []
    keys = sorted(keys_of(fact.id, fact.kind, fact.attributes))
    if not keys:
        return []
    ids = ctx.store.conflicts.entity_matches(keys, exclude=fact.id, limit=CANDIDATE_LIMIT)
    out = []
    for other in ctx.store.get_facts(ids):
        found = judge(fact, other)
        if found is not None:
            out.append(found)
    out.sort(key=lambda c: -c.score)
    return out


def open_all(
    ctx: ServiceContext, tx: Tx, found: Iterable[OpenConflict], detected_by: str
) -> list[Event]:
    """In ``tx``: open each conflict not opened before (its id names it)."""
    events = []
    for command in found:
        command = OpenConflict(
            command.conflict_class,
            command.members,
            command.findings,
            command.score,
            detected_by,
            command.trigger,
            command.suggested_keep,
        )
        bodies = decide_open(None, command)
        stream = stream_of(bodies[0].conflict_id)  # type: ignore[attr-defined]
        if ctx.store.read_stream(stream):
            continue  # opened before (by a store, a scan or a contradiction)
        events.extend(ctx.store.append(tx, [ctx.event(stream, bodies[0], None, 0)]))
        if SUPERSEDING in command.findings:
            cid = bodies[0].conflict_id  # type: ignore[attr-defined]
            events.extend(_propose_superseding(ctx, tx, cid, *command.members[:2]))
    return events


def _propose_superseding(
    ctx: ServiceContext, tx: Tx, conflict_id: str, older: str, newer: str
) -> list[Event]:
    """In ``tx``: the proposal that the newer of two preferences of one context
    supersedes the older (docs/model.md, Conflicts): a ``supersedes`` link from the newer and the
    older archived, for a person to approve; the conflict stays open until resolved.
    Opened only when the subject may read both (else it would name a hidden fact)."""
    if len(ctx.store.get_facts([older, newer], ctx.scope())) != 2:
        return []
    why = f"conflict {conflict_id}: same context, opposed polarity; the newest supersedes"
    items = [
        {"type": "link", "source": newer, "relation": "supersedes", "target": older, "reason": why},
        {"type": "archive", "fact_id": older, "reason": why},
    ]
    pid = new_id(ctx.now())
    title = f"conflict {conflict_id}: the newest preference supersedes the older"
    opened = decide_proposal(OpenProposal(pid, items, title, PROPOSAL_SOURCE), lambda: pid)
    return ctx.store.append(tx, [ctx.event(proposal_stream(pid), opened[0], why, 0)])


def on_store(ctx: ServiceContext, tx: Tx, fact_ids: Sequence[str]) -> list[Event]:
    """In the store's ``tx``: the conflicts the new facts make (decision 0060)."""
    found = []
    for fact in ctx.store.get_facts(list(fact_ids)):
        found.extend(candidates(ctx, fact))
    return open_all(ctx, tx, found, "store") if found else []


def on_store_vectors(
    ctx: ServiceContext, tx: Tx, items: Sequence[tuple[str, str, bytes]]
) -> list[Event]:
    """In the store's ``tx``, when a model embedded the new facts (``(id, kind, vector)``):
    each one's nearest live facts of its kind at :data:`VECTOR_THRESHOLD` or more are
    near-duplicates by meaning (the older one suggested)."""
    found = []
    for fact_id, kind, vector in items:
        for other, sim in ctx.store.vector_search(vector, 3):
            if other.id == fact_id or other.kind != kind or sim < VECTOR_THRESHOLD:
                continue
            findings = ("near-duplicate text (meaning)",)
            made = OpenConflict(
                ConflictClass.DUPLICATE, (other.id, fact_id), findings, sim, "", "", other.id
            )
            found.append(made)
    return open_all(ctx, tx, found, "store") if found else []


def on_contradict(ctx: ServiceContext, tx: Tx, events: Sequence[Event]) -> list[Event]:
    """In the contradiction's ``tx``: once the fact's confidence is below the review
    threshold, the pair (the fact and the fact that contradicts it) enters the queue
    (docs/model.md, The spine); a contradiction that names no other fact opens none."""
    from embornal.domain.spine.confidence import needs_review

    found = []
    for event in events:
        body = event.body
        if not isinstance(body, FactContradicted) or body.by_id is None:
            continue
        fact = ctx.store.get_fact(body.fact_id)
        if fact is None or fact.confidence is None or not needs_review(fact.confidence):
            continue
        findings = ("contradicted by the other", "confidence below the review threshold")
        found.append(
            OpenConflict(
                ConflictClass.CONTRADICTION,
                (body.fact_id, body.by_id),
                findings,
                round(1.0 - fact.confidence, 3),
                "",
                str(event.position),
            )
        )
    return open_all(ctx, tx, found, "contradict") if found else []
