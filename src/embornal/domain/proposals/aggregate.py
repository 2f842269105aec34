"""The proposal aggregate: draft items a person (or a configured policy) approves or
rejects (docs/model.md, Proposals; decision 0055).

A proposal's stream is ``proposal:<id>``. Its items are drafts: nothing of them is in
any projection, nor recallable, until an approval applies them. Each item has a type
from :data:`ITEM_TYPES` (create, update, archive, supersede, link, merge); a type is one
:class:`ItemType` — how to check a raw item, the facts it names (its roles:
one for an update, two for a link or a merge), and the fact events it makes — so another
joins by registering one. A fact field may be ``#N``: the fact an earlier create (or
supersede) item N of the same proposal makes, bound to that item's ``new_id`` when the
proposal is opened or edited (decision 0071).

Everything here is pure: the service loads the proposal's and the targets' states,
decides, and appends the approval with every fact event it applies in one transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import field, replace
from datetime import datetime
from enum import StrEnum
from functools import reduce
from typing import Any

from embornal.domain.bounds import MAX_PROPOSAL_ITEMS
from embornal.domain.events import DomainEvent, Event
from embornal.domain.events.proposals import (
    ProposalApproved,
    ProposalEdited,
    ProposalOpened,
    ProposalRejected,
)
from embornal.domain.facts.aggregate import (
    FactState,
    ForgetFact,
    StoreFact,
    SupersedeFact,
    UpdateAttributes,
    decide_forget,
    decide_store,
    decide_supersede,
    decide_update,
)
from embornal.domain.graph.rules import (
    LinkFacts,
    MergeFacts,
    Relation,
    canonical,
    decide_link,
    decide_merge,
    parse_relation,
)
from embornal.domain.ids import normalize_prefix
from embornal.domain.values import value
from embornal.errors import Conflict, InvalidInput, InvalidLink, InvalidMerge, ProposalChanged

__all__ = [
    "ITEM_TYPES",
    "MAX_ITEMS",
    "REF_PREFIX",
    "STREAM_PREFIX",
    "Applied",
    "ApproveProposal",
    "EditProposal",
    "ItemType",
    "OpenProposal",
    "ProposalState",
    "ProposalStatus",
    "Role",
    "apply_item",
    "check_item",
    "decide_approve",
    "decide_edit",
    "decide_open",
    "decide_reject",
    "evolve",
    "facts_of",
    "fold",
    "new_fact_of",
    "register_item_type",
    "roles_of",
    "stream_of",
    "target_of",
]

STREAM_PREFIX = "proposal:"
MAX_ITEMS = MAX_PROPOSAL_ITEMS
"""The most items one proposal holds (a prune pass proposes at most this many)."""

_TEXT_KEYS = ("content", "reason", "path", "source", "lifetime", "visibility")


def stream_of(proposal_id: str) -> str:
    return STREAM_PREFIX + proposal_id


class ProposalStatus(StrEnum):
    OPEN = "open"
    APPROVED = "approved"
    REJECTED = "rejected"


@value
class ProposalState:
    """A proposal folded from its stream: its items by number, who opened it, and how it
    ended (``decided_by``: the approver or the rejecter; ``applied``: the items approved)."""

    proposal_id: str
    version: int
    items: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, hash=False)
    title: str | None = None
    source: str | None = None
    proposer: str | None = None
    opened_at: datetime | None = None
    status: ProposalStatus = ProposalStatus.OPEN
    decided_by: str | None = None
    decided_at: datetime | None = None
    reason: str | None = None
    applied: tuple[str, ...] = ()

    def targets(self) -> list[str]:
        """The stored facts the items name, in item order (not those its items create)."""
        made = {m for i in self.items.values() if (m := new_fact_of(i)) is not None}
        out: list[str] = []
        for n in _ordered(self.items):
            out += [t for t in facts_of(self.items[n]) if t not in made and t not in out]
        return out


def _ordered(items: Iterable[str]) -> list[str]:
    return sorted(items, key=int)


def evolve(state: ProposalState | None, event: Event) -> ProposalState:
    """The state after one more event of the proposal's stream."""
    body = event.body
    if isinstance(body, ProposalOpened):
        if state is not None:
            raise ValueError(f"proposal {state.proposal_id} is opened twice")
        return ProposalState(
            proposal_id=body.proposal_id,
            version=event.version,
            items={k: dict(v) for k, v in (body.items or {}).items()},
            title=body.title,
            source=body.source,
            proposer=event.actor,
            opened_at=event.recorded_at,
        )
    if state is None:
        raise ValueError(f"{event.type} before the proposal was opened")
    step = replace(state, version=event.version)
    if isinstance(body, ProposalEdited):
        items = {k: v for k, v in state.items.items() if k not in body.dropped}
        items.update({k: dict(v) for k, v in (body.items or {}).items()})
        return replace(step, items=items)
    if isinstance(body, ProposalApproved):
        return replace(
            step,
            status=ProposalStatus.APPROVED,
            decided_by=body.approver,
            decided_at=event.recorded_at,
            reason=event.reason,
            applied=body.items,
        )
    if isinstance(body, ProposalRejected):
        return replace(
            step,
            status=ProposalStatus.REJECTED,
            decided_by=event.actor,
            decided_at=event.recorded_at,
            reason=event.reason,
        )
    raise ValueError(f"{event.type} is not an event of a proposal's stream")


