"""Typed links between facts (decision 0052) and merges (decision 0054): the rules.

The vocabulary is closed (:class:`Relation`), each relation stored in its canonical
direction only; the inverse names (``subject_of`` for ``about``…) are query names, so
``links --relation subject_of`` reads the ``about`` links pointing at a fact. A symmetric
relation (``relates_to``, ``contradicts``) is stored once, from the smaller id.

Which relations a fact may emit depends on its kind (:data:`EMITS`, checked when a link is
decided), and a few relations say which kinds they point at (:data:`TARGETS`). No
self-links; a duplicate (source, relation, target) is a :class:`Conflict`.

Pure: the decide functions take the states the service loaded (decision 0052).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from embornal.domain.events import DomainEvent, FactEvidenceAdded, FactForgotten
from embornal.domain.events.graph import FactLinked, FactMerged, FactUnlinked
from embornal.domain.graph.relations import INVERSE, Relation
from embornal.domain.spine.justification import EvidenceRef
from embornal.domain.values import value
from embornal.errors import Conflict, InvalidLink, InvalidMerge, NotFound

if TYPE_CHECKING:
    from embornal.domain.facts.aggregate import FactState

__all__ = [
    "DIRECTIONS",
    "EMITS",
    "INVERSE",
    "SYMMETRIC",
    "TARGETS",
    "Direction",
    "LinkFacts",
    "MergeDecision",
    "MergeFacts",
    "Relation",
    "RelationQuery",
    "UnlinkFacts",
    "canonical",
    "decide_link",
    "decide_merge",
    "decide_unlink",
    "parse_relation",
    "query_relation",
]


_BY_INVERSE = {name: rel for rel, name in INVERSE.items()}
SYMMETRIC: frozenset[Relation] = frozenset({Relation.RELATES_TO, Relation.CONTRADICTS})

_ANY: frozenset[Relation] = frozenset(
    {
        Relation.ABOUT,
        Relation.LOCATED_IN,
        Relation.RELATES_TO,
        Relation.SUPERSEDES,
        Relation.DERIVED_FROM,
        Relation.CONTRADICTS,
    }
)
#: The relations each kind may emit beyond those every fact may (:data:`_ANY`); a kind not
#: named here (``fact``, ``preference``… and an unregistered one) emits only those.
_EXTRA: Mapping[str, frozenset[Relation]] = {
    "project": frozenset({Relation.INVOLVES, Relation.PART_OF}),
    "event": frozenset({Relation.INVOLVES}),
    "goal": frozenset({Relation.INVOLVES, Relation.PART_OF}),
    "location": frozenset({Relation.PART_OF}),
    "organization": frozenset({Relation.PART_OF}),
    "person": frozenset({Relation.WORKS_AT}),
    "contact": frozenset({Relation.OWNED_BY}),
    "asset": frozenset({Relation.OWNED_BY}),
}
EMITS: Mapping[str, frozenset[Relation]] = {k: _ANY | v for k, v in _EXTRA.items()}
#: The kinds a relation may point at (``same``: the source's own kind); others: any.
TARGETS: Mapping[Relation, frozenset[str] | Literal["same"]] = {
    Relation.INVOLVES: frozenset({"person", "organization"}),
    Relation.OWNED_BY: frozenset({"person", "organization"}),
    Relation.WORKS_AT: frozenset({"organization"}),
    Relation.LOCATED_IN: frozenset({"location"}),
    Relation.PART_OF: "same",
}

Direction = Literal["out", "in", "both"]
DIRECTIONS: tuple[Direction, ...] = ("out", "in", "both")
_NAMES = ", ".join(r.value for r in Relation)


def _a(noun: str) -> str:
    """``noun`` with its indefinite article: "an organization", "a person"."""
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def emits(kind: str) -> frozenset[Relation]:
    """The relations a fact of ``kind`` may emit."""
    return EMITS.get(kind, _ANY)


def parse_relation(text: object) -> Relation:
    """A relation of the vocabulary in its canonical name (an inverse name is refused, with
    the link to make instead)."""
    name = text.strip().lower().replace("-", "_") if isinstance(text, str) else None
    if name in _BY_INVERSE:
        rel = _BY_INVERSE[name]
        raise InvalidLink(
            f"{name} is the query name of {rel.value}: links are made in their canonical "
            "direction only",
            hint=f"Swap the two ids: `embornal memory link TARGET {rel.value} SOURCE`.",
        )
    try:
        return Relation(name or "")
    except ValueError:
        raise InvalidLink(f"unknown relation {text!r}; the relations are {_NAMES}") from None


@value
class RelationQuery:
    """What a traversal follows: the canonical relation (None: every one) and the
    direction read from each fact."""

    relation: Relation | None
    direction: Direction


def query_relation(relation: object, direction: object) -> RelationQuery:
    """The relation and direction of a query: an inverse name is its relation read the
    other way (``subject_of`` out = ``about`` in)."""
    if direction not in DIRECTIONS:
        raise InvalidLink(f"direction must be one of in, out, both, not {direction!r}")
    assert isinstance(direction, str)
    dir_: Direction = direction  # checked just above
    if relation is None:
        return RelationQuery(None, dir_)
    name = relation.strip().lower().replace("-", "_") if isinstance(relation, str) else ""
    if name in _BY_INVERSE:
        flipped: Direction = {"out": "in", "in": "out"}.get(dir_, "both")  # type: ignore[assignment]
        return RelationQuery(_BY_INVERSE[name], flipped)
    try:
        return RelationQuery(Relation(name), dir_)
    except ValueError:
        inverses = ", ".join(INVERSE.values())
        raise InvalidLink(
            f"unknown relation {relation!r}; the relations are {_NAMES} (or, read "
            f"backwards, {inverses})"
        ) from None


def canonical(source_id: str, relation: Relation, target_id: str) -> tuple[str, str]:
    """``(source, target)`` as stored: a symmetric relation from the smaller id."""
    if relation in SYMMETRIC and target_id < source_id:
        return target_id, source_id
    return source_id, target_id


# -- commands ----------------------------------------------------------------------------


@value
class LinkFacts:
    """``fact_id —relation→ target_id``, ids as stored (:func:`canonical` applied)."""

    fact_id: str
    relation: Relation
    target_id: str


@value
class UnlinkFacts:
    """Remove the typed link ``relation`` from one fact to another."""

    fact_id: str
    relation: Relation
    target_id: str


def _check_live(state: FactState, what: str) -> None:
    if state.state == "active":
        return
    hint = (
        f"Restore it first: `embornal memory restore {state.fact_id} --reason …`."
        if state.state == "forgotten"
        else "Use the newest fact of the chain (see `embornal memory show`)."
    )
    raise Conflict(f"fact {state.fact_id} is {state.state}; only an active fact {what}", hint=hint)


def decide_link(
    state: FactState, command: LinkFacts, now: datetime, target: FactState | None
) -> list[DomainEvent]:
    """``[FactLinked]``: no self-link, a relation the source's kind emits, pointing at a kind
    the relation takes, between active facts, not there already."""
    if command.fact_id != state.fact_id:
        raise ValueError(f"a link from {command.fact_id} met the state of {state.fact_id}")
    rel = command.relation
    if command.target_id == state.fact_id:
        raise InvalidLink(f"fact {state.fact_id} cannot be linked to itself")
    if target is None or target.fact_id != command.target_id:
        raise NotFound(f"no fact with id {command.target_id}")
    if rel not in emits(state.kind):  # a symmetric relation: every kind emits it
        allowed = ", ".join(sorted(r.value for r in emits(state.kind)))
        raise InvalidLink(
            f"a {state.kind} may not emit {rel.value}; its relations are {allowed}",
            hint=f"Link from the other end, or use one of: {allowed}.",
        )
    wanted = TARGETS.get(rel)
    kinds = frozenset({state.kind}) if wanted == "same" else wanted
    if kinds is not None and target.kind not in kinds:
        names = " or ".join(sorted(kinds))
        raise InvalidLink(
            f"{rel.value} points at {_a(names)}, and {target.fact_id} is {_a(target.kind)}"
        )
    _check_live(state, "is linked")
    _check_live(target, "is linked to")
    if (rel.value, command.target_id) in state.links:
        raise Conflict(
            f"{state.fact_id} {rel.value} {command.target_id} exists already",
            hint=f"See `embornal memory links {state.fact_id}`.",
        )
    return [FactLinked(state.fact_id, rel.value, command.target_id)]


def decide_unlink(state: FactState, command: UnlinkFacts, now: datetime) -> list[DomainEvent]:
    """``[FactUnlinked]`` of a link the fact has (the target may be gone: a dangling link
    can always be taken off)."""
    if (command.relation.value, command.target_id) not in state.links:
        raise NotFound(
            f"no link {state.fact_id} {command.relation.value} {command.target_id}",
            hint=f"See `embornal memory links {state.fact_id}`.",
        )
    return [FactUnlinked(state.fact_id, command.relation.value, command.target_id)]


@value
class MergeFacts:
    """Merge the fact ``source_id`` into ``survivor_id``."""

    survivor_id: str
    source_id: str


@value
class MergeDecision:
    """The events of a merge, by stream: the survivor's (attributes, evidence, the merge,
    the ``supersedes`` link) and the source's (its forget)."""

    survivor: list[DomainEvent]
    source: list[DomainEvent]


