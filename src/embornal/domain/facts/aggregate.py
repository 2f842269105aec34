"""The fact aggregate: its state folded from its stream, and the rules of its life cycle.

``evolve(state, event)`` folds one event of a fact's stream into its :class:`FactState`;
each ``decide_…(state, command, now)`` returns the events a command makes, or raises the
domain error that forbids it. Both are pure: the service loads the state, decides, and
appends the events with ``expected_version=state.version``, again on a concurrent write.
Here are the core life cycle's (store, supersede, update, forget, restore, purge); those of
the spine and importance (confirm, contradict, evidence, visibility, pin, weight,
lifetime) are in :mod:`embornal.domain.spine.decisions`.

Who may do it (the access rules) is the service's check, not the aggregate's.

Confidence (docs/model.md, The spine) is folded from the stream in log order: the confidence
given at creation, or the prior of the creator's actor kind, then each confirm, contradiction and
piece of evidence with the weight of its actor kind (:mod:`embornal.domain.spine.confidence`).
The actor kind and time come from the envelope: :func:`fold` takes envelopes, and
:func:`evolve` a body with them. No weight is stored, so a retune re-scores the history.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field, replace
from datetime import datetime
from enum import StrEnum

from embornal.domain import paths as P
from embornal.domain.clock import parse_time
from embornal.domain.events import (
    ActorKind,
    DomainEvent,
    Event,
    FactAttributesUpdated,
    FactConfidenceReset,
    FactConfirmed,
    FactContradicted,
    FactEvidenceAdded,
    FactForgotten,
    FactImportanceAdjusted,
    FactLifetimeChanged,
    FactPurged,
    FactRestored,
    FactStored,
    FactVisibilityChanged,
)
from embornal.domain.events.graph import FactLinked, FactMerged, FactUnlinked
from embornal.domain.facts.attributes import check_registered, new_attributes
from embornal.domain.facts.fact import DEFAULT_KIND, check_content
from embornal.domain.facts.tags import OWNER_KEY, Tag, parse_tags
from embornal.domain.history.state import (
    HistoryState,
    check_forget,
    evolve_history,
    is_protocol_event,
)
from embornal.domain.spine import confidence as C
from embornal.domain.spine.justification import (
    DEFAULT_LIFETIME,
    EvidenceRef,
    Lifetime,
    append_evidence,
    as_visibility,
    carried_visibility,
    check_lifetime,
    check_source_label,
    parse_evidence,
    read_lifetime,
    stored_visibility,
)
from embornal.domain.values import value
from embornal.errors import Conflict, InvalidInput
from embornal.hints import Any

__all__ = [
    "FactState",
    "FactStatus",
    "ForgetFact",
    "PurgeFact",
    "RestoreFact",
    "StoreFact",
    "SupersedeFact",
    "UpdateAttributes",
    "decide_forget",
    "decide_purge",
    "decide_restore",
    "decide_store",
    "decide_supersede",
    "decide_update",
    "evolve",
    "fold",
]

TagsArg = Sequence[str] | Mapping[str, str] | None


class FactStatus(StrEnum):
    ACTIVE = "active"
    FORGOTTEN = "forgotten"
    PURGED = "purged"


@value
class FactState:
    """What the rules of a fact need to know: its stream's version and its life cycle.

    ``superseded_by`` is the one part not in the fact's own stream (a successor's
    ``FactStored`` names it): the store fills it in from the successor's stream.
    ``attributes`` are the stored ones (a fact's derived statement is not among them) at
    schema version ``kind_version`` (None: none stored). ``confidence`` is folded in log
    order (see the module), ``last_confirmed_at`` is the time of the last confirm or piece
    of evidence, and ``evidence`` the fact's evidence, append-only (a purge empties it).
    ``visibility`` is its text form, None for shared (decision 0038).
    """

    fact_id: str
    version: int
    path: str
    kind: str
    owner: str
    tags: tuple[Tag, ...]
    supersedes_id: str | None = None
    status: FactStatus = FactStatus.ACTIVE
    superseded_by: str | None = None
    attributes: Mapping[str, Any] = field(default_factory=dict, hash=False)
    kind_version: int | None = None
    confidence: float = 0.95  # the prior of a person, as for a bare body
    last_confirmed_at: datetime | None = None
    evidence: tuple[EvidenceRef, ...] = ()
    visibility: str | None = None
    # Importance and lifetime (docs/model.md, The spine): stored signals, folded from the stream.
    # ``lifetime_since`` is when the lifetime was set (an ephemeral horizon counts from it).
    pinned: bool = False
    user_weight: float | None = None
    lifetime: Lifetime = DEFAULT_LIFETIME
    lifetime_since: datetime | None = None
    # The graph (decisions 0052, 0054; :mod:`embornal.domain.graph.rules`): the typed links
    # this fact emits, as (relation, target id), and the facts merged into it, in order.
    links: frozenset[tuple[str, str]] = frozenset()
    merged: tuple[str, ...] = ()
    # The history protocol (decision 0064): the source label given at creation (the origin the
    # corroboration gate counts from) and the protocol's state (None: an ordinary fact).
    source: str | None = None
    history: HistoryState | None = None

    @property
    def state(self) -> str:
        """``active``, ``superseded``, ``forgotten`` or ``purged`` (as :attr:`Fact.state`)."""
        if self.status is FactStatus.ACTIVE and self.superseded_by is not None:
            return "superseded"
        return self.status.value


def evolve(
    state: FactState | None,
    event: DomainEvent,
    actor_kind: ActorKind | str = ActorKind.PERSON,
    at: datetime | None = None,
) -> FactState:
    """The state after one more event of the fact's stream, made by ``actor_kind`` at
    ``at`` (the envelope's; a bare body counts as a person's, at no known time)."""
    if isinstance(event, FactStored):
        if state is not None:
            raise ValueError(f"fact {state.fact_id} is stored twice")
        return FactState(
            fact_id=event.fact_id,
            version=1,
            path=event.path,
            kind=event.kind,
            owner=event.owner,
            tags=event.tags,
            supersedes_id=event.supersedes_id,
            attributes=dict(event.attributes or {}),
            kind_version=(event.kind_version or 1) if event.attributes else None,
            confidence=(
                C.check_confidence(event.confidence)
                if event.confidence is not None
                else C.prior(actor_kind)
            ),
            evidence=event.evidence,
            visibility=stored_visibility(event.visibility),
            lifetime=read_lifetime(event.lifetime),
            lifetime_since=at,
            source=event.source,
        )
    if state is None:
        raise ValueError(f"{event.TYPE} before the fact was stored")
    step = replace(state, version=state.version + 1)
    if isinstance(event, FactForgotten):
        return replace(step, status=FactStatus.FORGOTTEN)
    if isinstance(event, FactRestored):
        return replace(step, status=FactStatus.ACTIVE)
    if isinstance(event, FactPurged):
        owner_tags = tuple(t for t in state.tags if t.key == OWNER_KEY)
        return replace(step, status=FactStatus.PURGED, tags=owner_tags, attributes={}, evidence=())
    if isinstance(event, FactAttributesUpdated):
        return _updated(step, event)
    if isinstance(event, FactConfirmed | FactContradicted | FactEvidenceAdded):
        return _vouched(step, event, ActorKind(actor_kind), at)
    if isinstance(event, FactConfidenceReset):  # an undo's: the values it names
        return replace(step, confidence=event.confidence, last_confirmed_at=event.last_confirmed_at)
    if isinstance(event, FactVisibilityChanged):
        return replace(step, visibility=stored_visibility(event.visibility))
    if isinstance(event, FactImportanceAdjusted):
        return replace(step, pinned=event.pinned, user_weight=event.user_weight)
    if isinstance(event, FactLifetimeChanged):
        return replace(step, lifetime=read_lifetime(event.lifetime), lifetime_since=at)
    if isinstance(event, FactLinked):  # the graph (embornal.domain.graph.rules)
        return replace(step, links=state.links | {(event.relation, event.target_id)})
    if isinstance(event, FactUnlinked):
        return replace(step, links=state.links - {(event.relation, event.target_id)})
    if isinstance(event, FactMerged):
        return replace(step, merged=(*state.merged, event.source_id))
    if is_protocol_event(event):
        return replace(step, history=evolve_history(state.history, event, at))
    raise ValueError(f"{event.TYPE} is not an event of a fact's stream")


def _updated(state: FactState, event: FactAttributesUpdated) -> FactState:
    if event.changes is None:  # redacted by a purge
        return replace(state, attributes={})
    merged = dict(state.attributes)
    if merged and state.kind_version is not None and state.kind_version < event.kind_version:
        from embornal.domain.kinds.registry import KINDS

        _, merged = KINDS.upcast(state.kind, state.kind_version, merged)
    for name, changed in event.changes.items():
        if changed is None:
            merged.pop(name, None)
        else:
            merged[name] = changed
    return replace(state, attributes=merged, kind_version=event.kind_version if merged else None)


_STEPS = {
    FactConfirmed: C.StepKind.CONFIRM,
    FactContradicted: C.StepKind.CONTRADICT,
    FactEvidenceAdded: C.StepKind.EVIDENCE,
}


def _vouched(
    state: FactState,
    event: FactConfirmed | FactContradicted | FactEvidenceAdded,
    actor_kind: ActorKind,
    at: datetime | None,
) -> FactState:
    """A confirm, contradiction or piece of evidence: the maths of one step; a confirm or
    evidence also dates ``last_confirmed_at`` and (not a contradiction's) adds evidence."""
    step = C.ConfidenceStep(_STEPS[type(event)], actor_kind)
    out = replace(state, confidence=C.fold_confidence(state.confidence, [step]))
    if isinstance(event, FactContradicted):
        return out
    evidence = event.evidence
    return replace(
        out,
        last_confirmed_at=at if at is not None else state.last_confirmed_at,
        evidence=append_evidence(state.evidence, evidence) if evidence else state.evidence,
    )


def fold(events: Iterable[DomainEvent | Event]) -> FactState | None:
    """The state of a fact from its whole stream (None: an empty stream): envelopes, or
    bare bodies (each a person's, at no known time)."""
    state: FactState | None = None
    for event in events:
        if isinstance(event, Event):
            state = evolve(state, event.body, event.actor_kind, event.recorded_at)
        else:
            state = evolve(state, event)
    return state


# -- commands --------------------------------------------------------------------------


@value
class StoreFact:
    """A new fact. ``fact_id`` is chosen by the caller (ids carry randomness); ``at`` dates
    it (imports), defaulting to ``now``."""

    fact_id: str
    path: str
    content: object
    owner: str
    tags: TagsArg = None
    kind: object = DEFAULT_KIND
    at: datetime | str | None = None
    attributes: Mapping[str, object] | None = None
    confidence: object = None  # None: the prior of the actor kind
    # Who may see it (a Visibility or its text; None: shared), a source label, and
    # evidence given with it (EvidenceRef values or ``type:value`` text).
    visibility: object = None
    source: object = None
    evidence: Sequence[object] = ()
    lifetime: object = None  # None: standard; a Lifetime or its text (until:YYYY-MM-DD)


@value
class SupersedeFact:
    """A correction: a new fact on the old one's path. ``tags`` None keeps the old fact's
    own tags (but its owner's, which is the new owner's).

    ``kind`` None keeps the old fact's kind, and then ``attributes`` None keeps its stored
    attributes (a derived statement is derived again, from the new content). Another kind
    is how a misclassified fact is corrected: the new fact is a new memory with its own
    kind (each fact's kind never changes), so it needs its own attributes.
    """

    new_id: str
    content: object
    owner: str
    tags: TagsArg = None
    at: datetime | str | None = None
    kind: object = None
    attributes: Mapping[str, object] | None = None


@value
class UpdateAttributes:
    """A sparse change of the attributes: ``changes`` over the current ones, None removing
    an optional field (``KindRegistry.update``)."""

    fact_id: str
    changes: Mapping[str, object]


@value
class ForgetFact:
    """Forget the fact: it leaves recall and can be restored."""

    fact_id: str


@value
class RestoreFact:
    """Restore a forgotten fact."""

    fact_id: str


@value
class PurgeFact:
    """Purge the fact: its text is erased from the memory and its events."""

    fact_id: str


# -- decisions ---------------------------------------------------------------------------


def _stored(cmd: StoreFact, now: datetime, *, supersedes: str | None = None) -> list[FactStored]:
    path = P.normalize_path(cmd.path)
    if path == P.ROOT:
        raise InvalidInput(
            "the root / holds no facts", hint="Store the fact on a topic path such as /notes."
        )
    content = check_content(cmd.content)
    tags = parse_tags(cmd.tags)
    typed = new_attributes(cmd.kind, cmd.attributes, content)
    given = None if cmd.confidence is None else C.check_confidence(cmd.confidence)
    lifetime = None if cmd.lifetime is None else check_lifetime(cmd.lifetime, now=now)
    created = parse_time(cmd.at) if cmd.at is not None else now
    visibility = None if cmd.visibility is None else as_visibility(cmd.visibility)
    source = None if cmd.source is None else check_source_label(cmd.source)
    if isinstance(cmd.evidence, str | bytes):
        raise InvalidInput("evidence is a list of TYPE:VALUE texts")
    evidence = [parse_evidence(e) for e in cmd.evidence]
    return [
        FactStored(
            fact_id=cmd.fact_id,
            path=path,
            content=content,
            owner=cmd.owner,
            created_at=created,
            tags=tuple(sorted([Tag(OWNER_KEY, cmd.owner), *tags])),
            kind=typed.kind,
            supersedes_id=supersedes,
            attributes=typed.attributes or None,
            kind_version=typed.kind_version,
            confidence=given,
            source=source,
            visibility=stored_visibility(None if visibility is None else str(visibility)),
            evidence_types=tuple(e.type.value for e in evidence) or None,
            evidence_values=tuple(e.value for e in evidence) or None,
            evidence_notes=tuple(e.note or "" for e in evidence)
            if any(e.note for e in evidence)
            else None,
            lifetime=None if lifetime is None or lifetime == DEFAULT_LIFETIME else str(lifetime),
        )
    ]


def decide_store(command: StoreFact, now: datetime) -> list[FactStored]:
    """``[FactStored]`` for a valid new fact (``InvalidInput`` otherwise)."""
    return _stored(command, now)


def decide_supersede(state: FactState, command: SupersedeFact, now: datetime) -> list[FactStored]:
    """``[FactStored]`` of the successor (its stream is new); only an active fact that no
    live fact supersedes yet can be superseded."""
    tags = command.tags
    if tags is None:
        tags = [str(t) for t in state.tags if t.key != OWNER_KEY]
    kind, attributes = command.kind, command.attributes
    if kind is None:
        kind = state.kind
        if attributes is None:
            attributes = _carried(state)
    new = StoreFact(
        command.new_id,
        state.path,
        command.content,
        command.owner,
        tags,
        kind,
        command.at,
        attributes,
        visibility=carried_visibility(state.visibility, state.owner, command.owner),
    )
    events = _stored(new, now, supersedes=state.fact_id)
    if state.state != "active":
        raise Conflict(
            f"fact {state.fact_id} is {state.state}; only an active fact can be superseded",
            hint="Supersede the newest fact of the chain (see `embornal memory show`).",
        )
    return events


def _carried(state: FactState) -> Mapping[str, object] | None:
    """The stored attributes a same-kind successor keeps (None: a kind with none here)."""
    if not state.attributes:
        return None
    from embornal.domain.kinds.registry import KINDS

    if state.kind not in KINDS:
        return None
    return KINDS.upcast(state.kind, state.kind_version or 1, state.attributes)[1]


def decide_update(
    state: FactState, command: UpdateAttributes, now: datetime
) -> list[FactAttributesUpdated]:
    """``[FactAttributesUpdated]`` with the canonical value of each changed field, once
    the merged attributes validate whole; ``[]`` when nothing would change. Only an
    active fact of a registered kind (``InvalidKind``) is updated."""
    _check_target(state, command)
    from embornal.domain.kinds.registry import KINDS

    kind = check_registered(state.kind, state.fact_id)
    current = dict(state.attributes)
    if current:
        current = KINDS.upcast(kind, state.kind_version or 1, current)[1]
    if state.state != "active":
        raise Conflict(
            f"fact {state.fact_id} is {state.state}; only an active fact's attributes change",
            hint="Update the newest fact of the chain (see `embornal memory show`).",
        )
    merged = KINDS.update(kind, current, command.changes)
    entry = KINDS.entry(kind)
    names = [entry.spec(name).name for name in command.changes]
    changes = {n: merged.get(n) for n in names if merged.get(n) != current.get(n)}
    if not changes:
        return []
    return [FactAttributesUpdated(state.fact_id, changes, KINDS.version(kind))]


_Targeted = ForgetFact | RestoreFact | PurgeFact | UpdateAttributes


def _check_target(state: FactState, command: _Targeted) -> None:
    if command.fact_id != state.fact_id:
        raise ValueError(f"a command for fact {command.fact_id} met the state of {state.fact_id}")


def decide_forget(state: FactState, command: ForgetFact, now: datetime) -> list[DomainEvent]:
    """``[FactForgotten]``, unless the fact is forgotten (or purged) already."""
    _check_target(state, command)
    if state.status is not FactStatus.ACTIVE:
        raise Conflict(
            f"fact {state.fact_id} is already forgotten",
            hint="Use `embornal memory restore` to bring it back.",
        )
    check_forget(state)  # an anchor is unpinned first (docs/model.md, Lifecycle)
    return [FactForgotten(fact_id=state.fact_id)]


def decide_restore(state: FactState, command: RestoreFact, now: datetime) -> list[DomainEvent]:
    """``[FactRestored]`` for a forgotten fact; a purged one is gone for good."""
    _check_target(state, command)
    if state.status is FactStatus.PURGED:
        raise Conflict(f"fact {state.fact_id} was purged; its content is gone for good")
    if state.status is not FactStatus.FORGOTTEN:
        raise Conflict(f"fact {state.fact_id} is not forgotten", hint="Nothing to restore.")
    return [FactRestored(fact_id=state.fact_id)]


def decide_purge(state: FactState, command: PurgeFact, now: datetime) -> list[DomainEvent]:
    """``[FactPurged]``, unless it is purged already (any other state may be purged)."""
    _check_target(state, command)
    if state.status is FactStatus.PURGED:
        raise Conflict(f"fact {state.fact_id} is already purged")
    return [FactPurged(fact_id=state.fact_id)]