def fold(events: Iterable[Event]) -> ProposalState | None:
    return reduce(evolve, events, None)


# -- item types --------------------------------------------------------------------------


@value
class Applied:
    """What applying one item does: events by stream (the target's, or a new fact's)."""

    events: tuple[tuple[str, DomainEvent], ...]


@value
class Role:
    """A fact an item names: the item's key holding its id, what the approver needs on it
    (``write``, ``rewrite``, ``delete``; none: read), and whether the item changes it (a
    fact is changed by one item of a proposal at most; a link only reads its ends)."""

    key: str
    actions: tuple[str, ...] = ()
    changes: bool = True


Check = Callable[[Mapping[str, Any], Callable[[], str]], dict[str, Any]]
Apply = Callable[[Mapping[str, Any], Sequence[FactState], str, datetime], Applied]


@value
class ItemType:
    """One type of item. ``check`` turns a raw item into its canonical form (a new fact's
    id chosen with the id maker it gets) or raises :class:`InvalidInput`; ``roles`` the
    facts it names (each loaded, readable by the subject, and given to ``apply`` in this
    order); ``apply`` gives the fact events for those states, made by ``owner`` at
    ``now``, or raises the domain error that forbids it."""

    name: str
    check: Check
    apply: Apply
    roles: tuple[Role, ...] = ()


ITEM_TYPES: dict[str, ItemType] = {}
REF_PREFIX = "#"
"""``#N`` in a fact field of an item: the fact item N of the same proposal creates."""


def register_item_type(item_type: ItemType) -> None:
    if item_type.name in ITEM_TYPES:
        raise TypeError(f"item type {item_type.name!r} is registered twice")
    ITEM_TYPES[item_type.name] = item_type


def _type_of(raw: Mapping[str, Any]) -> ItemType:
    name = raw.get("type") if isinstance(raw, Mapping) else None
    found = ITEM_TYPES.get(name) if isinstance(name, str) else None
    if found is None:
        raise InvalidInput(
            f"an item's type must be one of {', '.join(ITEM_TYPES)}, not {name!r}",
            hint='Give each item as {"type": "create", "path": "/notes", "content": "..."}.',
        )
    return found


def facts_of(item: Mapping[str, Any]) -> tuple[str, ...]:
    """The ids of the facts an item names, in its type's role order."""
    return tuple(str(item[r.key]) for r in ITEM_TYPES[item["type"]].roles)


def roles_of(item: Mapping[str, Any]) -> tuple[Role, ...]:
    return ITEM_TYPES[item["type"]].roles


def target_of(item: Mapping[str, Any]) -> str | None:
    """The first fact an item names (None: a create)."""
    named = facts_of(item)
    return named[0] if named else None


def new_fact_of(item: Mapping[str, Any]) -> str | None:
    """The id of the fact an item creates (a create's, a supersede's successor)."""
    value = item.get("new_id")
    return value if isinstance(value, str) else None


def _allowed(raw: Mapping[str, Any], keys: Sequence[str], required: Sequence[str]) -> None:
    kind = raw["type"]
    unknown = sorted(set(raw) - {"type", *keys})
    if unknown:
        raise InvalidInput(
            f"a {kind} item takes {', '.join(keys)}; not {unknown[0]!r}",
            hint="See `embornal proposal --help` for the shape of each item.",
        )
    for k in required:
        if raw.get(k) in (None, ""):
            raise InvalidInput(f"a {kind} item needs {k!r}")
    for k in _TEXT_KEYS:
        if k in raw and raw[k] is not None and not isinstance(raw[k], str):
            raise InvalidInput(f"{k!r} of a {kind} item must be text")
    for k in ("attributes", "score"):
        if k in raw and raw[k] is not None and not isinstance(raw[k], Mapping):
            raise InvalidInput(f"{k!r} of a {kind} item must be an object")