_NAME_FIELDS = ("full_name", "name")


def _absorbed_aliases(survivor: FactState, source: FactState) -> list[str] | None:
    """The survivor's aliases with the source's (and the source's name) joined, in order;
    None: nothing new, or a kind without aliases."""
    mine = survivor.attributes.get("aliases")
    if mine is None and "aliases" not in source.attributes:
        from embornal.domain.kinds.registry import KINDS

        if survivor.kind not in KINDS or "aliases" not in KINDS.entry(survivor.kind).field_names:
            return None
    have = [str(a) for a in (mine or ())]
    seen = {a.casefold() for a in have}
    own_names = {str(survivor.attributes.get(f, "")).casefold() for f in _NAME_FIELDS}
    extra = [str(a) for a in source.attributes.get("aliases") or ()]
    extra += [str(source.attributes[f]) for f in _NAME_FIELDS if source.attributes.get(f)]
    out = list(have)
    for alias in extra:
        key = alias.casefold()
        if key not in seen and key not in own_names:
            seen.add(key)
            out.append(alias)
    return out if out != have else None


def decide_merge(
    survivor: FactState, source: FactState, command: MergeFacts, now: datetime
) -> MergeDecision:
    """A merge of ``source`` into ``survivor`` (decision 0054): the same kind, two active
    facts, not one into itself. The survivor absorbs the aliases (union, the source's name
    among them) and each piece of the source's evidence it lacks; the source is forgotten
    and the survivor ``supersedes`` it."""
    if command.survivor_id == command.source_id or survivor.fact_id == source.fact_id:
        raise InvalidMerge(f"fact {survivor.fact_id} cannot be merged into itself")
    if survivor.kind != source.kind:
        raise InvalidMerge(
            f"fact {source.fact_id} is {_a(source.kind)} and {survivor.fact_id} "
            f"{_a(survivor.kind)}: only facts of one kind merge",
            hint="Link them instead: `embornal memory link SOURCE relates_to TARGET`.",
        )
    _check_live(survivor, "absorbs a merge")
    _check_live(source, "is merged")
    events: list[DomainEvent] = []
    aliases = _absorbed_aliases(survivor, source)
    if aliases is not None:
        from embornal.domain.facts.aggregate import UpdateAttributes, decide_update

        events += decide_update(
            survivor, UpdateAttributes(survivor.fact_id, {"aliases": aliases}), now
        )
    have: set[EvidenceRef] = set(survivor.evidence)
    for ev in source.evidence:
        if ev not in have:
            have.add(ev)
            events.append(FactEvidenceAdded(survivor.fact_id, ev.type.value, ev.value, ev.note))
    events.append(FactMerged(survivor.fact_id, source.fact_id))
    if (Relation.SUPERSEDES.value, source.fact_id) not in survivor.links:
        events.append(FactLinked(survivor.fact_id, Relation.SUPERSEDES.value, source.fact_id))
    return MergeDecision(events, [FactForgotten(source.fact_id)])