def _target(raw: Mapping[str, Any], key: str = "fact_id") -> str:
    """A fact id of an item (upper-cased), or ``#N``: the fact item N creates."""
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(f"a {raw['type']} item needs the {key!r} it acts on")
    value = value.strip()
    if value.startswith(REF_PREFIX):
        if not value[1:].isdigit():
            raise InvalidInput(f"{key!r} {value[:20]!r}: a reference to an item is #N")
        return value
    return normalize_prefix(value)


def _clean(raw: Mapping[str, Any], **more: Any) -> dict[str, Any]:
    out = {k: v for k, v in raw.items() if v is not None}
    out.update(more)
    return out


_CREATE_KEYS = (
    "path",
    "content",
    "kind",
    "attributes",
    "tags",
    "confidence",
    "source",
    "evidence",
    "lifetime",
    "visibility",
    "reason",
    "new_id",
)


def _check_create(raw: Mapping[str, Any], make_id: Callable[[], str]) -> dict[str, Any]:
    _allowed(raw, _CREATE_KEYS, ("path", "content"))
    return _clean(raw, new_id=raw.get("new_id") or make_id())


def _store_command(item: Mapping[str, Any], owner: str) -> StoreFact:
    return StoreFact(
        item["new_id"],
        item["path"],
        item["content"],
        owner,
        item.get("tags"),
        item.get("kind", "fact"),
        None,
        item.get("attributes"),
        item.get("confidence"),
        item.get("visibility"),
        item.get("source"),
        item.get("evidence") or (),
        item.get("lifetime"),
    )


Facts = Sequence[FactState]


def _apply_create(item: Mapping[str, Any], states: Facts, owner: str, now: datetime) -> Applied:
    (stored,) = decide_store(_store_command(item, owner), now)
    return Applied(((stored.fact_id, stored),))


def _check_update(raw: Mapping[str, Any], make_id: Callable[[], str]) -> dict[str, Any]:
    _allowed(raw, ("fact_id", "attributes", "reason"), ("fact_id", "attributes"))
    return _clean(raw, fact_id=_target(raw))


def _apply_update(item: Mapping[str, Any], states: Facts, owner: str, now: datetime) -> Applied:
    (state,) = states
    events = decide_update(state, UpdateAttributes(state.fact_id, item["attributes"]), now)
    return Applied(tuple((state.fact_id, e) for e in events))


def _check_archive(raw: Mapping[str, Any], make_id: Callable[[], str]) -> dict[str, Any]:
    _allowed(raw, ("fact_id", "reason", "score"), ("fact_id",))
    return _clean(raw, fact_id=_target(raw))


def _apply_archive(item: Mapping[str, Any], states: Facts, owner: str, now: datetime) -> Applied:
    (state,) = states
    events = decide_forget(state, ForgetFact(state.fact_id), now)
    return Applied(tuple((state.fact_id, e) for e in events))


def _check_supersede(raw: Mapping[str, Any], make_id: Callable[[], str]) -> dict[str, Any]:
    keys = ("fact_id", "content", "kind", "attributes", "tags", "reason", "new_id")
    _allowed(raw, keys, ("fact_id", "content"))
    return _clean(raw, fact_id=_target(raw), new_id=raw.get("new_id") or make_id())


def _apply_supersede(item: Mapping[str, Any], states: Facts, owner: str, now: datetime) -> Applied:
    (state,) = states
    command = SupersedeFact(
        item["new_id"],
        item["content"],
        owner,
        item.get("tags"),
        None,
        item.get("kind"),
        item.get("attributes"),
    )
    (new,) = decide_supersede(state, command, now)
    return Applied(((new.fact_id, new),))


def _check_link(raw: Mapping[str, Any], make_id: Callable[[], str]) -> dict[str, Any]:
    _allowed(raw, ("source", "relation", "target", "reason"), ("source", "relation", "target"))
    source, target = _target(raw, "source"), _target(raw, "target")
    if source == target:
        raise InvalidLink(f"fact {source} cannot be linked to itself")
    relation = parse_relation(raw["relation"]).value
    return _clean(raw, source=source, relation=relation, target=target)


def _apply_link(item: Mapping[str, Any], states: Facts, owner: str, now: datetime) -> Applied:
    """``source —relation→ target`` on the canonical stream (a symmetric relation's
    smaller id), decided by the link rules over both states."""
    src, dst = states
    rel = Relation(item["relation"])
    a, b = canonical(src.fact_id, rel, dst.fact_id)
    on, other = (src, dst) if a == src.fact_id else (dst, src)
    events = decide_link(on, LinkFacts(a, rel, b), now, other)
    return Applied(tuple((a, e) for e in events))


def _check_merge(raw: Mapping[str, Any], make_id: Callable[[], str]) -> dict[str, Any]:
    _allowed(raw, ("survivor", "source", "reason"), ("survivor", "source"))
    survivor, source = _target(raw, "survivor"), _target(raw, "source")
    if survivor == source:
        raise InvalidMerge(f"fact {survivor} cannot be merged into itself")
    return _clean(raw, survivor=survivor, source=source)


def _apply_merge(item: Mapping[str, Any], states: Facts, owner: str, now: datetime) -> Applied:
    kept, gone = states
    decided = decide_merge(kept, gone, MergeFacts(kept.fact_id, gone.fact_id), now)
    return Applied(
        tuple((kept.fact_id, e) for e in decided.survivor)
        + tuple((gone.fact_id, e) for e in decided.source)
    )


_FACT = Role("fact_id", ("rewrite",))
for _t in (
    ItemType("create", _check_create, _apply_create),
    ItemType("update", _check_update, _apply_update, (_FACT,)),
    ItemType("archive", _check_archive, _apply_archive, (Role("fact_id", ("delete",)),)),
    ItemType("supersede", _check_supersede, _apply_supersede, (_FACT,)),
    # A link writes its source's stream (write on the source named) and reads its target.
    ItemType(
        "link",
        _check_link,
        _apply_link,
        (Role("source", ("write",), changes=False), Role("target", changes=False)),
    ),
    # A merge changes the survivor's attributes and archives the source (decision 0054).
    ItemType(
        "merge",
        _check_merge,
        _apply_merge,
        (Role("survivor", ("rewrite",)), Role("source", ("delete",))),
    ),
):
    register_item_type(_t)


def check_item(raw: object, make_id: Callable[[], str]) -> dict[str, Any]:
    """A raw item in its canonical form (:class:`InvalidInput` naming what is wrong)."""
    if not isinstance(raw, Mapping):
        raise InvalidInput("each item is an object with a 'type'")
    return _type_of(raw).check(raw, make_id)


def apply_item(item: Mapping[str, Any], states: Facts, owner: str, now: datetime) -> Applied:
    """The fact events of one item on the states of the facts it names (role order)."""
    return ITEM_TYPES[item["type"]].apply(item, states, owner, now)


def _bind(items: Mapping[str, Mapping[str, Any]], numbers: Iterable[str]) -> None:
    """Replace each ``#N`` of the items ``numbers`` by the id of the fact item N (an
    earlier create or supersede of ``items``) creates."""
    for n in numbers:
        item = items[n]
        for role in roles_of(item):
            value = str(item[role.key])
            if not value.startswith(REF_PREFIX):
                continue
            ref = value[1:].lstrip("0") or "0"
            made = new_fact_of(items[ref]) if ref in items else None
            if made is None or int(ref) >= int(n):
                raise InvalidInput(
                    f"item {n}: {role.key} {value} names no earlier item that creates a fact",
                    hint="#N names the fact an earlier create (or supersede) item N makes.",
                )
            item[role.key] = made  # type: ignore[index]


# -- commands ------------------------------------------------------------------------------


@value
class OpenProposal:
    """Open a proposal of ``items`` for review."""

    proposal_id: str
    items: Sequence[object]
    title: str | None = None
    source: str | None = None


@value
class EditProposal:
    """Drop items by number, replace some (by number), add new ones at the end."""

    drop: Sequence[str] = ()
    replace: Mapping[str, object] = field(default_factory=dict)
    add: Sequence[object] = ()


@value
class ApproveProposal:
    """Approve ``items`` (numbers; None: all) as ``approver``, of the proposal at
    ``version``: the stream version the approver was shown (None: whatever it is now)."""

    approver: str
    items: Sequence[str] | None = None
    version: int | None = None


def _check_items(items: Mapping[str, Mapping[str, Any]]) -> None:
    if not items:
        raise InvalidInput("a proposal needs at least one item")
    if len(items) > MAX_ITEMS:
        raise InvalidInput(f"a proposal holds at most {MAX_ITEMS} items, not {len(items)}")
    seen: dict[str, str] = {}
    for n in _ordered(items):
        changed = [items[n][r.key] for r in roles_of(items[n]) if r.changes]
        for t in changed:
            if t not in seen:
                seen[t] = n
                continue
            raise InvalidInput(
                f"items {seen[t]} and {n} both act on fact {t}; one item per fact",
                hint="Put the changes to one fact into one item.",
            )


def decide_open(command: OpenProposal, make_id: Callable[[], str]) -> list[ProposalOpened]:
    """``[ProposalOpened]`` with the items checked and numbered from 1."""
    if isinstance(command.items, str | bytes | Mapping):
        raise InvalidInput("items is a list of objects, each with a 'type'")
    items = {str(i): check_item(raw, make_id) for i, raw in enumerate(command.items, 1)}
    _bind(items, items)
    _check_items(items)
    title = None if command.title is None else _short(command.title, "title")
    source = None if command.source is None else _short(command.source, "source")
    return [ProposalOpened(command.proposal_id, items, title, source)]


def _short(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 200:
        raise InvalidInput(f"the {what} must be one line of 1 to 200 characters")
    if not value.isprintable():
        raise InvalidInput(f"the {what} holds a control character")
    return value.strip()


def _require_open(state: ProposalState, doing: str) -> None:
    if state.status is ProposalStatus.OPEN:
        return
    raise Conflict(
        f"proposal {state.proposal_id} is {state.status.value}; only an open one can be {doing}",
        hint="See `embornal proposal show` for who decided it and why.",
    )


def _numbers(state: ProposalState, numbers: Iterable[object]) -> list[str]:
    out = []
    for raw in numbers:
        n = str(raw).strip()
        if n not in state.items:
            have = ", ".join(_ordered(state.items)) or "none"
            raise InvalidInput(
                f"proposal {state.proposal_id} has no item {n[:20]!r} (its items: {have})",
                hint="See `embornal proposal show ID` for its items.",
            )
        if n not in out:
            out.append(n)
    return _ordered(out)


def _in_place(old: Mapping[str, Any], raw: object) -> object:
    """A replacement of an item that makes a fact, of the same type and naming no id of its
    own, keeps the id that fact will have (an item's ``#N`` naming it stays true)."""
    made = new_fact_of(old)
    if made is None or not isinstance(raw, Mapping) or raw.get("new_id"):
        return raw
    return {**raw, "new_id": made} if raw.get("type") == old.get("type") else raw


def decide_edit(
    state: ProposalState, command: EditProposal, make_id: Callable[[], str]
) -> list[ProposalEdited]:
    """``[ProposalEdited]``: the items after the edit are checked as a whole."""
    _require_open(state, "edited")
    dropped = _numbers(state, command.drop)
    given = {str(k).strip(): raw for k, raw in command.replace.items()}  # by its own number
    replaced = {
        n: check_item(_in_place(state.items[n], given[n]), make_id) for n in _numbers(state, given)
    }
    top = max((int(n) for n in state.items), default=0)
    added = {str(top + i): check_item(raw, make_id) for i, raw in enumerate(command.add, 1)}
    changed = {**replaced, **added}
    if not dropped and not changed:
        raise InvalidInput(
            "nothing to edit",
            hint="Give an item number to drop, an item to replace, or one to add.",
        )
    after = {k: v for k, v in state.items.items() if k not in dropped}
    after.update(changed)
    _bind(after, changed)
    _check_items(after)
    return [ProposalEdited(state.proposal_id, changed or None, tuple(dropped), len(after))]


def decide_approve(state: ProposalState, command: ApproveProposal) -> list[ProposalApproved]:
    """``[ProposalApproved]`` naming the items chosen (all when none are named);
    :class:`ProposalChanged` when the command names a version the proposal has left."""
    _require_open(state, "approved")
    if command.version is not None and command.version != state.version:
        raise ProposalChanged(
            f"proposal {state.proposal_id} changed since version {command.version} (it is at "
            f"version {state.version} now); nothing was applied",
            hint=f"Read it again (`embornal proposal show {state.proposal_id}`) and approve "
            "the version you read.",
        )
    chosen = _ordered(state.items) if command.items is None else _numbers(state, command.items)
    if not chosen:
        raise InvalidInput("choose at least one item to approve, or reject the proposal")
    return [ProposalApproved(state.proposal_id, tuple(chosen), command.approver)]


def decide_reject(state: ProposalState) -> list[ProposalRejected]:
    _require_open(state, "rejected")
    return [ProposalRejected(state.proposal_id)]
